/**
 * When the open model's thread sleeps and when it does not (issue 38).
 *
 * A wake-up is the expensive part of a send at a low rate: a sleep and its wake cost 35-80 us
 * of CPU on a virtual machine whoever wakes the thread (a timer, a futex, a socket). A turn of
 * the loop that polls without sleeping is no cheaper: each is an `epoll_pwait` system call.
 * Turning the loop until a due time under 50 us away cost 4-7 of those a request at 10,000
 * req/s and about 40% of the sending thread's CPU (docs/benchmarks.md, 2026-12-05 16:13). So:
 *
 * - **Coarse**: a timer on the loop's clock, which counts whole milliseconds, fires in the
 *   loop's first millisecond at or after the due time; the send goes out up to about a
 *   millisecond late, with every send due by then in the same wake-up. That lateness is
 *   recorded (the run's send lateness) and is in the latency, which runs from the schedule's
 *   time (coordinated omission corrected). wrk2's timers count whole milliseconds too. At high
 *   rates the thread hardly waits for it: each response wakes it and sends what is due by then
 *   (the driver's freed()), so the timer only fills the gaps between responses.
 * - **Precise**, only where the coarse wake-ups' measured lateness passes LATENESS_BOUND_MS
 *   at the p99 (a timer clock coarser than the loop's millisecond: a platform's timer
 *   coalescing) and a precise sleep measured better: the thread sleeps (Atomics.wait) until the
 *   due time itself when nothing is in flight, at most every BATCH_MS. When the precise
 *   wake-ups are late too, the lateness is the machine's (a busy CPU), which precision does
 *   not mend: the coarse timer again, for a while before the next try.
 */

/**
 * The lateness a coarse wake-up may have at its p99: the loop clock's millisecond, and as
 * much again for the wake-up itself. Above it the pacer tries precise sleeps.
 */
export const LATENESS_BOUND_MS = 2;
/** Wake-ups judged together: their p99 is the one over the bound, or none (under 1% of them). */
export const WATCH_WAKES = 128;
/**
 * Precise mode: the shortest time between two wake-ups (requests due within it go out in one
 * batch), and how far ahead of a due time a timer gives way to the precise sleep (a timer
 * may fire a millisecond early or late).
 */
export const BATCH_MS = 0.5;
const TIMER_SLOP_MS = 1.5;
/** Windows a good precise mode is kept before the cheaper coarse one is tried again. */
const PRECISE_KEPT_WINDOWS = 16;
/** After a precise try that did no better, windows before the next try: doubled each time, up to the last. */
const FIRST_BACKOFF_WINDOWS = 2;
const MAX_BACKOFF_WINDOWS = 64;

type PacerMode = 'coarse' | 'precise';

/** The clock and the waits the pacer uses (performance.now() ms); tests give fakes. */
export interface PacerClock {
  now(): number;
  /** Calls fn after `ms` whole milliseconds of the loop's clock (a timer). */
  setTimer(fn: () => void, ms: number): unknown;
  clearTimer(handle: unknown): void;
  /** Calls fn on the loop's next turn, its I/O polled without sleeping (an immediate). */
  setTurn(fn: () => void): unknown;
  clearTurn(handle: unknown): void;
  /** Blocks the thread for `ms`, precise to a fraction of a millisecond. */
  sleep(ms: number): void;
}

/** Never notified: a wait on it lasts its whole timeout. */
const sleeper = new Int32Array(new SharedArrayBuffer(4));

export const loopClock: PacerClock = {
  now: () => performance.now(),
  setTimer: (fn, ms) => setTimeout(fn, ms),
  clearTimer: (h) => clearTimeout(h as NodeJS.Timeout),
  setTurn: (fn) => setImmediate(fn),
  clearTurn: (h) => clearImmediate(h as NodeJS.Immediate),
  sleep: (ms) => void Atomics.wait(sleeper, 0, 0, ms),
};

/**
 * The pacer's own wake-ups, WATCH_WAKES at a time: how many were later than the bound, and
 * the mode the next window runs in.
 */
class LatenessWatch {
  mode: PacerMode = 'coarse';
  #wakes = 0;
  #over = 0;
  /** Coarse windows left before precise may be tried again; precise windows left before coarse is. */
  #hold = 0;
  #backoff = FIRST_BACKOFF_WINDOWS;

