import { afterEach, describe, expect, it } from 'vitest';
import {
  BATCH_MS,
  LATENESS_BOUND_MS,
  Pacer,
  WATCH_WAKES,
  type PacerClock,
} from '../../electron/engine/native/drivers/pacer.ts';

/**
 * An event loop on a fake clock: timers fire `timerLateMs` after their whole milliseconds
 * (the next ones `nextTimersLateMs`, first; negative: early, as Node's loop clock can), turns
 * come `turnMs` apart, and a sleep lasts its time plus `sleepLateMs`. Every wait is counted
 * by kind.
 */
class FakeLoop implements PacerClock {
  t = 1000;
  timerLateMs = 0.3;
  nextTimersLateMs: number[] = [];
  turnMs = 0.004;
  sleepLateMs = 0.02;
  readonly timers: number[] = [];
  readonly sleeps: number[] = [];
  turns = 0;
  #queue: { at: number; fn: () => void; id: number }[] = [];
  #id = 0;

  now = (): number => this.t;
  setTimer = (fn: () => void, ms: number): unknown => {
    this.timers.push(ms);
    return this.#add(this.t + ms + (this.nextTimersLateMs.shift() ?? this.timerLateMs), fn);
  };
  clearTimer = (h: unknown): void => this.#remove(h as number);
  setTurn = (fn: () => void): unknown => {
    this.turns++;
    return this.#add(this.t + this.turnMs, fn);
  };
  clearTurn = (h: unknown): void => this.#remove(h as number);
  sleep = (ms: number): void => {
    this.sleeps.push(ms);
    this.t += ms + this.sleepLateMs;
  };

  #add(at: number, fn: () => void): number {
    this.#queue.push({ at, fn, id: ++this.#id });
    return this.#id;
  }
  #remove(id: number): void {
    this.#queue = this.#queue.filter((e) => e.id !== id);
  }

  /** Runs the loop until `until` (fake ms) or until nothing is left to run. */
  run(until = Infinity): void {
    for (;;) {
      this.#queue.sort((a, b) => a.at - b.at);
      const e = this.#queue[0];
      if (e === undefined || e.at > until) break;
      this.#queue.shift();
      this.t = Math.max(this.t, e.at);
      e.fn();
    }
    if (until !== Infinity) this.t = Math.max(this.t, until);
  }
}

/** Arms the pacer for `due` at `now`, as the driver does (through its `next` array). */
function arm(p: Pacer, due: number, now: number): void {
  p.next[0] = due;
  p.next[1] = now;
  p.arm();
}

function pacer(loop = new FakeLoop()): {
  p: Pacer;
  loop: FakeLoop;
  fired: number[];
  state: { quiet: boolean };
} {
  const fired: number[] = [];
  const state = { quiet: true };
  const p = new Pacer(
    (now) => fired.push(now),
    () => state.quiet,
    loop,
  );
  return { p, loop, fired, state };
}

/**
 * Arms and runs `wakes` wake-ups, each `ahead` ms after the one before fired (within the
 * precise mode's sleep, the timer before it left out).
 */
function wakeUps(x: ReturnType<typeof pacer>, wakes: number, ahead = 1.2): void {
  for (let k = 0; k < wakes; k++) {
    const n = x.fired.length;
    arm(x.p, x.loop.t + ahead, x.loop.t);
    x.loop.run();
    expect(x.fired).toHaveLength(n + 1);
  }
}

