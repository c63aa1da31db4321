import { describe, expect, it } from 'vitest';
import {
  MAX_X,
  PERCENTILE_TICKS,
  percentilePoints,
  percentileToX,
  tickLabel,
  xToPercentile,
} from '../../renderer/charts/percentileScale.ts';

describe('HdrHistogram-style percentile axis', () => {
  it('gives every nine a decade: x = 1 / (1 - p)', () => {
    expect(percentileToX(0)).toBe(1);
    expect(percentileToX(50)).toBeCloseTo(2, 10);
    expect(percentileToX(90)).toBeCloseTo(10, 10);
    expect(percentileToX(99)).toBeCloseTo(100, 8);
    expect(percentileToX(99.9)).toBeCloseTo(1000, 6);
    expect(percentileToX(99.99)).toBeCloseTo(10_000, 4);
    expect(percentileToX(100)).toBe(MAX_X);
    expect(percentileToX(99.9999)).toBe(MAX_X);
  });

  it('maps back for tooltips', () => {
    for (const p of [0, 50, 90, 99, 99.9, 99.99]) expect(xToPercentile(percentileToX(p))).toBeCloseTo(p, 6);
    expect(xToPercentile(MAX_X)).toBe(100);
  });

  it('labels the decade ticks 0%, 90%, 99%, 99.9%, 99.99% and the maximum', () => {
    expect(PERCENTILE_TICKS.map((t) => t.label)).toEqual(['0%', '90%', '99%', '99.9%', '99.99%', 'max']);
    expect(tickLabel(10)).toBe('90%');
    expect(tickLabel(percentileToX(99.9))).toBe('99.9%');
    expect(tickLabel(MAX_X)).toBe('max');
    expect(tickLabel(5)).toBe('');
  });

  it('builds sorted points from a latency summary: min at 0%, max at the end', () => {
    const points = percentilePoints({
      min: 0.5,
      mean: 2,
      stdev: 1,
      max: 30,
      percentiles: { '99': 9, '50': 2, '90': 4, '100': 30, '99.9': 20 },
    });
    expect(points.map((p) => p.p)).toEqual([0, 50, 90, 99, 99.9, 100]);
    expect(points.map((p) => p.y)).toEqual([0.5, 2, 4, 9, 20, 30]);
    expect(points[0]!.x).toBe(1);
    expect(points.at(-1)!.x).toBe(MAX_X);
    for (let i = 1; i < points.length; i++) expect(points[i]!.x).toBeGreaterThan(points[i - 1]!.x);
  });
});
