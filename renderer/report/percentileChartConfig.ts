import type { ChartConfiguration, ChartDataset } from 'chart.js';
import type { RunResult } from '../../shared/model/result.ts';
import { targetLabel } from '../../shared/model/scenario.ts';
import { seriesColor, withAlpha, type Palette } from '../charts/palette.ts';
import { percentileChartOptions } from '../charts/percentileOptions.ts';
import { percentilePoints, type PercentilePoint } from '../charts/percentileScale.ts';

/**
 * The run report's latency-by-percentile chart: the shown target's distribution on top, the
 * other targets' fainter beside it, and the corrected curve when coordinated omission was
 * corrected for.
 */
export function percentileChart(
  results: readonly (RunResult | null)[],
  shown: number,
  palette: Palette,
): ChartConfiguration<'line', PercentilePoint[]> {
  const datasets: ChartDataset<'line', PercentilePoint[]>[] = [];
  results.forEach((r, i) => {
    if (!r?.latency) return;
    const color = seriesColor(palette, i);
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

  const options = percentileChartOptions(palette);
  options.plugins!.legend!.display = datasets.length > 1;
  // Legend in target order, whichever line is drawn on top.
  options.plugins!.legend!.labels!.sort = (a, b) => (a.datasetIndex ?? 0) - (b.datasetIndex ?? 0);
  return { type: 'line', data: { datasets }, options };
}
