import type { ChartOptions } from 'chart.js';
import { MAX_X, PERCENTILE_TICKS, tickLabel, xToPercentile } from './percentileScale.ts';
import { formatMs } from '../../shared/figures/units.ts';
import { baseLineOptions } from './baseOptions.ts';
import type { Palette } from './palette.ts';

/**
 * Options of every latency-by-percentile chart (the run report's, the comparison's): x is
 * HdrHistogram's log scale of 1 / (1 - p), so 99.9% and 99.99% are readable; tooltips name
 * the percentile ("p99.9", "max") and the latency.
 */
export function percentileChartOptions(p: Palette): ChartOptions<'line'> {
  const options = baseLineOptions(p, 'percentile', 'latency (ms)');
  options.interaction = { mode: 'nearest', intersect: false };
  options.plugins!.tooltip = {
    ...options.plugins!.tooltip,
    callbacks: {
      title: (items) => {
        const x = items[0]?.parsed.x;
        if (x === undefined || x === null) return '';
        // 99.9000001 -> "99.9": the inverse mapping is exact only up to rounding.
        return x >= MAX_X ? 'max' : `p${Math.round(xToPercentile(x) * 1000) / 1000}`;
      },
      label: (item) => `${item.dataset.label ?? ''}: ${formatMs(item.parsed.y ?? 0)}`,
    },
  };
  options.scales!.x = {
    type: 'logarithmic',
    min: 1,
    max: MAX_X,
    title: { display: true, text: 'percentile (log scale of 1 / (1 − p))', color: p.muted },
    grid: { color: p.grid },
    border: { color: p.grid },
    afterBuildTicks: (axis) => {
      axis.ticks = PERCENTILE_TICKS.map((t) => ({ value: t.x }));
    },
    ticks: { color: p.muted, autoSkip: false, maxRotation: 0, callback: (v) => tickLabel(Number(v)) },
  };
  return options;
}
