import { afterEach, describe, expect, it, vi } from 'vitest';
import { nextTickIndex, SampleClock } from '../../electron/engine/sample-clock.ts';

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
});
