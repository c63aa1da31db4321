/**
 * Grid index of the tick after the one at index k of a phase that began at `start`. Ticks
 * fall on start + k * interval, so they do not drift; a tick the event loop delayed past
 * later grid points skips them (a late tick's window is longer, never followed by a sliver).
 */
export function nextTickIndex(k: number, start: number, now: number, intervalMs: number): number {
  return Math.max(k + 1, Math.floor((now - start) / intervalMs) + 1);
}

/**
 * The worker's sample timer: calls onTick on a fixed grid from the start of each phase
 * (warm-up, then measuring). The final tick of a run is the worker's own, at the moment the
 * load ended; the recorder folds it into the window before when it is short.
 */
export class SampleClock {
  readonly #intervalMs: number;
  readonly #onTick: () => void;
  readonly #now: () => number;
  #timer: NodeJS.Timeout | undefined;
  #k = 0;
  #start = 0;

  constructor(intervalMs: number, onTick: () => void, now: () => number = () => performance.now()) {
    this.#intervalMs = intervalMs;
    this.#onTick = onTick;
    this.#now = now;
  }

  /** Starts a phase at `start` (performance.now() ms). */
  begin(start: number): void {
    this.stop();
    this.#start = start;
    this.#k = 0;
    this.#arm(this.#now());
  }

  stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #arm(now: number): void {
    this.#k = nextTickIndex(this.#k, this.#start, now, this.#intervalMs);
    const at = this.#start + this.#k * this.#intervalMs;
    this.#timer = setTimeout(
      () => {
        this.#onTick();
        this.#arm(this.#now());
      },
      Math.max(0, at - now),
    );
  }
}
