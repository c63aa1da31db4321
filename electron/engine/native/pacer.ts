/**
 * Node's timers cannot wake a thread less than a millisecond ahead: a delay under 1 ms is
 * 1 ms, and libuv's loop clock counts whole milliseconds, so a wait that begins late in a
 * millisecond still lasts a whole one. The open model's sends went out 1.1-1.3 ms late at the
 * p99 at 20,000 req/s on loopback: each wake-up's batch, every 1-2 ms. A due time nearer than
 * this is waited for precisely (Atomics.wait) when nothing is in flight.
 */
const TIMER_SLOP_MS = 1.5;
/**
 * The shortest time between two wake-ups of the pacer: requests due within it go out in one
 * batch. A wake-up costs 35-70 us of CPU on a virtual machine (a timer's or a futex's alike):
 * one per request at 20,000 req/s would take a core.
 */
export const BATCH_MS = 0.5;

/** Never notified: a wait on it lasts its whole timeout. */
const sleeper = new Int32Array(new SharedArrayBuffer(4));

/**
 * Wakes the send loop at a due time (performance.now() ms). Far ahead, a timer. Within
 * TIMER_SLOP_MS of it, when `quiet` says nothing is in flight, the thread sleeps until the
 * due time itself (Atomics.wait, precise to a fraction of a millisecond): no response can
 * arrive meanwhile to be read late (a connection opening ahead of need may answer its
 * connect up to that much later, which times nothing). With requests in flight the event
 * loop waits on their sockets as usual (each response sends what is due, see the driver's
 * freed()), behind a 1 ms timer; the driver arms again after each response, and the last
 * one leaves it quiet.
 */
export class Pacer {
  readonly #fire: (now: number) => void;
  readonly #quiet: () => boolean;
  /** The due time armed for, and when the wake-up is planned (not before BATCH_MS after the last). */
  #due = Number.NaN;
  #at = 0;
  #lastFiredAt = Number.NEGATIVE_INFINITY;
  #timer: NodeJS.Timeout | null = null;
  #immediate: NodeJS.Immediate | null = null;
  readonly #onTimer = (): void => {
    this.#timer = null;
    this.#wait(performance.now());
  };
  readonly #onSleep = (): void => {
    this.#immediate = null;
    let now = performance.now();
    if (now < this.#at && this.#quiet()) {
      Atomics.wait(sleeper, 0, 0, this.#at - now);
      now = performance.now();
    }
    this.#wait(now);
  };

  constructor(fire: (now: number) => void, quiet: () => boolean) {
    this.#fire = fire;
    this.#quiet = quiet;
  }

  get armed(): boolean {
    return this.#timer !== null || this.#immediate !== null;
  }

  /**
   * Calls fire once, at `due` or just after. Arming again moves the due time (later: the
   * requests before it went out meanwhile) and keeps the wake-up already set, which looks at
   * the due time when it comes (a timer set anew on every response would never fire while
   * they come faster than a millisecond apart); a timer near the due time gives way to the
   * precise sleep once nothing is in flight.
   */
  arm(due: number, now: number): void {
    if (due !== this.#due || !this.armed) {
      this.#due = due;
      this.#at = Math.max(due, this.#lastFiredAt + BATCH_MS);
    }
    if (this.#immediate !== null) return;
    if (this.#timer !== null) {
      if (this.#at - now > TIMER_SLOP_MS || !this.#quiet()) return;
      this.cancel();
    }
    // Not from inside the caller's send loop: a due time already passed wakes on the next turn.
    if (this.#at <= now) this.#immediate = setImmediate(this.#onSleep);
    else this.#wait(now);
  }

  cancel(): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    if (this.#immediate !== null) clearImmediate(this.#immediate);
    this.#timer = null;
    this.#immediate = null;
  }

  #wait(now: number): void {
    const rest = this.#at - now;
    if (rest <= 0) {
      this.#lastFiredAt = now;
      this.#fire(now);
    } else if (rest > TIMER_SLOP_MS) {
      this.#timer = setTimeout(this.#onTimer, rest - TIMER_SLOP_MS);
    } else if (this.#quiet()) {
      // On the loop's next turn: the I/O callbacks running now finish first.
      this.#immediate = setImmediate(this.#onSleep);
    } else {
      this.#timer = setTimeout(this.#onTimer, rest);
    }
  }
}
