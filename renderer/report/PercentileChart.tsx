import { useEffect, useRef } from 'react';
import type { ChartDataset, TooltipItem } from 'chart.js';
import type { RunResult } from '../../shared/result.ts';
import { targetLabel } from '../../shared/scenario.ts';
import { baseLineOptions } from '../charts/baseOptions.ts';
import { paletteFor, withAlpha } from '../charts/palette.ts';
import { Chart } from '../charts/setup.ts';
import { useColorScheme } from '../charts/useColorScheme.ts';
import { ChartPngButton } from '../views/Export/ChartPngButton.tsx';
import { formatMs } from '../lib/format.ts';
import {
  MAX_X,
  PERCENTILE_TICKS,
  percentilePoints,
  tickLabel,
  xToPercentile,
  type PercentilePoint,
} from './percentileScale.ts';

interface PercentileChartProps {
  /** Every target's result; the shown one is drawn on top, the others fainter for comparison. */
  results: readonly (RunResult | null)[];
  shown: number;
}

/** Latency by percentile, HdrHistogram style: the tail gets as much room as the median. */
export function PercentileChart({ results, shown }: PercentileChartProps) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const scheme = useColorScheme();

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    const palette = paletteFor(scheme);
    const datasets: ChartDataset<'line', PercentilePoint[]>[] = [];
    results.forEach((r, i) => {
      if (!r?.latency) return;
      const color = palette.series[i % palette.series.length]!;
      const main = i === shown;
      datasets.push({
        label: results.length > 1 ? `${i + 1}. ${targetLabel(r.target)}` : 'latency',
        data: percentilePoints(r.latency),
        borderColor: main ? color : withAlpha(color, 0.55),
        backgroundColor: color,
        borderWidth: main ? 2.5 : 1.5,
        pointRadius: main ? 2.5 : 0,
        // Straight segments between measured percentiles: a curve would invent values between them.
        tension: 0,
        cubicInterpolationMode: 'default',
        order: main ? 0 : 1,
      });
      if (main && r.correctedLatency) {
        datasets.push({
          label: 'corrected for coordinated omission',
          data: percentilePoints(r.correctedLatency),
          borderColor: color,
          backgroundColor: color,
          borderDash: [5, 4],
          borderWidth: 1.5,
          pointRadius: 0,
          tension: 0,
          cubicInterpolationMode: 'default',
        });
      }
    });

    const options = baseLineOptions(palette, 'percentile', 'latency (ms)');
    options.interaction = { mode: 'nearest', intersect: false };
    options.plugins!.legend!.display = datasets.length > 1;
    // Legend in target order, whichever line is drawn on top.
    options.plugins!.legend!.labels!.sort = (a, b) => (a.datasetIndex ?? 0) - (b.datasetIndex ?? 0);
    options.plugins!.tooltip = {
      ...options.plugins!.tooltip,
      callbacks: {
        title: (items: TooltipItem<'line'>[]) => {
          const x = items[0]?.parsed.x;
          if (x === undefined || x === null) return '';
          return x >= MAX_X ? 'max' : `p${formatP(xToPercentile(x))}`;
        },
        label: (item: TooltipItem<'line'>) => `${item.dataset.label ?? ''}: ${formatMs(item.parsed.y ?? 0)}`,
      },
    };
    options.scales!.x = {
      type: 'logarithmic',
      min: 1,
      max: MAX_X,
      title: { display: true, text: 'percentile (log scale of 1 / (1 − p))', color: palette.muted },
      grid: { color: palette.grid },
      border: { color: palette.grid },
      afterBuildTicks: (axis) => {
        axis.ticks = PERCENTILE_TICKS.map((t) => ({ value: t.x }));
      },
      ticks: {
        color: palette.muted,
        autoSkip: false,
        maxRotation: 0,
        callback: (value) => tickLabel(Number(value)),
      },
    };

    const chart = new Chart<'line', PercentilePoint[]>(canvas, { type: 'line', data: { datasets }, options });
    canvas.dataset.points = String(datasets[0]?.data.length ?? 0);
    return () => chart.destroy();
  }, [results, shown, scheme]);

  return (
    <figure className="card chart-card chart-card--tall">
      <figcaption className="chart-card__title chart-card__title--actions">
        <span>Latency by percentile</span>
        <ChartPngButton
          canvasRef={canvasRef}
          fileName="latency-by-percentile"
          testId="png-chart-percentiles"
        />
      </figcaption>
      <div className="chart-card__canvas">
        <canvas
          ref={canvasRef}
          data-testid="chart-percentiles"
          role="img"
          aria-label="Latency by percentile"
        />
      </div>
    </figure>
  );
}

/** 99.9000001 -> "99.9": the inverse mapping is exact only up to rounding. */
function formatP(p: number): string {
  return String(Math.round(p * 1000) / 1000);
}
