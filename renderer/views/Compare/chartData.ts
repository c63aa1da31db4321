import type { ChartConfiguration, ChartDataset, ScriptableContext, TooltipItem } from 'chart.js';
import { cellKey } from '../../../shared/comparison/cells.ts';
import {
  cellAt,
  scalingSeries,
  type ComparisonTable,
  type ScalingSeries,
} from '../../../shared/comparison/table.ts';
import { levelLabel, type LevelKind, type ProtocolVariant } from '../../../shared/comparison/plan.ts';
import type { ColumnSeries } from '../../../shared/comparison/column-series.ts';
import { formatCpuPer10k } from '../../../shared/resources/figure-text.ts';
import { barScales, baseLineOptions } from '../../charts/baseOptions.ts';
import { markedBarStyle } from '../../charts/hatch.ts';
import { seriesColor, type Palette } from '../../charts/palette.ts';
import { formatMs, formatRateValue } from '../../../shared/figures/units.ts';
import { percentileChartOptions } from '../../charts/percentileOptions.ts';
import { percentileToX } from '../../charts/percentileScale.ts';

/*
 * The comparison report's charts as chart.js configurations, built from the aggregated
 * table. Pure: the components only hand them a palette and a canvas.
 */

export function levelAxisTitle(kind: LevelKind): string {
  return kind === 'connections' ? 'concurrent connections' : 'request rate (req/s)';
}

/** Levels in ascending order, as the x axis of every chart shows them. */
function sortedLevels(table: ComparisonTable): number[] {
  return [...table.levels].sort((a, b) => a - b);
}

/** The cell keys (shared/comparison cellKey) whose figure a caveat marks as not the server's. */
export type Flagged = ReadonlySet<string>;

const noFlags: Flagged = new Set();

/** Per series, whether each of its points (in ascending level) is flagged. */
function pointFlags(s: ScalingSeries, flagged: Flagged): boolean[] {
  return s.points.map((pt) =>
    flagged.has(cellKey({ targetIndex: s.targetIndex, protocol: s.protocol, level: pt.level })),
  );
}

/** One bar per level of a target (and protocol): its values, which are flagged, and a tooltip's text. */
interface BarSeries {
  label: string;
  values: (number | null)[];
  flags: boolean[];
  tip: (levelIndex: number, value: number) => string;
}

/**
 * Grouped bars: one group per level (ascending), one bar per target (and protocol). A
 * flagged cell's bar is hatched in its series' colour, with a solid outline.
 */
function levelBarChart(
  table: ComparisonTable,
  p: Palette,
  series: readonly BarSeries[],
  yTitle: string,
): ChartConfiguration<'bar', (number | null)[]> {
  const levels = sortedLevels(table);
  return {
    type: 'bar',
    data: {
      labels: levels.map((l) => levelLabel(table.levelKind, l)),
      datasets: series.map((s, i) => {
        const color = seriesColor(p, i);
        return {
          label: s.label,
          data: s.values,
          ...markedBarStyle(
            () => color,
            (k) => s.flags[k] === true,
          ),
          borderColor: color,
        };
      }),
    },
    options: {
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      color: p.text,
      plugins: {
        legend: {
          position: 'top',
          align: 'end',
          labels: { color: p.muted, boxWidth: 10, boxHeight: 10 },
        },
        tooltip: {
          backgroundColor: p.tooltipBg,
          callbacks: {
            label: (item: TooltipItem<'bar'>) =>
              `${item.dataset.label ?? ''}: ${series[item.datasetIndex]?.tip(item.dataIndex, item.parsed.y ?? 0) ?? ''}`,
          },
        },
      },
      scales: barScales(p, yTitle, levelAxisTitle(table.levelKind)),
    },
  };
}

/** Mean req/s over repetitions per level and target; a flagged cell's bar is hatched. */
export function rpsBarChart(
  table: ComparisonTable,
  p: Palette,
  flagged: Flagged = noFlags,
): ChartConfiguration<'bar', (number | null)[]> {
  const series = scalingSeries(table).map((s): BarSeries => ({
    label: s.label,
    values: s.points.map((pt) => pt.rps),
    flags: pointFlags(s, flagged),
    tip: (i, v) => {
      const sd = s.points[i]?.rpsStdev;
      return `${formatRateValue(v)} req/s${sd ? ` ± ${formatRateValue(sd)}` : ''}`;
    },
  }));
  return levelBarChart(table, p, series, 'requests per second (mean)');
}

/**
 * Server CPU-seconds per 10,000 requests per level and target (seed 000's "the load average
 * rose less", as a number; the serverCpuPer10k column's series): lower is less CPU for the
 * same work. A cell whose load was not the one asked for (a caveat on throughput) is hatched.
 */
