import type { Sample } from '../../shared/result.ts';
import type { Palette } from '../charts/palette.ts';

export type StatusClass = '2xx' | '3xx' | '4xx' | '5xx';

/** A sample's responses per second by status class, and its errors per second. */
export function statusRates(s: Sample): Record<StatusClass | 'errors', number> {
  const out = { '2xx': 0, '3xx': 0, '4xx': 0, '5xx': 0, errors: 0 };
  for (const [code, n] of Object.entries(s.statusCodes)) {
    const cls = `${code.charAt(0)}xx`;
    // 1xx never ends a request; anything unexpected is counted with the server errors.
    if (cls === '2xx' || cls === '3xx' || cls === '4xx') out[cls] += n;
    else out['5xx'] += n;
  }
  for (const n of Object.values(s.errors)) out.errors += n ?? 0;
  const per = (n: number): number => n / s.intervalSeconds;
  return {
    '2xx': per(out['2xx']),
    '3xx': per(out['3xx']),
    '4xx': per(out['4xx']),
    '5xx': per(out['5xx']),
    errors: per(out.errors),
  };
}

/** One line of a live chart: how to read its value from a sample (null = gap). */
export interface LiveSeries {
  id: string;
  label: string;
  color: (p: Palette) => string;
  value: (s: Sample) => number | null;
  /** Fill under the line (single-series charts only, or it hides the others). */
  fill?: boolean;
  /** Hidden until it first sees a value above zero, so rare classes (5xx) do not clutter. */
  optional?: boolean;
}

export interface LiveChartSpec {
  id: 'throughput' | 'latency' | 'status';
  title: string;
  unit: string;
  series: readonly LiveSeries[];
}

const statusSeries = (cls: StatusClass | 'errors', label: string, optional: boolean): LiveSeries => ({
  id: cls,
  label,
  color: (p) => p.status[cls],
  value: (s) => statusRates(s)[cls],
  optional,
});

export const LIVE_CHARTS: readonly LiveChartSpec[] = [
  {
    id: 'throughput',
    title: 'Throughput',
    unit: 'req/s',
    series: [
      {
        id: 'rps',
        label: 'req/s',
        color: (p) => p.throughput,
        value: (s) => s.requestsPerSecond,
        fill: true,
      },
    ],
  },
  {
    id: 'latency',
    title: 'Latency',
    unit: 'ms',
    series: [
      { id: 'p50', label: 'p50', color: (p) => p.p50, value: (s) => s.latency?.p50 ?? null },
      { id: 'p90', label: 'p90', color: (p) => p.p90, value: (s) => s.latency?.p90 ?? null },
      { id: 'p99', label: 'p99', color: (p) => p.p99, value: (s) => s.latency?.p99 ?? null },
    ],
  },
  {
    id: 'status',
    title: 'Status & errors',
    unit: 'per s',
    series: [
      statusSeries('2xx', '2xx', false),
      statusSeries('3xx', '3xx', true),
      statusSeries('4xx', '4xx', true),
      statusSeries('5xx', '5xx', true),
      statusSeries('errors', 'errors', false),
    ],
  },
];

export interface Point {
  x: number;
  y: number | null;
}

/** The point each series gains from one sample, at the end of its window. */
export function pointsOf(spec: LiveChartSpec, s: Sample): Point[] {
  return spec.series.map((series) => ({ x: s.elapsedSeconds, y: series.value(s) }));
}

/**
 * Whether a run's last sample is drawn together with the one before it. The engine closes
 * the last window when the load ends (Sample.final); after a request-count run or a stop
 * that window can last a few milliseconds, and a point for it says more about its length
 * than about the server (a handful of answers: a rate near 0 or a wild one, a latency
 * spike). Under half as long as the window before it, it is folded into that one.
 */
export function foldsIntoPrevious(sample: Sample, previous: Sample | null): boolean {
  return (
    sample.final === true &&
    previous !== null &&
    previous.warmup === sample.warmup &&
    sample.intervalSeconds < previous.intervalSeconds / 2
  );
}

function sumCounts<K extends string>(
  a: Partial<Record<K, number>>,
  b: Partial<Record<K, number>>,
): Partial<Record<K, number>> {
  const out: Partial<Record<K, number>> = { ...a };
  for (const [k, n] of Object.entries(b) as [K, number | undefined][]) out[k] = (out[k] ?? 0) + (n ?? 0);
  return out;
}

/**
 * Two adjacent windows as one, ending where the later ends: counts add up and rates are
 * over their combined time, so the totals lose nothing. Percentiles of the union cannot be
 * had from two summaries: the window with more requests gives them (the other holds few),
 * the mean is weighted by requests and the max is the larger.
 */
export function mergeWindows(previous: Sample, last: Sample): Sample {
  const intervalSeconds = previous.intervalSeconds + last.intervalSeconds;
  const requests = previous.requests + last.requests;
  const bytes =
    previous.bytesInPerSecond * previous.intervalSeconds + last.bytesInPerSecond * last.intervalSeconds;
  const [a, b] = [previous.latency, last.latency];
  const latency =
    a && b
      ? {
          ...(previous.requests >= last.requests ? a : b),
          mean: requests > 0 ? (a.mean * previous.requests + b.mean * last.requests) / requests : a.mean,
          max: Math.max(a.max, b.max),
        }
      : (a ?? b);
  const late = (previous.late ?? 0) + (last.late ?? 0);
  return {
    ...last,
    intervalSeconds,
    requests,
    requestsPerSecond: requests / intervalSeconds,
    bytesInPerSecond: bytes / intervalSeconds,
    latency,
    statusCodes: sumCounts(previous.statusCodes, last.statusCodes) as Record<string, number>,
    errors: sumCounts(previous.errors, last.errors),
    ...(late > 0 ? { late } : {}),
  };
}

/** The windows a chart draws for a target's samples: one each, a short final one folded in. */
export function drawnWindows(samples: readonly Sample[]): Sample[] {
  const out: Sample[] = [];
  let previous: Sample | null = null;
  for (const s of samples) {
    if (previous && foldsIntoPrevious(s, previous)) out[out.length - 1] = mergeWindows(previous, s);
    else out.push(s);
    previous = s;
  }
  return out;
}
