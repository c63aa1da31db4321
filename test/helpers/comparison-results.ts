import {
  comparisonPlanSchema,
  type ComparisonPlan,
  type ComparisonPlanInput,
} from '../../shared/comparison/plan.ts';
import type { ErrorEntry, RunResult } from '../../shared/model/result.ts';
import { runResultFixture } from './run-result.ts';

/**
 * A comparison of nginx and apache on loopback (http), 10 connections for 1 s at level 10,
 * 2 repetitions; `over` replaces any plan field.
 */
export function twoServerPlan(over: Partial<ComparisonPlanInput> = {}): ComparisonPlan {
  return comparisonPlanSchema.parse({
    name: 'nginx vs apache',
    targets: [
      { name: 'nginx', urls: { http: 'http://127.0.0.1:8081/' } },
      { name: 'apache', urls: { http: 'http://127.0.0.1:8082/' } },
    ],
    load: { model: 'closed', connections: 10, limit: { kind: 'duration', seconds: 1 } },
    levels: [10],
    repetitions: 2,
    ...over,
  });
}

/**
 * A RunResult with the figures the comparison math reads set to chosen values, its counts
 * adding up as a measured result's do (shared/records/result-checks.ts): the requests not ok
 * are 503s, the transport errors listed are not responses.
 */
export function resultWith(f: {
  rps: number;
  p50?: number;
  p95?: number;
  p99?: number;
  mean?: number;
  total?: number;
  ok?: number;
  status?: RunResult['status'];
  url?: string;
  noLatency?: boolean;
  errors?: ErrorEntry[];
}): RunResult {
  const base = runResultFixture();
  const total = f.total ?? 1000;
  const errors = f.errors ?? [];
  const transport = errors.filter((e) => e.kind !== 'slo').reduce((n, e) => n + e.count, 0);
  const slow = errors.filter((e) => e.kind === 'slo').reduce((n, e) => n + e.count, 0);
  const responses = total - transport;
  const ok = f.ok ?? responses - slow;
  const p50 = f.p50 ?? 1;
  const p95 = f.p95 ?? 2;
  const p99 = f.p99 ?? 3;
  return {
    ...base,
    status: f.status ?? 'completed',
    error: f.status === 'failed' ? { kind: 'refused', message: 'connection refused' } : null,
    target: { ...base.target, url: f.url ?? base.target.url },
    requests: {
      ...base.requests,
      total,
      responses,
      ok,
      non2xx: responses - ok - slow,
      errors: transport,
      sloExceeded: slow,
    },
    statusCodes: Object.fromEntries(
      (
        [
          ['200', ok + slow],
          ['503', responses - ok - slow],
        ] as [string, number][]
      ).filter(([, n]) => n !== 0),
    ),
    successRatio: total === 0 ? 0 : ok / total,
    errors,
    throughput: { ...base.throughput, requestsPerSecond: f.rps },
    latency: f.noLatency
      ? null
      : {
          min: 0.1,
          mean: f.mean ?? p50,
          stdev: 0.5,
          max: p99 * 2,
          percentiles: {
            '50': p50,
            '66': p50,
            '75': p50,
            '80': p50,
            '90': p95,
            '95': p95,
            '98': p99,
            '99': p99,
            '99.9': p99,
            '99.99': p99,
            '100': p99 * 2,
          },
        },
  };
}
