/**
 * The machine's chart, one spec for every view that draws it (the live panel, a finished
 * run's report, the HTML report): the machine's busy CPU, the generator's process and the
 * other processes, all as shares of the machine's cores on the run's time axis, one point per
 * engine tick (a run's last short reading folded into its tick, as the server's are). A
 * reading that is a gap is a gap in every line. Pure.
 */
import { addSample } from '../figures/sample-series.ts';
import type { MachineSample } from '../model/machine-facts.ts';
import { foldMachineReadings } from './summary.ts';

export interface MachineSeriesSpec {
  id: 'busy' | 'generator' | 'others' | 'steal';
  label: string;
  /** Its value in % of all cores; null for a gap or a figure the reading lacks. */
  value: (s: MachineSample) => number | null;
  /** Drawn only when some reading has it above zero (steal on a virtual machine). */
  optional?: boolean;
}

const share = (s: MachineSample, corePercent: number | undefined): number | null =>
  s.gap !== undefined || corePercent === undefined ? null : corePercent / s.cores;

export const MACHINE_CHART = {
  id: 'machine-cpu',
  title: 'Machine CPU',
  unit: '% of all cores',
  series: [
    { id: 'busy', label: 'machine busy', value: (s) => (s.gap === undefined ? s.cpuBusyPercent : null) },
    { id: 'generator', label: 'generator', value: (s) => share(s, s.generatorCpuPercent) },
    { id: 'others', label: 'other processes', value: (s) => share(s, s.otherCpuPercent) },
    {
      id: 'steal',
      label: 'steal',
      value: (s) => (s.gap === undefined ? s.cpuStealPercent : null),
      optional: true,
    },
  ] satisfies readonly MachineSeriesSpec[],
} as const;

/** A run's machine readings as the chart draws them: one per engine tick. */
export function machineChartReadings(samples: readonly MachineSample[]): MachineSample[] {
  const out: MachineSample[] = [];
  for (const s of samples) addSample(out, s, foldMachineReadings);
  return out;
}

/** The series with something to draw in these readings (an optional one only above zero). */
export function machineSeriesWithData(samples: readonly MachineSample[]): MachineSeriesSpec[] {
  return MACHINE_CHART.series.filter((spec: MachineSeriesSpec) =>
    samples.some((s) => {
      const v = spec.value(s);
      return v !== null && (!spec.optional || v > 0);
    }),
  );
}
