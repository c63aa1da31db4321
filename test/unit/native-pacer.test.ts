import { afterEach, describe, expect, it } from 'vitest';
import { BATCH_MS, Pacer } from '../../electron/engine/native/pacer.ts';

/** A pacer whose firings are recorded (performance.now() ms); `quiet` as the test sets it. */
function pacer(): { p: Pacer; fired: number[]; state: { quiet: boolean } } {
  const fired: number[] = [];
  const state = { quiet: true };
  const p = new Pacer(
    (now) => fired.push(now),
    () => state.quiet,
  );
  return { p, fired, state };
}

const until = async (done: () => boolean, ms = 200): Promise<void> => {
  const end = performance.now() + ms;
  while (!done() && performance.now() < end) await new Promise((resolve) => setTimeout(resolve, 1));
};

const made: Pacer[] = [];
afterEach(() => {
  for (const p of made.splice(0)) p.cancel();
});

describe('the open model pacer', () => {
  it('wakes once, never before the due time: a timer far ahead, the precise sleep near it', async () => {
    for (const ahead of [0.3, 1.2, 6]) {
      const { p, fired } = pacer();
      made.push(p);
      const now = performance.now();
      p.arm(now + ahead, now);
      expect(p.armed).toBe(true);
      await until(() => fired.length > 0);
      await new Promise((resolve) => setTimeout(resolve, 5));
      expect(fired).toHaveLength(1);
      expect(fired[0]!).toBeGreaterThanOrEqual(now + ahead);
      expect(p.armed).toBe(false);
    }
  });

  it('keeps one wake-up when armed again for later due times, and fires at the last', async () => {
    const { p, fired } = pacer();
    made.push(p);
    const now = performance.now();
    // A response after each send moves the due time on: the wake-up set first must not be
    // pushed back by each (a timer set anew every time never fired under a busy stream).
    for (let k = 1; k <= 5; k++) p.arm(now + 0.2 * k, now);
    await until(() => fired.length > 0);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(fired).toHaveLength(1);
    expect(fired[0]!).toBeGreaterThanOrEqual(now + 1);
  });

  it('leaves at least BATCH_MS between two wake-ups, and fires a due time already past on a later turn', async () => {
    const { p, fired } = pacer();
    made.push(p);
    let now = performance.now();
    p.arm(now - 1, now);
    // Not from inside the caller (its send loop): on a later turn.
    expect(fired).toHaveLength(0);
    await until(() => fired.length > 0);
    now = performance.now();
    p.arm(now, now);
    await until(() => fired.length > 1);
    expect(fired).toHaveLength(2);
    expect(fired[1]! - fired[0]!).toBeGreaterThanOrEqual(BATCH_MS);
  });

  it('with requests in flight leaves the event loop free, and sleeps once armed again with nothing in flight', async () => {
    const { p, fired, state } = pacer();
    made.push(p);
    const firedBy = (): Promise<number> =>
      new Promise((resolve) => setImmediate(() => resolve(fired.length)));
    // Nothing in flight: the sleep, queued first, holds the thread up to the due time.
    let now = performance.now();
    p.arm(now + 0.5, now);
    expect(await firedBy()).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 2));
    // In flight: a timer, and the loop's next turn comes before it.
    state.quiet = false;
    now = performance.now();
    const due = now + 1;
    p.arm(due, now);
    expect(await firedBy()).toBe(1);
    state.quiet = true;
    p.arm(due, performance.now());
    await until(() => fired.length > 1);
    expect(fired).toHaveLength(2);
    expect(fired[1]!).toBeGreaterThanOrEqual(due);
  });

  it('never fires once cancelled', async () => {
    const { p, fired } = pacer();
    const now = performance.now();
    p.arm(now + 0.5, now);
    p.cancel();
    expect(p.armed).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(fired).toHaveLength(0);
  });
});
