import type { ChartConfiguration, ChartDataset } from 'chart.js';
import {
  chartReadings,
  chartsWithData,
  seriesHasData,
  serverValue,
  type ServerChartSpec,
} from '../../shared/resources/charts.ts';
import type { RunResult } from '../../shared/model/result.ts';
import { targetLabel } from '../../shared/model/scenario.ts';
import { baseLineOptions } from '../charts/baseOptions.ts';
import { seriesColor, withAlpha, type Palette } from '../charts/palette.ts';
import { serverColor } from '../live/serverSeries.ts';

type XY = { x: number; y: number | null };

/** The server charts any of the results has a figure for. */
export function serverChartsOf(results: readonly RunResult[]): ServerChartSpec[] {
  return chartsWithData(results.flatMap((r) => r.serverResources?.samples ?? []));
}

/**
 * A finished run's server chart (CPU, memory or load over time): for one target every line
 * the chart has (CPU, user, system), for several each target's headline figure in the
 * target's colour, so servers run one after another can be told apart. A gap reading breaks
 * the line.
 */
export function serverTimelineChart(
  results: readonly RunResult[],
  chart: ServerChartSpec,
  p: Palette,
): ChartConfiguration<'line', XY[]> {
  const several = results.length > 1;
  const datasets: ChartDataset<'line', XY[]>[] = results.flatMap((r, i) => {
    const samples = chartReadings(r.serverResources?.samples ?? []);
    return chart.series.flatMap((series, k) => {
      if ((several && series.headline !== true) || !seriesHasData(series, samples)) return [];
      const color = several ? seriesColor(p, i) : serverColor(p, k);
      return [
        {
          label: several ? `${targetLabel(r.target)} · ${series.label}` : series.label,
          data: samples.map((s) => ({ x: s.elapsedSeconds, y: serverValue(chart, series, s) })),
          borderColor: color,
          backgroundColor: series.headline && !several ? withAlpha(color, 0.15) : color,
          fill: series.headline === true && !several ? 'origin' : false,
          spanGaps: false,
        },
      ];
    });
  });
  const options = baseLineOptions(p, 'time (s)', chart.unit);
  options.plugins!.legend!.display = datasets.length > 1;
  return { type: 'line', data: { datasets }, options };
}
