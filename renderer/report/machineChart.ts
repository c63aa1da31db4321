import type { ChartConfiguration, ChartDataset } from 'chart.js';
import { MACHINE_CHART, machineChartReadings, machineSeriesWithData } from '../../shared/machine/charts.ts';
import type { RunResult } from '../../shared/model/result.ts';
import { baseLineOptions } from '../charts/baseOptions.ts';
import { withAlpha, type Palette } from '../charts/palette.ts';
import { machineColor } from '../live/machineSeries.ts';

type XY = { x: number; y: number | null };

/** A finished run's machine chart: its busy CPU, the generator and the other processes over time. */
export function machineTimelineChart(result: RunResult, p: Palette): ChartConfiguration<'line', XY[]> {
  const samples = machineChartReadings(result.machine?.samples ?? []);
  const datasets: ChartDataset<'line', XY[]>[] = machineSeriesWithData(samples).map((s) => {
    const color = machineColor(p, s.id);
    return {
      label: s.label,
      data: samples.map((x) => ({ x: x.elapsedSeconds, y: s.value(x) })),
      borderColor: color,
      backgroundColor: s.id === 'busy' ? withAlpha(color, 0.15) : color,
      fill: s.id === 'busy' ? 'origin' : false,
      spanGaps: false,
    };
  });
  return { type: 'line', data: { datasets }, options: baseLineOptions(p, 'time (s)', MACHINE_CHART.unit) };
}
