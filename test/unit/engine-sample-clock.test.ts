import { afterEach, describe, expect, it, vi } from 'vitest';
import { scenarioSchema } from '../../shared/scenario.ts';
import { nextTickIndex, plannedLoadMs, SampleClock } from '../../electron/engine/sample-clock.ts';

afterEach(() => {
  vi.useRealTimers();
});

describe('nextTickIndex', () => {
  it('steps along a fixed grid from the phase start', () => {
    // start 100 ms, 1 s ticks, no planned end: 1100, 2100, 3100, ...
    expect(nextTickIndex(0, 100, 100, 1000, null)).toBe(1);
    expect(nextTickIndex(1, 100, 1100.4, 1000, null)).toBe(2);
    // A timer that fires a little early still moves on to the next grid point.
    expect(nextTickIndex(2, 100, 2099.6, 1000, null)).toBe(3);
  });

  it('skips grid points a stalled event loop went past', () => {
    expect(nextTickIndex(1, 0, 3500, 1000, null)).toBe(4);
  });

  it('skips the grid point within half an interval of the planned end', () => {
    // 2 s run, 1 s ticks: tick at 1 s, none at 2 s; the final window runs from 1 s to the end.
    expect(nextTickIndex(0, 0, 0, 1000, 2000)).toBe(1);
    expect(nextTickIndex(1, 0, 1000, 1000, 2000)).toBe(3);
    // 2.3 s run: the 2 s tick is 0.3 s before the end, skipped too (last window 1.3 s).
    expect(nextTickIndex(1, 0, 1000, 1000, 2300)).toBe(3);
    // 2.6 s run: the 2 s tick is 0.6 s before the end and stays (last window 0.6 s).
    expect(nextTickIndex(1, 0, 1000, 1000, 2600)).toBe(2);
    // 100 ms ticks, 1 s run: ticks up to 900 ms, none at 1 s.
    expect(nextTickIndex(8, 0, 800, 100, 1000)).toBe(9);
    expect(nextTickIndex(9, 0, 900, 100, 1000)).toBe(11);
  });
});

describe('plannedLoadMs', () => {
  it('knows the end of timed loads only', () => {
    const load = (l: unknown) =>
      scenarioSchema.parse({ targets: [{ url: 'http://127.0.0.1/' }], load: l }).load;
    expect(plannedLoadMs(load({ model: 'open', rate: 100, durationSeconds: 2.5 }))).toBe(2500);
    expect(
      plannedLoadMs(load({ model: 'closed', connections: 1, limit: { kind: 'duration', seconds: 3 } })),
    ).toBe(3000);
    expect(
      plannedLoadMs(load({ model: 'closed', connections: 1, limit: { kind: 'requests', count: 10 } })),
    ).toBeNull();
  });
});

describe('SampleClock', () => {
  it('ticks on the grid, skips the tick at the planned end, and restarts with a new phase', () => {
    vi.useFakeTimers();
    const ticks: number[] = [];
    const clock = new SampleClock(
      1000,
      () => ticks.push(Date.now()),
      () => Date.now(),
    );
    const t0 = Date.now();
    clock.begin(t0, t0 + 3000);
    vi.advanceTimersByTime(5000);
    // 1 s and 2 s; not 3 s (the planned end); 4 s and 5 s would be a wind-down that outlasts the plan.
    expect(ticks.map((t) => t - t0)).toEqual([1000, 2000, 4000, 5000]);

    ticks.length = 0;
    const t1 = Date.now();
    clock.begin(t1 + 250, null);
    vi.advanceTimersByTime(2300);
    expect(ticks.map((t) => t - t1)).toEqual([1250, 2250]);
    clock.stop();
    vi.advanceTimersByTime(5000);
    expect(ticks).toHaveLength(2);
  });
});
