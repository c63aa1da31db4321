/**
 * The figures `trebuchet diff` compares, how each is read from a run, and its values per
 * one-second window (a single run's evidence of its own noise). Pure.
 */
import type { RunResult, Sample } from '../model/result.ts';

/** In the order the diff lists them; the names are --fail-on's. */
export const DIFF_FIGURES = [
  'rps',
  'mean',
  'p50',
  'p90',
  'p99',
  'p99.9',
  'max',
  'errors',
  'non2xx',
  'late',
  'cpu',
] as const;
export type DiffFigure = (typeof DIFF_FIGURES)[number];

export interface DiffFigureInfo {
  label: string;
  unit: 'req/s' | 'ms' | 'requests' | 'CPU-s';
  higherIsBetter: boolean;
  /** latency: from the latency histogram; count: requests of a kind; rate: req/s; cpu: the server's. */
  kind: 'rate' | 'latency' | 'count' | 'cpu';
}

export const DIFF_FIGURE_INFO: Record<DiffFigure, DiffFigureInfo> = {
  rps: { label: 'req/s', unit: 'req/s', higherIsBetter: true, kind: 'rate' },
  mean: { label: 'mean', unit: 'ms', higherIsBetter: false, kind: 'latency' },
  p50: { label: 'p50', unit: 'ms', higherIsBetter: false, kind: 'latency' },
  p90: { label: 'p90', unit: 'ms', higherIsBetter: false, kind: 'latency' },
  p99: { label: 'p99', unit: 'ms', higherIsBetter: false, kind: 'latency' },
  'p99.9': { label: 'p99.9', unit: 'ms', higherIsBetter: false, kind: 'latency' },
  max: { label: 'max', unit: 'ms', higherIsBetter: false, kind: 'latency' },
  errors: { label: 'errors', unit: 'requests', higherIsBetter: false, kind: 'count' },
  non2xx: { label: 'non-2xx', unit: 'requests', higherIsBetter: false, kind: 'count' },
  late: { label: 'late', unit: 'requests', higherIsBetter: false, kind: 'count' },
  cpu: { label: 'server CPU / 10k req', unit: 'CPU-s', higherIsBetter: false, kind: 'cpu' },
};

/** A run's value of a figure; null when it has none (no response, no schedule, no server watched). */
export function diffFigureOf(r: RunResult, figure: DiffFigure): number | null {
  const pct = (p: string): number | null => r.latency?.percentiles[p] ?? null;
  switch (figure) {
    case 'rps':
      return r.throughput.requestsPerSecond;
    case 'mean':
      return r.latency?.mean ?? null;
    case 'p50':
      return pct('50');
    case 'p90':
      return pct('90');
    case 'p99':
      return pct('99');
    case 'p99.9':
      return pct('99.9');
    case 'max':
      return r.latency?.max ?? null;
    case 'errors':
      return r.requests.errors;
    case 'non2xx':
      return r.requests.non2xx;
    case 'late':
      return r.requests.late;
    case 'cpu':
      return r.serverResources?.cpuSecondsPer10kRequests ?? null;
  }
}

const non2xxOf = (s: Sample): number =>
  Object.entries(s.statusCodes).reduce((n, [code, c]) => (code.startsWith('2') ? n : n + c), 0);

/**
 * A rate or count figure per measured window (warm-up left out): req/s, and errors, non-2xx
 * and late requests per second. Null for the figures a window does not hold (latency: the
 * histograms speak for it; the server's CPU).
 */
export function windowValues(r: RunResult, figure: DiffFigure): number[] | null {
  const windows = r.samples.filter((s) => !s.warmup);
  const perSecond = (f: (s: Sample) => number | undefined): number[] =>
    windows.map((s) => (f(s) ?? 0) / s.intervalSeconds);
  switch (figure) {
    case 'rps':
      return windows.map((s) => s.requestsPerSecond);
    case 'errors':
      return perSecond((s) => Object.values(s.errors).reduce((a, c) => a + c, 0));
    case 'non2xx':
      return perSecond(non2xxOf);
    case 'late':
      return r.requests.late === null ? null : perSecond((s) => s.late);
    default:
      return null;
  }
}

/** Measured windows of a run (its single-run evidence). */
export const windowCount = (r: RunResult): number => r.samples.filter((s) => !s.warmup).length;

/** The length of a run's measured windows in seconds (their mean); null without any. */
export function windowSeconds(r: RunResult): number | null {
  const windows = r.samples.filter((s) => !s.warmup);
  return windows.length === 0 ? null : windows.reduce((t, s) => t + s.intervalSeconds, 0) / windows.length;
}
