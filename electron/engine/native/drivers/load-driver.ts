import type { Schedule } from '../../types.ts';
import type { Client, RequestLedger } from '../run-state.ts';

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
  /** When sending started (performance.now() ms): the run's start, the same in every shard. */
  protected startAt = 0;
  protected schedule: Schedule | null = null;
  /** Where this driver's schedule begins: startAt plus its shard's offset. */
  protected t0 = 0;
  protected finished = false;
  readonly #timeoutMs: number;
  #sweeper: NodeJS.Timeout | null = null;
  #resolve: () => void = () => undefined;

  constructor(state: RequestLedger, timeoutMs: number) {
    this.state = state;
    this.#timeoutMs = timeoutMs;
  }

  /**
   * warmupDone (null without a warm-up) resolves when measuring starts; limits count from then.
   * schedule: when sending starts (now by default) and how far after it this driver's schedule
   * begins (a shard's place in a split rate, see shared/shards/plan.ts).
   */
  run(signal: AbortSignal, warmupDone: Promise<void> | null, schedule: Schedule | null = null): Promise<O> {
    return new Promise<O>((resolve) => {
      this.#resolve = () => resolve(this.outcome());
      if (signal.aborted) return this.finish();
      signal.addEventListener('abort', () => this.finish(), { once: true });
      this.schedule = schedule;
      this.startAt = schedule?.startAt ?? performance.now();
      this.t0 = this.startAt + (schedule?.offsetMs ?? 0);
      this.#sweeper = setInterval(() => {
        const now = performance.now();
        // Indexed: an iterator's result object per client was a pool's garbage at each sweep.
        const clients = this.clients;
        for (let i = 0; i < clients.length; i++) clients[i]!.sweep(now);
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
