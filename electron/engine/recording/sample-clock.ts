/**
 * Grid index of the tick after the one at index k of a phase that began at `start`. Ticks
 * fall on start + k * interval, so they do not drift; a tick the event loop delayed past
 * later grid points skips them (a late tick's window is longer, never followed by a sliver).
 */
export function nextTickIndex(k: number, start: number, now: number, intervalMs: number): number {
  return Math.max(k + 1, Math.floor((now - start) / intervalMs) + 1);
}

/** One tick of a SampleClock. */
export interface Tick {
  /**
   * The tick's place on the run's grid, the same in every shard of a run: the warm-up's grid
   * points 1, 2, ..., then the tick that ends the warm-up (the first index at or past it),
   * then the measured grid points after it. A skipped grid point skips its index.
   */
  index: number;
  /** This tick closes the warm-up: the windows after it are measured. */
  endsWarmup: boolean;
  /** When it fired (the clock's time, performance.now() ms by default). */
  at: number;
}

/**
 * A shard's sample timer: calls onTick on a fixed grid from the start of each phase. With a
 * warm-up, its end is a tick of its own (a grid point it falls on is not ticked twice) and
 * the measured phase's grid starts again from that tick. The final tick of a run is the
 * shard's own, at the moment its load ended, in the slot of nextIndex.
 */
export class SampleClock {
  readonly #intervalMs: number;
  readonly #onTick: (tick: Tick) => void;
  readonly #now: () => number;
  #timer: NodeJS.Timeout | undefined;
  #k = 0;
  #start = 0;
  /** Index of the phase's grid point 0: 0 in the warm-up (or without one), the warm-up tick's after. */
  #base = 0;
  /** When the warm-up ends, and the index of the tick that ends it; null once measuring. */
  #warmup: { endsAt: number; index: number } | null = null;
  /** The tick armed next; null between a tick and the arming of the one after it. */
  #next: Tick | null = null;
  #lastIndex = 0;
  /** Bumped by stop() and begin(): a tick whose onTick stopped or restarted the clock arms nothing. */
  #generation = 0;

  constructor(intervalMs: number, onTick: (tick: Tick) => void, now: () => number = () => performance.now()) {
    this.#intervalMs = intervalMs;
    this.#onTick = onTick;
    this.#now = now;
  }

  /** Starts the grid at `start` (performance.now() ms); with warmupMs, the warm-up's phase first. */
  begin(start: number, warmupMs = 0): void {
    this.stop();
    this.#warmup =
      warmupMs > 0
        ? { endsAt: start + warmupMs, index: Math.max(1, Math.ceil(warmupMs / this.#intervalMs)) }
        : null;
    this.#lastIndex = 0;
    this.#phase(start, 0);
  }

  /** The index of the tick that would come next: where a final window, closed early, stands. */
  get nextIndex(): number {
    return this.#next?.index ?? this.#lastIndex + 1;
  }

  stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#generation++;
  }

  #phase(start: number, base: number): void {
    this.#start = start;
    this.#base = base;
    this.#k = 0;
    this.#arm(this.#now());
  }

  #arm(now: number): void {
    this.#k = nextTickIndex(this.#k, this.#start, now, this.#intervalMs);
    let at = this.#start + this.#k * this.#intervalMs;
    const warmup = this.#warmup;
    const endsWarmup = warmup !== null && at >= warmup.endsAt;
    if (warmup !== null && endsWarmup) at = warmup.endsAt;
    this.#next = { index: endsWarmup ? warmup.index : this.#base + this.#k, endsWarmup, at };
    this.#timer = setTimeout(() => this.#fire(), Math.max(0, at - now));
  }

  #fire(): void {
    const now = this.#now();
    const warmup = this.#warmup;
    // A grid tick so late that the warm-up is over ends it (rather than leave a sliver after it).
    const endsWarmup = warmup !== null && (this.#next!.endsWarmup || now >= warmup.endsAt);
    const tick: Tick = endsWarmup
      ? { index: warmup.index, endsWarmup, at: now }
      : { ...this.#next!, at: now };
    this.#next = null;
    this.#lastIndex = tick.index;
    const generation = this.#generation;
    this.#onTick(tick);
    if (generation !== this.#generation) return;
    if (endsWarmup) {
      this.#warmup = null;
      this.#phase(now, tick.index);
    } else {
      this.#arm(this.#now());
    }
  }
}

/**
 * CPU over two windows folded into one (see Recorder.tick): the earlier window's figure and the
 * last stretch's, each weighted by its length; intervalSeconds is the folded window's.
 */
export function foldedCpu(
  previous: { cpuPercent: number; intervalSeconds: number },
  intervalSeconds: number,
  cpuPercent: number,
): number {
  const lastSeconds = Math.max(0, intervalSeconds - previous.intervalSeconds);
  return (previous.cpuPercent * previous.intervalSeconds + cpuPercent * lastSeconds) / intervalSeconds;
}
