/**
 * The server panel's charts (issue 11), one spec for every view that draws them: the live
 * charts, a finished run's report and the HTML report. Each chart groups figures of one
 * unit (CPU in % of a core, memory in MiB, load average) and reads them from the
 * ResourceSamples on the run's time axis; a reading that is a gap is a gap in every line.
 * Pure.
 */
import {
  RESOURCE_FIGURES,
  type ResourceFigure,
  type ResourceGap,
  type ResourceSample,
} from '../model/server-resources.ts';
import { fixed, formatCount } from '../figures/units.ts';
import { addSample } from '../figures/sample-series.ts';
import { weightedRate } from '../figures/windows.ts';

export type ServerChartId = 'server-cpu' | 'server-memory' | 'server-load';

export interface ServerSeriesSpec {
  figure: ResourceFigure;
  label: string;
  /** Filled under the line: the chart's headline figure. */
  headline?: boolean;
}

export interface ServerChartSpec {
  id: ServerChartId;
  title: string;
  unit: string;
  series: readonly ServerSeriesSpec[];
  /** The figure's value in the chart's unit (bytes to MiB). */
  scale: number;
}

const MIB = 1024 * 1024;

export const SERVER_CHARTS: readonly ServerChartSpec[] = [
  {
    id: 'server-cpu',
    title: 'Server CPU',
    unit: '% of a core',
    series: [
      { figure: 'cpuPercent', label: 'CPU', headline: true },
      { figure: 'cpuUserPercent', label: 'user' },
      { figure: 'cpuSystemPercent', label: 'system' },
      { figure: 'busiestCpuPercent', label: 'busiest process' },
    ],
    scale: 1,
  },
  {
    id: 'server-memory',
    title: 'Server memory',
    unit: 'MiB',
    series: [
      { figure: 'rssBytes', label: 'RSS', headline: true },
      { figure: 'memoryUsedBytes', label: 'memory used', headline: true },
    ],
    scale: 1 / MIB,
  },
  {
    id: 'server-load',
    title: 'Load average',
    unit: 'runnable tasks',
    series: [
      { figure: 'load1', label: '1 min', headline: true },
      { figure: 'load5', label: '5 min' },
      { figure: 'load15', label: '15 min' },
    ],
    scale: 1,
  },
];

/** A series' value in a reading, in its chart's unit; null for a gap or a figure the reading lacks. */
export function serverValue(
  chart: ServerChartSpec,
  series: ServerSeriesSpec,
  s: ResourceSample,
): number | null {
  const v = s[series.figure];
  return v === undefined ? null : v * chart.scale;
}

/** True when some reading has a figure of the series. */
export function seriesHasData(series: ServerSeriesSpec, samples: readonly ResourceSample[]): boolean {
  return samples.some((s) => s[series.figure] !== undefined);
}

/** The charts with at least one figure in these readings (a process tree has no load average). */
export function chartsWithData(samples: readonly ResourceSample[]): ServerChartSpec[] {
  return SERVER_CHARTS.filter((c) => c.series.some((s) => seriesHasData(s, samples)));
}

/** "4 ticks from 2.0 s: node_exporter http://...: connection refused" */
export function gapText(g: ResourceGap): string {
  const at = fixed(g.firstElapsedSeconds, 1);
  const ticks = g.count === 1 ? `1 tick at ${at} s` : `${formatCount(g.count)} ticks from ${at} s`;
  return `${ticks}: ${g.reason}`;
}

/** The gaps of the readings so far, as lines for a chart's note (at most `max`, the rest counted). */
export function gapNotes(samples: readonly ResourceSample[], max = 3): string[] {
  const gaps = groupGaps(samples);
  const lines = gaps.slice(0, max).map(gapText);
  if (gaps.length > max) lines.push(`and ${gaps.length - max} other reason(s)`);
  return lines;
}

// ---------------------------------------------------------------------------------------
// One point per engine tick

/** Figures that are a rate over the reading's window (the rest are levels at its end). */
export const RATE_FIGURES: ReadonlySet<ResourceFigure> = new Set([
  'cpuPercent',
  'cpuUserPercent',
  'cpuSystemPercent',
  'busiestCpuPercent',
  'cpuBusyPercent',
  'netInBytesPerSecond',
  'netOutBytesPerSecond',
]);

const hasFigures = (s: ResourceSample): boolean => RESOURCE_FIGURES.some((f) => s[f] !== undefined);

/**
 * Two readings at the same engine tick as one: the run's last reading comes with the engine's
 * final fold (same seq) and covers only the short tail after the last tick, so drawn alone it
 * would end every chart on a near-idle dip. Rates are weighted by the windows' lengths, levels
 * (memory, threads, load) are the later reading's; a gap yields to a reading with figures.
 */
export function foldReadings(a: ResourceSample, b: ResourceSample): ResourceSample {
  if (!hasFigures(b)) return hasFigures(a) ? { ...a, seq: b.seq, elapsedSeconds: b.elapsedSeconds } : b;
  if (!hasFigures(a)) return b;
  const ia = a.intervalSeconds;
  const ib = b.intervalSeconds;
  const out: ResourceSample = { ...a, ...b, intervalSeconds: ia + ib };
  for (const f of RATE_FIGURES) {
    const va = a[f];
    const vb = b[f];
    if (va !== undefined && vb !== undefined && ia + ib > 0) out[f] = weightedRate(va, ia, vb, ib);
  }
  if (a.cpuSeconds !== undefined && b.cpuSeconds !== undefined) out.cpuSeconds = a.cpuSeconds + b.cpuSeconds;
  return out;
}

/**
 * The server process's own CPU: idle before its load, so what a window read is the load's.
 * The machine's CPU and network (node_exporter) are busy with everything else too: they stay
 * as read (scaled, a loaded machine's busy CPU read over 290%).
 */
const OWN_RATE_FIGURES: readonly ResourceFigure[] = [
  'cpuPercent',
  'cpuUserPercent',
  'cpuSystemPercent',
  'busiestCpuPercent',
];

/**
 * A reading's figures as if its window were `seconds` long: the process's own CPU rates scaled
 * to hold the same CPU-seconds over that time; machine-wide rates and levels as they were.
 */
export function readingOver(r: Partial<ResourceSample>, seconds: number): Partial<ResourceSample> {
  const was = r.intervalSeconds ?? 0;
  if (was <= 0 || seconds <= 0) return r;
  const out: Partial<ResourceSample> = { ...r, intervalSeconds: seconds };
  for (const f of OWN_RATE_FIGURES) {
    const v = r[f];
    if (v !== undefined) out[f] = (v * was) / seconds;
  }
  return out;
}

/** A run's readings as the charts draw them: one per engine tick (see foldReadings). */
export function chartReadings(samples: readonly ResourceSample[]): ResourceSample[] {
  const out: ResourceSample[] = [];
  for (const s of samples) addSample(out, s, foldReadings);
  return out;
}

/**
 * The ticks without a reading, grouped by reason, with the first tick each happened at
 * (bounded). Counted per engine tick, as the charts and the result's samples have them: a
 * run's final reading that shares its tick with the one before (the engine folded a short
 * last window) is that tick's, not another.
 */
export function groupGaps(samples: readonly ResourceSample[], max = 50): ResourceGap[] {
  const byReason = new Map<string, ResourceGap>();
  for (const s of chartReadings(samples)) {
    if (s.gap === undefined) continue;
    const g = byReason.get(s.gap);
    if (g) g.count++;
    else if (byReason.size < max)
      byReason.set(s.gap, { reason: s.gap, count: 1, firstElapsedSeconds: s.elapsedSeconds });
  }
  return [...byReason.values()];
}
