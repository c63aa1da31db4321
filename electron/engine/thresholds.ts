import type { LatencyStats, ThresholdOutcome } from '../../shared/model/result.ts';
import type { Threshold, ThresholdMetric } from '../../shared/model/scenario.ts';

/** What thresholds are checked against: one run's figures. */
export interface ThresholdFigures {
  latency: LatencyStats | null;
  /** Finished requests (responses and transport errors). */
  total: number;
  /** Success ratio in [0, 1]. */
  successRatio: number;
  requestsPerSecond: number;
}

const PERCENTILE_OF: Partial<Record<ThresholdMetric, string>> = {
  p50: '50',
  p90: '90',
  p95: '95',
  p99: '99',
  'p99.9': '99.9',
};

/**
 * The figure a threshold compares: latency metrics in ms, errorRate in percent of finished
 * requests that did not succeed (transport errors, non-2xx/3xx statuses, SLO misses: the
 * complement of the success ratio), rps in requests/s. Null when the run has no such figure.
 */
export function thresholdActual(metric: ThresholdMetric, f: ThresholdFigures): number | null {
  switch (metric) {
    case 'errorRate':
      return f.total === 0 ? null : (1 - f.successRatio) * 100;
    case 'rps':
      return f.requestsPerSecond;
    case 'mean':
      return f.latency?.mean ?? null;
    case 'max':
      return f.latency?.max ?? null;
    default: {
      const key = PERCENTILE_OF[metric];
      return key === undefined ? null : (f.latency?.percentiles[key] ?? null);
    }
  }
}

function holds(actual: number, op: Threshold['op'], value: number): boolean {
  switch (op) {
    case '<':
      return actual < value;
    case '<=':
      return actual <= value;
    case '>':
      return actual > value;
    case '>=':
      return actual >= value;
  }
}

/** Each threshold with the run's figure; a threshold without a figure (no responses) fails. */
export function evaluateThresholds(
  thresholds: readonly Threshold[],
  f: ThresholdFigures,
): ThresholdOutcome[] {
  return thresholds.map((threshold) => {
    const actual = thresholdActual(threshold.metric, f);
    return { threshold, actual, passed: actual !== null && holds(actual, threshold.op, threshold.value) };
  });
}
