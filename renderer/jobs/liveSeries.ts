import type { Sample } from '../../shared/model/result.ts';
import type { ResourceSample } from '../../shared/model/server-resources.ts';
import type { MachineSample } from '../../shared/model/machine-facts.ts';
import type { SeriesChange } from '../../shared/figures/sample-series.ts';
import type { Load } from '../../shared/model/scenario.ts';
import { windowTarget } from '../../shared/stages/load-plan.ts';
import type { Palette } from '../charts/palette.ts';
import { LATENCY_SERIES, THROUGHPUT_SERIES } from '../../shared/format/series.ts';

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

/** One line of a live chart: how to read its value from a reading (null = gap). */
export interface LiveSeries<S = Sample> {
  id: string;
  label: string;
  color: (p: Palette) => string;
  value: (s: S) => number | null;
  /** Fill under the line (single-series charts only, or it hides the others). */
  fill?: boolean;
  /** Hidden until it first sees a value above zero, so rare classes (5xx) do not clutter. */
  optional?: boolean;
  /** Drawn dashed: a plan to compare with, not a measured figure. */
  dashed?: boolean;
}

/** A live chart of one kind of reading: engine samples, or the server's (server-charts.ts). */
export interface LiveChartSpec<S = Sample> {
  id: string;
  title: string;
  unit: string;
  series: readonly LiveSeries<S>[];
}

/** What a live chart reads on the run's time axis. */
export interface TimedReading {
  seq: number;
  elapsedSeconds: number;
}

/**
 * A stream of one kind of reading per part of a job: the ones so far, then each as it arrives,
 * with what it did to the part's series (its SampleSeries): a new last reading, or the last
 * one's place taken (the engine's final fold), which a chart draws by replacing its last point.
 */
export interface LiveFeed<S> {
  /** The part's readings so far (shared array: read, never modify). */
  all: (part: number) => readonly S[];
  subscribe: (listener: (part: number, reading: S, change: SeriesChange) => void) => () => void;
}

/** The engine's samples, the server's and the machine's readings of a job's parts, as charts read them. */
export interface JobFeeds {
  engine: LiveFeed<Sample>;
  server: LiveFeed<ResourceSample>;
  machine: LiveFeed<MachineSample>;
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
    series: THROUGHPUT_SERIES.map((s) => ({ ...s, color: (p: Palette) => p.throughput, fill: true })),
  },
  {
    id: 'latency',
    title: 'Latency',
    unit: 'ms',
    series: LATENCY_SERIES.map((s) => ({
      ...s,
      color: (p: Palette) => p[s.id === 'rps' ? 'throughput' : s.id],
    })),
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

/** The stages' target over a sample's window (shared/model/stages.ts windowTarget), a dashed line beside what was achieved. */
const targetSeries = (load: Load): LiveSeries => ({
  id: 'target',
  label: 'target',
  color: (p) => p.muted,
  value: (s) => windowTarget(load, s.elapsedSeconds, s.intervalSeconds),
  dashed: true,
});

/**
 * The live charts of a run of this load. A staged load adds its target: beside the
 * throughput for the open model (the rate it ramps), in a connections chart beside the
 * connections carrying load for the closed model.
 */
export function liveCharts(load: Load | null): readonly LiveChartSpec[] {
  if (!load?.stages) return LIVE_CHARTS;
  if (load.model === 'open') {
    return LIVE_CHARTS.map((c) =>
      c.id === 'throughput' ? { ...c, series: [...c.series, targetSeries(load)] } : c,
    );
  }
  const connections: LiveChartSpec = {
    id: 'connections',
    title: 'Connections',
    unit: 'connections',
    series: [
      {
        id: 'active',
        label: 'carrying load',
        color: (p) => p.throughput,
        value: (s) => s.connections ?? null,
      },
      targetSeries(load),
    ],
  };
  return [LIVE_CHARTS[0]!, connections, ...LIVE_CHARTS.slice(1)];
}

export interface Point {
  x: number;
  y: number | null;
}

/** The point each series gains from one reading, at the end of its window. */
export function pointsOf<S extends TimedReading>(spec: LiveChartSpec<S>, s: S): Point[] {
  return spec.series.map((series) => ({ x: s.elapsedSeconds, y: series.value(s) }));
}
