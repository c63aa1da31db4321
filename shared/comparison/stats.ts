import type { ErrorKind, RunResult } from '../model/result.ts';

/* Statistics over repetitions: the figures compared and their spread across runs of one cell. */

/** Spread of one figure across repetitions. stdev is the sample standard deviation (n - 1); null when n < 2. */
export interface Stat {
  n: number;
  mean: number;
  stdev: number | null;
  min: number;
  max: number;
}

/** Mean, sample stdev, min and max; null for an empty list. */
export function statOf(values: readonly number[]): Stat | null {
  const n = values.length;
  if (n === 0) return null;
  let sum = 0;
  let min = Infinity;
  let max = -Infinity;
  for (const v of values) {
    sum += v;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  const mean = sum / n;
  let stdev: number | null = null;
  if (n >= 2) {
    let sq = 0;
    for (const v of values) sq += (v - mean) ** 2;
    stdev = Math.sqrt(sq / (n - 1));
  }
  return { n, mean, stdev, min, max };
}

export const FIGURES = ['rps', 'latencyMean', 'p50', 'p95', 'p99', 'successRatio', 'failed'] as const;
export type Figure = (typeof FIGURES)[number];

export interface FigureInfo {
  label: string;
  unit: string;
  /** Which direction is an improvement. */
  higherIsBetter: boolean;
}

export const FIGURE_INFO: Record<Figure, FigureInfo> = {
  rps: { label: 'Requests per second', unit: 'req/s', higherIsBetter: true },
  latencyMean: { label: 'Mean latency', unit: 'ms', higherIsBetter: false },
  p50: { label: 'p50 latency', unit: 'ms', higherIsBetter: false },
  p95: { label: 'p95 latency', unit: 'ms', higherIsBetter: false },
  p99: { label: 'p99 latency', unit: 'ms', higherIsBetter: false },
  /** ok / total, in [0, 1]. */
  successRatio: { label: 'Success ratio', unit: 'ratio', higherIsBetter: true },
  /** total - ok: transport errors, non-2xx/3xx statuses and SLO misses. */
  failed: { label: 'Failed requests', unit: 'requests', higherIsBetter: false },
};

/** One value of a figure in one run; null when the run has none (no response, so no latency). */
export function figureOf(result: RunResult, figure: Figure): number | null {
  const pct = (p: number) => result.latency?.percentiles[String(p)] ?? null;
  switch (figure) {
    case 'rps':
      return result.throughput.requestsPerSecond;
    case 'latencyMean':
      return result.latency?.mean ?? null;
    case 'p50':
      return pct(50);
    case 'p95':
      return pct(95);
    case 'p99':
      return pct(99);
    case 'successRatio':
      return result.successRatio;
    case 'failed':
      return result.requests.total - result.requests.ok;
  }
}

/** Several runs of the same thing, summarised. */
export interface RepetitionSummary {
  /** Runs the figures are computed from. */
  runs: number;
  /** Runs left out: failed ones, and cancelled ones unless asked to include them. */
  skipped: number;
  /** Why failed runs failed (one message per failed run). */
  failures: string[];
  figures: Record<Figure, Stat | null>;
  /** Requests over all counted runs, and how many of them failed (total - ok). */
  requests: number;
  failedRequests: number;
  /** What the failed requests were: transport errors and SLO misses by kind, and non-2xx responses. */
  errors: Partial<Record<ErrorKind, number>>;
  non2xx: number;
  /** Mean over the runs of each latency percentile, in ms, keyed as in LatencyStats ("50", "99.9"). */
  percentiles: Record<string, number>;
}

/**
 * Summarises results taken as repetitions of one measurement. Failed runs are left out
 * (they measured nothing); cancelled runs are partial, so they are left out too unless
 * includeCancelled (e.g. to look at a single run the user stopped).
 */
export function summarizeRepetitions(
  results: readonly RunResult[],
  opts: { includeCancelled?: boolean } = {},
): RepetitionSummary {
  const counted = results.filter(
    (r) =>
      r.status === 'completed' ||
      ((r.status === 'cancelled' || r.status === 'interrupted') && opts.includeCancelled === true),
  );
  const failures = results.filter((r) => r.status === 'failed').map((r) => r.error?.message ?? 'run failed');
  const figures = {} as Record<Figure, Stat | null>;
  for (const f of FIGURES) {
    figures[f] = statOf(counted.map((r) => figureOf(r, f)).filter((v): v is number => v !== null));
  }
  const sums = new Map<string, { sum: number; n: number }>();
  for (const r of counted) {
    for (const [k, v] of Object.entries(r.latency?.percentiles ?? {})) {
      const s = sums.get(k) ?? { sum: 0, n: 0 };
      s.sum += v;
      s.n++;
      sums.set(k, s);
    }
  }
  const percentiles: Record<string, number> = {};
  for (const [k, s] of sums) percentiles[k] = s.sum / s.n;
  const errors: Partial<Record<ErrorKind, number>> = {};
  for (const r of counted) for (const e of r.errors) errors[e.kind] = (errors[e.kind] ?? 0) + e.count;
  return {
    runs: counted.length,
    skipped: results.length - counted.length,
    failures,
    figures,
    requests: counted.reduce((a, r) => a + r.requests.total, 0),
    failedRequests: counted.reduce((a, r) => a + r.requests.total - r.requests.ok, 0),
    errors,
    non2xx: counted.reduce((a, r) => a + r.requests.non2xx, 0),
    percentiles,
  };
}
