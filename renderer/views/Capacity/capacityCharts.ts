import type { ChartConfiguration, ChartDataset, ScriptableContext, TooltipItem } from 'chart.js';
import { answerShort, goalText, rateText } from '../../../shared/capacity/search.ts';
import { curveOf, notTheServers, type SearchReport } from '../../../shared/capacity/report.ts';
import { barScales, baseLineOptions } from '../../charts/baseOptions.ts';
import { markedBarStyle } from '../../charts/hatch.ts';
import { seriesColor, withAlpha, type Palette } from '../../charts/palette.ts';
import { formatLiveRate, formatMs } from '../../../shared/figures/units.ts';

/*
 * The capacity search's charts as chart.js configurations, built from its reports. Pure: the
 * components only hand them a palette and a canvas.
 */

type XY = { x: number; y: number };

/** A log latency axis once the points span more than a decade (5 ms under the knee, seconds above). */
function latencyScale(values: readonly number[]): 'linear' | 'logarithmic' {
  const positive = values.filter((v) => v > 0);
  if (positive.length < 2) return 'linear';
  return Math.max(...positive) / Math.min(...positive) > 20 ? 'logarithmic' : 'linear';
}

/**
 * A log axis' ticks: 1, 2 and 5 of every decade between its ends. chart.js' own put a tick on
 * every 1..9 of a decade, labelled some, and its tick limit then skipped the labelled ones:
 * an axis read "0.1 … 1.0" and nothing above, its points near 5 ms.
 */
export function logTicks(min: number, max: number): number[] {
  if (!(min > 0) || !(max >= min)) return [];
  const ticks: number[] = [];
  for (let e = Math.floor(Math.log10(min)); e <= Math.ceil(Math.log10(max)); e++) {
    for (const m of [1, 2, 5]) {
      const v = Number((m * 10 ** e).toPrecision(6));
      if (v >= min * (1 - 1e-9) && v <= max * (1 + 1e-9)) ticks.push(v);
    }
  }
  return ticks;
}

/** A tick's label in ms: "0.05", "2", "1,000". */
export const msTickLabel = (v: number): string => Number(v.toPrecision(3)).toLocaleString('en-US');

/**
 * The knee: p99 (solid) and p50 (dashed) latency against the throughput answered, one colour
 * per server, with the goal as a line across. Past the knee the throughput stops growing while
 * the latency climbs. A step the client or a busy machine limited is a hollow triangle: its figures are not the
 * server's.
 */
export function kneeChart(reports: readonly SearchReport[], p: Palette): ChartConfiguration<'line', XY[]> {
  const options = baseLineOptions(p, 'throughput answered (req/s)', 'latency (ms)');
  options.elements = {
    point: { radius: 3.5, hoverRadius: 5 },
    line: { borderWidth: 2, tension: 0 },
  };
  options.interaction = { mode: 'nearest', intersect: false };
  const datasets: ChartDataset<'line', XY[]>[] = [];
  const all: number[] = [];
  let maxX = 0;
  reports.forEach((report, i) => {
    const color = seriesColor(p, i);
    const steps = curveOf(report).filter((s) => s.figures.p99 !== null);
    const limited = steps.map(notTheServers);
    const style = {
      pointStyle: (c: ScriptableContext<'line'>) => (limited[c.dataIndex] ? 'triangle' : 'circle'),
      pointBackgroundColor: (c: ScriptableContext<'line'>) => (limited[c.dataIndex] ? p.surface : color),
      pointRadius: (c: ScriptableContext<'line'>) => (limited[c.dataIndex] ? 6 : 3.5),
    };
    for (const s of steps) {
      all.push(s.figures.p99!, s.figures.p50 ?? s.figures.p99!);
      maxX = Math.max(maxX, s.figures.achievedRps);
    }
    datasets.push({
      label: `${report.label} p99`,
      data: steps.map((s) => ({ x: s.figures.achievedRps, y: s.figures.p99! })),
      borderColor: color,
      backgroundColor: color,
      ...style,
    });
    datasets.push({
      label: `${report.label} p50`,
      data: steps.map((s) => ({ x: s.figures.achievedRps, y: s.figures.p50 ?? s.figures.p99! })),
      borderColor: withAlpha(color, 0.7),
      backgroundColor: withAlpha(color, 0.7),
      borderDash: [5, 4],
      borderWidth: 1.5,
      ...style,
    });
  });
  const goal = reports[0]?.search.goal;
  if (goal) {
    all.push(goal.p99Ms);
    datasets.push({
      label: `goal ${goalText(goal)}`,
      data: [
        { x: 0, y: goal.p99Ms },
        { x: maxX || 1, y: goal.p99Ms },
      ],
      borderColor: p.muted,
      backgroundColor: p.muted,
      borderDash: [2, 3],
      borderWidth: 1.5,
      pointRadius: 0,
    });
  }
  const y = options.scales!.y!;
  options.scales!.y =
    latencyScale(all) === 'logarithmic'
      ? {
          type: 'logarithmic',
          title: y.title,
          grid: y.grid,
          border: y.border,
          ticks: { color: p.muted, autoSkip: false, callback: (v) => msTickLabel(Number(v)) },
          afterBuildTicks: (axis) => {
            axis.ticks = logTicks(axis.min, axis.max).map((value) => ({ value }));
          },
        }
      : y;
  options.plugins!.tooltip = {
    ...options.plugins!.tooltip,
    callbacks: {
      title: (items) => `${formatLiveRate(items[0]?.parsed.x ?? 0)} req/s answered`,
      label: (item) => `${item.dataset.label ?? ''}: ${formatMs(item.parsed.y ?? 0)}`,
    },
  };
  return { type: 'line', data: { datasets }, options };
}

/**
 * One bar per server: the highest rate it held within the goal. An answer that is a lower bound
 * ("at least": the client was the limit, the top rate, a stopped search) is hatched.
 */
export function heldRateChart(
  reports: readonly SearchReport[],
  p: Palette,
): ChartConfiguration<'bar', (number | null)[]> {
  const answered = reports.map((r) => r.answer);
  const colors = reports.map((_r, i) => seriesColor(p, i));
  const goal = reports[0]?.search.goal;
  return {
    type: 'bar',
    data: {
      labels: reports.map((r) => r.label),
      datasets: [
        {
          label: goal ? `highest rate held at ${goalText(goal)}` : 'highest rate held',
          data: answered.map((a) => a?.heldRate ?? null),
          ...markedBarStyle(
            (i) => colors[i] ?? p.throughput,
            (i) => answered[i]?.exact === false,
          ),
          borderColor: colors,
        },
      ],
    },
    options: {
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      color: p.text,
      plugins: {
        legend: { display: false },
        tooltip: {
          backgroundColor: p.tooltipBg,
          callbacks: {
            label: (item: TooltipItem<'bar'>) => {
              const a = answered[item.dataIndex];
              return a ? answerShort(a) : rateText(item.parsed.y ?? 0);
            },
          },
        },
      },
      scales: barScales(p, 'requests per second held'),
    },
  };
}