  woke(lateMs: number): void {
    this.#wakes++;
    if (lateMs > LATENESS_BOUND_MS) this.#over++;
    if (this.#wakes >= WATCH_WAKES) this.#judge();
  }

  #judge(): void {
    const over = this.#over * 100 > this.#wakes;
    this.#wakes = 0;
    this.#over = 0;
    if (this.mode === 'precise') {
      if (over) {
        // Precision did not help: the lateness is not the timer's clock.
        this.mode = 'coarse';
        this.#hold = this.#backoff;
        this.#backoff = Math.min(MAX_BACKOFF_WINDOWS, this.#backoff * 2);
      } else if (--this.#hold <= 0) {
        this.mode = 'coarse';
        this.#hold = 0;
      }
    } else if (over) {
      if (this.#hold > 0) this.#hold--;
      else {
        this.mode = 'precise';
        this.#hold = PRECISE_KEPT_WINDOWS;
      }
    } else if (this.#hold > 0) {
      this.#hold--;
    }
  }
}

/**
 * Wakes the send loop at a due time (performance.now() ms): fire(now) is called once, at or
 * after it. `quiet` says whether nothing is in flight (only then may a precise sleep block the
 * thread: no response can arrive meanwhile to be read late; a connection opening ahead of
 * need may answer its connect up to that much later, which times nothing). The driver arms
 * again after each response; while requests are in flight each response sends what is due
 * (the driver's freed()).
 */
export class Pacer {
  readonly #fire: (now: number) => void;
  readonly #quiet: () => boolean;
  readonly #clock: PacerClock;
  readonly #watch = new LatenessWatch();
  /**
   * What arm() reads: [0] the due time to wake at, [1] the time now (performance.now() ms),
   * set just before it. Numbers in a typed array cross the call without being boxed (see
   * RequestLedger.times): the driver arms after most of its sends.
   */
  readonly next = new Float64Array(2);
  /** The due time armed for, and when the wake-up is planned (precise: not before BATCH_MS after the last). */
  #due = Number.NaN;
  #at = 0;
  #lastFiredAt = Number.NEGATIVE_INFINITY;
  #timer: unknown = null;
  /** When the timer set was planned to fire at the earliest. */
  #timerAt = 0;
  #turn: unknown = null;
  readonly #onTimer = (): void => {
    this.#timer = null;
    this.#wait(this.#clock.now(), true);
  };
  readonly #onTurn = (): void => {
    this.#turn = null;
    const clock = this.#clock;
    let now = clock.now();
    const rest = this.#at - now;
    if (rest > 0 && this.#watch.mode === 'precise' && rest <= TIMER_SLOP_MS && this.#quiet()) {
      clock.sleep(rest);
      now = clock.now();
      this.#wait(now, true);
    } else {
      this.#wait(now, false);
    }
  };

  constructor(fire: (now: number) => void, quiet: () => boolean, clock: PacerClock = loopClock) {
    this.#fire = fire;
    this.#quiet = quiet;
    this.#clock = clock;
  }

  get armed(): boolean {
    return this.#timer !== null || this.#turn !== null;
  }

  /**
   * Calls fire once, at `next[0]` (the due time) or just after. Arming again moves the due
   * time (later: the requests before it went out meanwhile); a wake-up already set stays
   * unless it would come before the new due time and find nothing to send (a wasted wake-up).
   */
  arm(): void {
    const due = this.next[0]!;
    const now = this.next[1]!;
    if (due !== this.#due || !this.armed) {
      this.#due = due;
      this.#at = this.#watch.mode === 'precise' ? Math.max(due, this.#lastFiredAt + BATCH_MS) : due;
    }
    if (this.#turn !== null) return;
    if (this.#timer !== null) {
      if (this.#watch.mode === 'precise') {
        // Near the due time, once nothing is in flight, the timer gives way to the precise sleep.
        if (this.#at - now > TIMER_SLOP_MS || !this.#quiet()) return;
      } else if (this.#timerAt >= this.#at) {
        return;
      }
      this.cancel();
    }
    // Not from inside the caller's send loop: a due time already passed wakes on the next turn.
    if (this.#at <= now) this.#turn = this.#clock.setTurn(this.#onTurn);
    else this.#wait(now, false);
  }

  cancel(): void {
    if (this.#timer !== null) this.#clock.clearTimer(this.#timer);
    if (this.#turn !== null) this.#clock.clearTurn(this.#turn);
    this.#timer = null;
    this.#turn = null;
  }

  /** `woke`: called from a sleep's or a timer's end, whose lateness is the watch's to judge. */
  #wait(now: number, woke: boolean): void {
    const rest = this.#at - now;
    if (rest <= 0) {
      if (woke) this.#watch.woke(-rest);
      this.#lastFiredAt = now;
      this.#fire(now);
      return;
    }
    const clock = this.#clock;
    if (this.#watch.mode === 'coarse') {
      // The loop's clock counts whole milliseconds from its turn's start: the timer fires in its
      // first millisecond at or after the due time (or up to one early: then again, as above).
      const ms = Math.ceil(rest);
      this.#timerAt = now + ms;
      this.#timer = clock.setTimer(this.#onTimer, ms);
    } else if (rest > TIMER_SLOP_MS) {
      this.#timerAt = now + rest - TIMER_SLOP_MS;
      this.#timer = clock.setTimer(this.#onTimer, rest - TIMER_SLOP_MS);
    } else if (this.#quiet()) {
      // On the loop's next turn: the I/O callbacks running now finish first, then the sleep.
      this.#turn = clock.setTurn(this.#onTurn);
    } else {
      this.#timerAt = now + rest;
      this.#timer = clock.setTimer(this.#onTimer, rest);
    }
  }
}
