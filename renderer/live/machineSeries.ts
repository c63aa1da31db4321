import { MACHINE_CHART, type MachineSeriesSpec } from '../../shared/machine/charts.ts';
import type { MachineSample } from '../../shared/model/machine-facts.ts';
import type { Palette } from '../charts/palette.ts';
import type { LiveChartSpec } from '../jobs/liveSeries.ts';

/**
 * The machine's colours: the machine's busy CPU muted (the whole it all adds up to), the
 * generator in the throughput's hue (it is the load's side), the other processes in the
 * errors' red (what should not be there), steal in the warning amber.
 */
export function machineColor(p: Palette, id: MachineSeriesSpec['id']): string {
  switch (id) {
    case 'busy':
      return p.muted;
    case 'generator':
      return p.throughput;
    case 'others':
      return p.status['5xx'];
    case 'steal':
      return p.status['4xx'];
  }
}

/** The machine's chart as a live chart spec over its readings (a gap is a gap in every line). */
export const MACHINE_LIVE_CHART: LiveChartSpec<MachineSample> = {
  id: MACHINE_CHART.id,
  title: MACHINE_CHART.title,
  unit: MACHINE_CHART.unit,
  series: MACHINE_CHART.series.map((s: MachineSeriesSpec) => ({
    id: s.id,
    label: s.label,
    color: (p: Palette) => machineColor(p, s.id),
    value: s.value,
    fill: s.id === 'busy',
    optional: s.optional === true,
  })),
};
