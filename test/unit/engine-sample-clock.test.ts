import { afterEach, describe, expect, it, vi } from 'vitest';
import { nextTickIndex, SampleClock, type Tick } from '../../electron/engine/recording/sample-clock.ts';

afterEach(() => {
  vi.useRealTimers();
});

describe('nextTickIndex', () => {
  it('steps along a fixed grid from the phase start', () => {
    // start 100 ms, 1 s ticks: 1100, 2100, 3100, ...
    expect(nextTickIndex(0, 100, 100, 1000)).toBe(1);
    expect(nextTickIndex(1, 100, 1100.4, 1000)).toBe(2);
    // A timer that fires a little early still moves on to the next grid point.
    expect(nextTickIndex(2, 100, 2099.6, 1000)).toBe(3);
  });

  it('skips grid points a stalled event loop went past', () => {
    expect(nextTickIndex(1, 0, 3500, 1000)).toBe(4);
  });
});

describe('SampleClock', () => {
  it('ticks on the grid and restarts with a new phase', () => {
    vi.useFakeTimers();
    const ticks: number[] = [];
    const clock = new SampleClock(
      1000,
      () => ticks.push(Date.now()),
      () => Date.now(),
    );
    const t0 = Date.now();
    clock.begin(t0);
    vi.advanceTimersByTime(3000);
    expect(ticks.map((t) => t - t0)).toEqual([1000, 2000, 3000]);

    ticks.length = 0;
    const t1 = Date.now();
    clock.begin(t1 + 250);
    vi.advanceTimersByTime(2300);
    expect(ticks.map((t) => t - t1)).toEqual([1250, 2250]);
    clock.stop();
    vi.advanceTimersByTime(5000);
    expect(ticks).toHaveLength(2);
  });

  it('ends a warm-up with a tick of its own, then starts the grid again from it', () => {
    vi.useFakeTimers();
    const ticks: Tick[] = [];
    const clock = new SampleClock(
      100,
      (t) => ticks.push(t),
      () => Date.now(),
    );
    const t0 = Date.now();
    clock.begin(t0, 250);
    vi.advanceTimersByTime(500);
    clock.stop();
    expect(ticks.map((t) => [t.index, t.at - t0, t.endsWarmup])).toEqual([
      [1, 100, false],
      [2, 200, false],
      [3, 250, true],
      [4, 350, false],
      [5, 450, false],
    ]);
    // A final window closed now stands in the place of the tick that would have come next.
    expect(clock.nextIndex).toBe(6);
  });

  it('does not tick twice when the warm-up ends on a grid point', () => {
    vi.useFakeTimers();
    const ticks: Tick[] = [];
    const clock = new SampleClock(
      100,
      (t) => ticks.push(t),
      () => Date.now(),
    );
    const t0 = Date.now();
    clock.begin(t0, 200);
    vi.advanceTimersByTime(300);
    clock.stop();
    expect(ticks.map((t) => [t.index, t.at - t0, t.endsWarmup])).toEqual([
      [1, 100, false],
      [2, 200, true],
      [3, 300, false],
    ]);
  });

  it('takes a tick so late that the warm-up is over as its end', () => {
    vi.useFakeTimers();
    const ticks: Tick[] = [];
    let skew = 0;
    const clock = new SampleClock(
      100,
      (t) => ticks.push(t),
      () => Date.now() + skew,
    );
    const t0 = Date.now();
    clock.begin(t0, 250);
    vi.advanceTimersByTime(100);
    // The event loop stalls: the tick due at 200 ms fires at 290.
    skew = 90;
    vi.advanceTimersByTime(100);
    clock.stop();
    expect(ticks.map((t) => [t.index, t.at - t0, t.endsWarmup])).toEqual([
      [1, 100, false],
      [3, 290, true],
    ]);
  });
});
