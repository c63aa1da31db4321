import { describe, expect, it } from 'vitest';
import type { LatencyStats } from '../../shared/model/result.ts';
import {
  evaluateThresholds,
  thresholdActual,
  type ThresholdFigures,
} from '../../electron/engine/thresholds.ts';

const latency: LatencyStats = {
  min: 0.2,
  mean: 3,
  stdev: 1,
  max: 80,
  percentiles: { '50': 2, '90': 6, '95': 9, '99': 40, '99.9': 70 },
};
const figures: ThresholdFigures = { latency, total: 1000, successRatio: 0.995, requestsPerSecond: 1234 };

describe('thresholds', () => {
  it('reads each metric in its unit', () => {
    expect(thresholdActual('p50', figures)).toBe(2);
    expect(thresholdActual('p90', figures)).toBe(6);
    expect(thresholdActual('p95', figures)).toBe(9);
    expect(thresholdActual('p99', figures)).toBe(40);
    expect(thresholdActual('p99.9', figures)).toBe(70);
    expect(thresholdActual('mean', figures)).toBe(3);
    expect(thresholdActual('max', figures)).toBe(80);
    expect(thresholdActual('errorRate', figures)).toBeCloseTo(0.5, 10);
    expect(thresholdActual('rps', figures)).toBe(1234);
  });

  it('passes or fails each rule with its operator', () => {
    const out = evaluateThresholds(
      [
        { metric: 'p99', op: '<', value: 50 },
        { metric: 'p99', op: '<', value: 40 },
        { metric: 'p99', op: '<=', value: 40 },
        { metric: 'errorRate', op: '<', value: 1 },
        { metric: 'rps', op: '>', value: 2000 },
        { metric: 'rps', op: '>=', value: 1234 },
      ],
      figures,
    );
    expect(out.map((o) => o.passed)).toEqual([true, false, true, true, false, true]);
    expect(out[0]).toEqual({ threshold: { metric: 'p99', op: '<', value: 50 }, actual: 40, passed: true });
  });

  it('fails a rule that has no figure to compare (no responses)', () => {
    const empty: ThresholdFigures = { latency: null, total: 0, successRatio: 0, requestsPerSecond: 0 };
    const out = evaluateThresholds(
      [
        { metric: 'p50', op: '<', value: 100 },
        { metric: 'errorRate', op: '<', value: 1 },
      ],
      empty,
    );
    expect(out).toEqual([
      { threshold: { metric: 'p50', op: '<', value: 100 }, actual: null, passed: false },
      { threshold: { metric: 'errorRate', op: '<', value: 1 }, actual: null, passed: false },
    ]);
  });
});
