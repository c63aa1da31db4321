import { describe, expect, it } from 'vitest';
import { addSample, SampleSeries } from '../../shared/figures/sample-series.ts';
import type { Sample } from '../../shared/model/result.ts';
import { sampleFixture } from '../helpers/run-result.ts';

describe('SampleSeries: one sample per tick', () => {
  it('appends samples of new ticks and replaces the last one with a sample at its seq', () => {
    const series = new SampleSeries<Sample>();
    const first = sampleFixture({ seq: 0, requests: 100 });
    const second = sampleFixture({ seq: 1, requests: 100 });
    // The engine's final fold: the short tail after the last tick, folded into that tick's window.
    const folded = sampleFixture({ seq: 1, requests: 103, intervalSeconds: 1.03, final: true });
    expect([first, second, folded].map((s) => series.add(s))).toEqual(['appended', 'appended', 'replaced']);
    expect(series.items.map((s) => [s.seq, s.requests])).toEqual([
      [0, 100],
      [1, 103],
    ]);
    expect(series.last).toBe(folded);
    expect(series.length).toBe(2);
    // Requests of the windows add up once: the replaced window is not counted twice.
    expect(series.items.reduce((n, s) => n + s.requests, 0)).toBe(203);
  });

  it('replaces only the last sample: an old seq arriving late is a tick of its own', () => {
    const series = new SampleSeries<{ seq: number; v: string }>();
    expect(series.add({ seq: 1, v: 'a' })).toBe('appended');
    expect(series.add({ seq: 2, v: 'b' })).toBe('appended');
    expect(series.add({ seq: 1, v: 'c' })).toBe('appended');
    expect(series.items.map((s) => s.v)).toEqual(['a', 'b', 'c']);
  });

  it('folds the next sample into the last one when told how (the server readings)', () => {
    const series = new SampleSeries<{ seq: number; n: number }>({
      sameTick: (last, next) => ({ seq: next.seq, n: last.n + next.n }),
    });
    series.add({ seq: 3, n: 2 });
    expect(series.add({ seq: 3, n: 5 })).toBe('replaced');
    expect(series.items).toEqual([{ seq: 3, n: 7 }]);
  });

  it('keeps the same rule for a plain list (the engine worker and the host copy of a run)', () => {
    const list: { seq: number; v: number }[] = [];
    expect(addSample(list, { seq: 0, v: 1 })).toBe('appended');
    expect(addSample(list, { seq: 0, v: 2 })).toBe('replaced');
    expect(addSample(list, { seq: 1, v: 3 })).toBe('appended');
    expect(list).toEqual([
      { seq: 0, v: 2 },
      { seq: 1, v: 3 },
    ]);
  });
});
