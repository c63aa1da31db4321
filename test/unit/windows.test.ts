import { describe, expect, it } from 'vitest';
import { foldShortWindows, weightedRate, windowStats } from '../../shared/figures/windows.ts';

interface W {
  intervalSeconds: number;
  value?: number;
}
const fold = (a: W, b: W): W => ({
  intervalSeconds: a.intervalSeconds + b.intervalSeconds,
  value: weightedRate(a.value ?? 0, a.intervalSeconds, b.value ?? 0, b.intervalSeconds),
});
const w = (value: number, intervalSeconds = 1): W => ({ value, intervalSeconds });

describe('figures over windows of time (generator and server CPU)', () => {
  it('folds a short last window into the one before it, weighted by length', () => {
    const out = foldShortWindows([w(10), w(20), w(46, 0.02)], 1, fold);
    expect(out).toHaveLength(2);
    expect(out[1]!.intervalSeconds).toBeCloseTo(1.02, 10);
    expect(out[1]!.value).toBeCloseTo((20 + 46 * 0.02) / 1.02, 10);
    expect(windowStats(out, (x) => x.value)).toEqual({
      mean: (10 + 20 + 46 * 0.02) / 2.02,
      max: out[1]!.value,
    });
  });

  it('folds short first windows into the next one, and keeps half an interval and more as it is', () => {
    const out = foldShortWindows([w(90, 0.1), w(10), w(30, 0.5)], 1, fold);
    expect(out.map((x) => x.intervalSeconds)).toEqual([1.1, 0.5]);
    expect(out[0]!.value).toBeCloseTo((9 + 10) / 1.1, 10);
    // Only short windows: one window of them all.
    const all = foldShortWindows([w(50, 0.2), w(10, 0.1)], 1, fold);
    expect(all).toHaveLength(1);
    expect(all[0]!.intervalSeconds).toBeCloseTo(0.3, 10);
    expect(all[0]!.value).toBeCloseTo(11 / 0.3, 10);
    expect(foldShortWindows([], 1, fold)).toEqual([]);
  });

  it('weights the mean by window length, never above the max', () => {
    expect(windowStats([w(10, 3), w(50, 1)], (x) => x.value)).toEqual({ mean: 20, max: 50 });
    expect(windowStats<W>([w(10), { intervalSeconds: 1 }], (x) => x.value)).toEqual({ mean: 10, max: 10 });
    expect(windowStats<W>([{ intervalSeconds: 1 }], (x) => x.value)).toBeNull();
    // Windows of no length (readings at an instant) weigh the same.
    expect(windowStats([w(10, 0), w(30, 0)], (x) => x.value)).toEqual({ mean: 20, max: 30 });
  });
});