describe('the open model pacer', () => {
  it('waits for a due time a timer away with one timer of whole milliseconds, never firing before it', () => {
    const x = pacer();
    const due = x.loop.t + 3.4;
    arm(x.p, due, x.loop.t);
    expect(x.p.armed).toBe(true);
    x.loop.run();
    expect(x.loop.timers).toEqual([4]);
    expect(x.loop.sleeps).toEqual([]);
    expect(x.fired).toHaveLength(1);
    expect(x.fired[0]!).toBeGreaterThanOrEqual(due);
    expect(x.p.armed).toBe(false);
  });

  it('waits for a due time under a millisecond away with a timer, never turning the loop to poll until it', () => {
    const x = pacer();
    const due = x.loop.t + 0.04;
    arm(x.p, due, x.loop.t);
    x.loop.run();
    // Each turn spent waiting would be a system call (epoll_pwait): 4-7 a request at 10,000 req/s.
    expect(x.loop.turns).toBe(0);
    expect(x.loop.timers).toEqual([1]);
    expect(x.loop.sleeps).toEqual([]);
    expect(x.fired).toEqual([expect.any(Number)]);
    expect(x.fired[0]!).toBeGreaterThanOrEqual(due);
    expect(x.fired[0]! - due).toBeCloseTo(1 - 0.04 + x.loop.timerLateMs, 9);
  });

  it('fires a due time already past on a later turn, not inside the caller', () => {
    const x = pacer();
    arm(x.p, x.loop.t - 1, x.loop.t);
    expect(x.fired).toHaveLength(0);
    x.loop.run();
    expect(x.fired).toHaveLength(1);
    expect(x.loop.timers).toEqual([]);
  });

  it('a timer that fires early (the loop clock counts whole ms) waits out the rest: one firing, at or after the due time', () => {
    for (const rest of [0.03, 0.7]) {
      const x = pacer();
      x.loop.nextTimersLateMs = [-(0.5 + rest)];
      const due = x.loop.t + 2.5;
      arm(x.p, due, x.loop.t);
      x.loop.run();
      expect(x.fired).toHaveLength(1);
      expect(x.fired[0]!).toBeGreaterThanOrEqual(due);
      // The rest, however short, is timed again: no turn of the loop polls until it.
      expect(x.loop.timers).toEqual([3, 1]);
      expect(x.loop.turns).toBe(0);
    }
  });

  it('keeps the wake-up set when armed again for due times before it, and sets a later one when it would find nothing due', () => {
    const x = pacer();
    const start = x.loop.t;
    // A response after each send moves the due time on: one wake-up for all of them.
    for (let k = 1; k <= 4; k++) arm(x.p, start + 1 + 0.2 * k, start + 0.05 * k);
    expect(x.loop.timers).toEqual([2]);
    // Its requests went out meanwhile; the next is due after the timer: a timer for it instead.
    arm(x.p, start + 4.5, start + 0.3);
    x.loop.run();
    expect(x.loop.timers).toEqual([2, 5]);
    expect(x.fired).toHaveLength(1);
    expect(x.fired[0]!).toBeGreaterThanOrEqual(start + 4.5);
  });

  it('never fires once cancelled', () => {
    const x = pacer();
    arm(x.p, x.loop.t + 0.5, x.loop.t);
    x.p.cancel();
    expect(x.p.armed).toBe(false);
    x.loop.run();
    expect(x.fired).toHaveLength(0);
  });

  it('stays coarse (timers, no sleep) while its wake-ups are within the bound', () => {
    const x = pacer();
    x.loop.timerLateMs = 0.9;
    wakeUps(x, WATCH_WAKES * 3);
    expect(x.loop.sleeps).toEqual([]);
  });

  it('sleeps precisely once coarse wake-ups pass the bound and precise ones do better, and sleeps only with nothing in flight', () => {
    const x = pacer();
    // A timer clock coarser than the loop's millisecond (timer coalescing).
    x.loop.timerLateMs = LATENESS_BOUND_MS + 3;
    wakeUps(x, WATCH_WAKES);
    expect(x.loop.sleeps).toEqual([]);
    wakeUps(x, 10);
    expect(x.loop.sleeps).toHaveLength(10);
    const gaps = x.fired.slice(-10).map((f, i, all) => (i === 0 ? 1.2 : f - all[i - 1]!));
    expect(Math.max(...gaps)).toBeLessThan(1.2 + x.loop.sleepLateMs + 0.01);
    // With requests in flight no sleep blocks the thread: a timer, whose lateness shows.
    x.state.quiet = false;
    const sleeps = x.loop.sleeps.length;
    wakeUps(x, 3);
    expect(x.loop.sleeps).toHaveLength(sleeps);
  });

  it('precise mode leaves BATCH_MS between two wake-ups', () => {
    const x = pacer();
    x.loop.timerLateMs = LATENESS_BOUND_MS + 3;
    wakeUps(x, WATCH_WAKES);
    const before = x.fired.at(-1)!;
    arm(x.p, before + 0.1, x.loop.t);
    x.loop.run();
    expect(x.fired.at(-1)! - before).toBeGreaterThanOrEqual(BATCH_MS);
  });

  it('goes back to coarse when precise wake-ups are as late (a busy machine), and tries again only after a back-off', () => {
    const x = pacer();
    x.loop.timerLateMs = LATENESS_BOUND_MS + 3;
    x.loop.sleepLateMs = LATENESS_BOUND_MS + 3;
    wakeUps(x, WATCH_WAKES);
    expect(x.loop.sleeps).toHaveLength(0);
    wakeUps(x, WATCH_WAKES);
    expect(x.loop.sleeps).toHaveLength(WATCH_WAKES);
    // Coarse for the back-off (two windows), over the bound all along, then precise again.
    wakeUps(x, 2 * WATCH_WAKES);
    expect(x.loop.sleeps).toHaveLength(WATCH_WAKES);
    wakeUps(x, WATCH_WAKES + 1);
    expect(x.loop.sleeps).toHaveLength(WATCH_WAKES + 1);
  });

  it('returns to the cheaper coarse timers after a while in precise mode, when they are within the bound again', () => {
    const x = pacer();
    x.loop.timerLateMs = LATENESS_BOUND_MS + 3;
    wakeUps(x, WATCH_WAKES);
    x.loop.timerLateMs = 0.5;
    wakeUps(x, 16 * WATCH_WAKES);
    const sleeps = x.loop.sleeps.length;
    wakeUps(x, 3 * WATCH_WAKES);
    expect(x.loop.sleeps).toHaveLength(sleeps);
  });
});

describe('the pacer on the real event loop', () => {
  const made: Pacer[] = [];
  afterEach(() => {
    for (const p of made.splice(0)) p.cancel();
  });

  it('fires once, never before the due time', async () => {
    for (const ahead of [0.03, 0.3, 1.2, 6]) {
      const fired: number[] = [];
      const p = new Pacer(
        (now) => fired.push(now),
        () => true,
      );
      made.push(p);
      const now = performance.now();
      arm(p, now + ahead, now);
      // Bounded by what it protects: the test's own time, not the pacer's precision.
      const end = performance.now() + 5000;
      while (fired.length === 0 && performance.now() < end) await new Promise((r) => setTimeout(r, 1));
      await new Promise((r) => setTimeout(r, 5));
      expect(fired).toHaveLength(1);
      expect(fired[0]!).toBeGreaterThanOrEqual(now + ahead);
    }
  });
});
