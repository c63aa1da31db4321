import type { Client, RequestLedger } from './run-state.ts';

/** How often unfinished requests are checked against the timeout (a tenth of it, within bounds). */
export function sweepInterval(timeoutMs: number): number {
  return Math.min(250, Math.max(5, Math.floor(timeoutMs / 10)));
}

/**
 * What the closed and the open driver share: run() resolves once, with outcome(), when
 * finish() is called (limit reached, schedule done, or the signal aborted); meanwhile a
 * sweeper fails requests older than the timeout. finish() clears the driver's own timers,
 * drops every connection (unfinished requests stay unfinished: a stopped run reports them
 * in flight) and resolves.
 */
export abstract class LoadDriver<O> {
  protected readonly state: RequestLedger;
  protected readonly clients: Client[] = [];
  /** performance.now() when run() started. */
  protected t0 = 0;
  protected finished = false;
  readonly #timeoutMs: number;
  #sweeper: NodeJS.Timeout | null = null;
  #resolve: () => void = () => undefined;

  constructor(state: RequestLedger, timeoutMs: number) {
    this.state = state;
    this.#timeoutMs = timeoutMs;
  }

  /** warmupDone (null without a warm-up) resolves when measuring starts; limits count from then. */
  run(signal: AbortSignal, warmupDone: Promise<void> | null): Promise<O> {
    return new Promise<O>((resolve) => {
      this.#resolve = () => resolve(this.outcome());
      if (signal.aborted) return this.finish();
      signal.addEventListener('abort', () => this.finish(), { once: true });
      this.t0 = performance.now();
      this.#sweeper = setInterval(() => {
        const now = performance.now();
        for (const c of this.clients) c.sweep(now);
      }, sweepInterval(this.#timeoutMs));
      this.begin(warmupDone);
    });
  }

  /** Starts sending (t0 is set). */
  protected abstract begin(warmupDone: Promise<void> | null): void;

  /** Clears the driver's own timers (pacing, deadline). */
  protected abstract clearTimers(): void;

  protected abstract outcome(): O;

  protected finish(): void {
    if (this.finished) return;
    this.finished = true;
    this.clearTimers();
    if (this.#sweeper !== null) clearInterval(this.#sweeper);
    for (const c of this.clients) c.destroy();
    this.#resolve();
  }
}
