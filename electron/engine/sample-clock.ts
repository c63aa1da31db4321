import type { Load } from '../../shared/scenario.ts';

/**
 * Grid index of the tick after the one at index k of a phase that began at `start`. Ticks
 * fall on start + k * interval, so they do not drift; a tick the event loop delayed past
 * later grid points skips them (a late tick's window is longer, never followed by a sliver).
 * The grid point within half an interval of the phase's planned end is skipped too: the
 * phase's last window then runs to the actual end (0.5 to 1.5 intervals long) instead of
 * leaving a few milliseconds of wind-down after the load stopped, whose rate would read as a
 * drop to zero and whose handful of answers as a latency spike.
 */
export function nextTickIndex(
  k: number,
  start: number,
  now: number,
  intervalMs: number,
  plannedEnd: number | null,
): number {
  let next = Math.max(k + 1, Math.floor((now - start) / intervalMs) + 1);
  if (plannedEnd !== null && Math.abs(start + next * intervalMs - plannedEnd) < intervalMs / 2) next++;
  return next;
}

/**
 * The worker's sample timer: calls onTick on a fixed grid from the start of each phase
 * (warm-up, then measuring), skipping the tick nearest the phase's planned end (see
 * nextTickIndex). The final tick of a run is the worker's own, at the moment the load ended.
 */
export class SampleClock {
  readonly #intervalMs: number;
  readonly #onTick: () => void;
  readonly #now: () => number;
  #timer: NodeJS.Timeout | undefined;
  #k = 0;
  #start = 0;
  #plannedEnd: number | null = null;

  constructor(intervalMs: number, onTick: () => void, now: () => number = () => performance.now()) {
    this.#intervalMs = intervalMs;
    this.#onTick = onTick;
    this.#now = now;
  }

  /** Starts a phase at `start` (performance.now() ms), ending near plannedEnd (null: unknown). */
  begin(start: number, plannedEnd: number | null): void {
    this.stop();
    this.#start = start;
    this.#plannedEnd = plannedEnd;
    this.#k = 0;
    this.#arm(this.#now());
  }

  stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #arm(now: number): void {
    this.#k = nextTickIndex(this.#k, this.#start, now, this.#intervalMs, this.#plannedEnd);
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

/** How long a load runs once measuring starts, when its end is planned (null: a request count). */
export function plannedLoadMs(load: Load): number | null {
  if (load.model === 'open') return load.durationSeconds * 1000;
  return load.limit.kind === 'duration' ? load.limit.seconds * 1000 : null;
}
