/**
 * The machine's readings as CSV: one row per reading, on the time axis of the time series and
 * the server's readings (same seq and elapsed seconds). Shares of the machine are percent of
 * all its cores; a process's CPU is percent of one core.
 */
import type { MachineSample } from '../../model/machine-facts.ts';
import { csvRows, type CsvValue } from '../csv.ts';
import type { LabelledResult } from '../labels.ts';
import { otherProcessesText } from '../../machine/readings.ts';

const COLUMNS: readonly [string, (s: MachineSample) => CsvValue][] = [
  ['seq', (s) => s.seq],
  ['elapsed (s)', (s) => s.elapsedSeconds],
  ['interval (s)', (s) => s.intervalSeconds],
  ['warmup', (s) => s.warmup],
  ['cores', (s) => s.cores],
  ['cpu busy (%)', (s) => s.cpuBusyPercent],
  ['cpu idle (%)', (s) => s.cpuIdlePercent],
  ['cpu iowait (%)', (s) => s.cpuIowaitPercent],
  ['cpu steal (%)', (s) => s.cpuStealPercent],
  ['generator cpu (% of a core)', (s) => s.generatorCpuPercent],
  ['generator busiest thread', (s) => s.generatorThread?.name],
  ['generator busiest thread cpu (% of a core)', (s) => s.generatorThread?.cpuPercent],
  ['other processes cpu (% of a core)', (s) => s.otherCpuPercent],
  ['busiest other processes', (s) => (s.otherProcesses ? otherProcessesText(s.otherProcesses) : undefined)],
  ['link in (b/s)', (s) => s.linkInBitsPerSecond],
  ['link out (b/s)', (s) => s.linkOutBitsPerSecond],
  ['gap', (s) => s.gap],
];

/** One row per machine reading, for every result that has them. */
export function machineCsv(results: readonly LabelledResult[]): string {
  const header = ['target', ...COLUMNS.map(([name]) => name)];
  const rows = results.flatMap(({ label, result }) =>
    (result.machine?.samples ?? []).map((s) => [label, ...COLUMNS.map(([, get]) => get(s))]),
  );
  return csvRows([header, ...rows]);
}