export function cpuPer10kBarChart(
  table: ComparisonTable,
  cpu: readonly ColumnSeries[],
  p: Palette,
): ChartConfiguration<'bar', (number | null)[]> {
  const series = cpu.map((s): BarSeries => ({
    label: s.label,
    values: s.values,
    flags: s.affected,
    tip: (_, v) => `${formatCpuPer10k(v)} CPU-s per 10,000 requests`,
  }));
  return levelBarChart(table, p, series, 'server CPU-seconds per 10,000 requests (mean)');
}

type XY = { x: number; y: number };

/** A log x axis once the levels span a decade or more (10, 100, 1000), else linear. */
function levelScaleType(levels: readonly number[]): 'linear' | 'logarithmic' {
  const min = Math.min(...levels);
  const max = Math.max(...levels);
  return min > 0 && max / min >= 10 ? 'logarithmic' : 'linear';
}

/**
 * Scaling lines: req/s or p99 latency against the level, one line per target (and protocol).
 * A flagged cell's point is a hollow triangle, and the line to it dashed.
 */
export function scalingChart(
  table: ComparisonTable,
  figure: 'rps' | 'p99',
  p: Palette,
  flagged: Flagged = noFlags,
): ChartConfiguration<'line', XY[]> {
  const series = scalingSeries(table);
  const levels = sortedLevels(table);
  const options = baseLineOptions(
    p,
    '',
    figure === 'rps' ? 'requests per second (mean)' : 'p99 latency (ms, mean)',
  );
  options.elements = {
    point: { radius: 3.5, hoverRadius: 5 },
    line: { borderWidth: 2, tension: 0 },
  };
  options.interaction = { mode: 'nearest', intersect: false };
  const scaleType = levelScaleType(levels);
  options.scales!.x = {
    type: scaleType,
    min: scaleType === 'linear' ? 0 : undefined,
    title: { display: true, text: levelAxisTitle(table.levelKind), color: p.muted },
    grid: { color: p.grid },
    border: { color: p.grid },
    afterBuildTicks: (axis) => {
      axis.ticks = levels.map((value) => ({ value }));
    },
    ticks: { color: p.muted, autoSkip: false, maxRotation: 0, callback: (v) => String(v) },
  };
  options.plugins!.tooltip = {
    ...options.plugins!.tooltip,
    callbacks: {
      title: (items) => levelLabel(table.levelKind, items[0]?.parsed.x ?? 0),
      label: (item) =>
        `${item.dataset.label ?? ''}: ${figure === 'rps' ? `${formatRateValue(item.parsed.y ?? 0)} req/s` : formatMs(item.parsed.y ?? 0)}`,
    },
  };
  const datasets: ChartDataset<'line', XY[]>[] = series.map((s, i) => {
    const color = seriesColor(p, i);
    const all = pointFlags(s, flagged);
    const drawn = s.points.flatMap((pt, k) => {
      const y = figure === 'rps' ? pt.rps : pt.p99;
      return y === null ? [] : [{ xy: { x: pt.level, y }, flag: all[k] === true }];
    });
    const flags = drawn.map((d) => d.flag);
    return {
      label: s.label,
      data: drawn.map((d) => d.xy),
      borderColor: color,
      backgroundColor: color,
      pointStyle: (c: ScriptableContext<'line'>) => (flags[c.dataIndex] ? 'triangle' : 'circle'),
      pointRadius: (c: ScriptableContext<'line'>) => (flags[c.dataIndex] ? 6 : 3.5),
      pointBackgroundColor: (c: ScriptableContext<'line'>) => (flags[c.dataIndex] ? p.surface : color),
      segment: {
        borderDash: (c) => (flags[c.p0DataIndex] || flags[c.p1DataIndex] ? [5, 4] : undefined),
      },
    };
  });
  return { type: 'line', data: { datasets }, options };
}

/** Overlaid latency distributions at one protocol and level, on the run report's percentile axis. */
export function percentileCurvesChart(
  table: ComparisonTable,
  at: { protocol: ProtocolVariant; level: number },
  p: Palette,
): ChartConfiguration<'line', XY[]> {
  const datasets: ChartDataset<'line', XY[]>[] = [];
  table.targets.forEach((target, targetIndex) => {
    const cell = cellAt(table, { targetIndex, ...at });
    if (!cell || cell.runs === 0) return;
    const points = Object.entries(cell.percentiles)
      .map(([key, y]) => ({ x: percentileToX(Number(key)), y }))
      .filter((pt) => Number.isFinite(pt.x))
      .sort((a, b) => a.x - b.x);
    if (points.length === 0) return;
    datasets.push({
      label: target,
      data: points,
      borderColor: seriesColor(p, targetIndex),
      backgroundColor: seriesColor(p, targetIndex),
      borderWidth: 2,
      pointRadius: 2,
      tension: 0,
    });
  });
  const options = percentileChartOptions(p);
  return { type: 'line', data: { datasets }, options };
}
