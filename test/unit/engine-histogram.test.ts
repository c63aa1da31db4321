import { describe, expect, it } from 'vitest';
import { encodeHistogram, newHistogram, ValueRecorder } from '../../electron/engine/histogram.ts';

/** A deterministic spread of values over the histogram's whole range (us). */
function values(n: number, seed: number, maxLog: number): number[] {
  let s = seed;
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    s = (s * 1103515245 + 12345) % 2147483648;
    out.push(Math.floor(Math.exp((s / 2147483648) * maxLog)) - 1);
  }
  return out;
}

describe('ValueRecorder', () => {
  it.each([
    ['sub-millisecond values (full resolution bucket)', values(50_000, 1, 7.6)],
    ['values up to an hour, zeros included', values(50_000, 2, 22)],
    ['one value repeated, at the top of its bucket', Array.from({ length: 1000 }, () => 3001)],
    ['a single value', [123_456]],
    ['bucket edges', [0, 1, 2047, 2048, 2049, 4095, 4096, 2 ** 31 - 1, 2 ** 31, 3_600_000_000]],
  ])('drains into the histogram recordValue would have built: %s', (_what, vs) => {
    const direct = newHistogram('run');
    const drained = newHistogram('run');
    const r = new ValueRecorder();
    for (const v of vs) {
      direct.recordValue(v);
      r.record(v);
    }
    expect(r.count).toBe(vs.length);
    r.drainInto(drained);
    expect(encodeHistogram(drained)).toBe(encodeHistogram(direct));
    expect(drained.totalCount).toBe(vs.length);
    expect(drained.maxValue).toBe(direct.maxValue);
    expect(drained.minNonZeroValue).toBe(direct.minNonZeroValue);
    for (const p of [0, 50, 90, 99, 99.9, 100]) {
      expect(drained.getValueAtPercentile(p)).toBe(direct.getValueAtPercentile(p));
    }
    expect(drained.mean).toBe(direct.mean);
  });

  it('starts over after a drain, and drains add up', () => {
    const r = new ValueRecorder();
    const h = newHistogram('window');
    r.record(100);
    r.record(5000);
    r.drainInto(h);
    expect(r.count).toBe(0);
    r.record(70);
    r.drainInto(h);
    expect(h.totalCount).toBe(3);
    expect(h.minNonZeroValue).toBe(70);
    expect(h.maxValue).toBe(5000);
    r.drainInto(h);
    expect(h.totalCount).toBe(3);
  });

  it('counts a value above an hour as an hour instead of throwing', () => {
    const r = new ValueRecorder();
    const h = newHistogram('run');
    r.record(10 * 3_600_000_000);
    r.drainInto(h);
    expect(h.totalCount).toBe(1);
    expect(h.maxValue).toBe(3_600_000_000);
  });
});
