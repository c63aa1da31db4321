/**
 * `vegeta report` text layout (vegeta 12): the same rows, brackets and Go duration notation,
 * aligned like Go's tabwriter (padding 2). Durations are printed unrounded at our
 * microsecond resolution, as vegeta before 12.8 did. One row is ours: an open-model run
 * adds "Schedule" after Requests (target rate, late and dropped requests), marked as ours:
 * vegeta's report does not say when the generator fell behind its schedule.
 */
import type { RunResult } from '../result.ts';
import { errorSet, sortedStatusCodes, vegetaDurations, vegetaRate, vegetaThroughput } from './summary.ts';
import { fixed, formatDurationMs, formatDurationSeconds } from './units.ts';

const PADDING = 2;

/** Aligns every column but the last, as tabwriter does for a block of tab-separated rows. */
function alignColumns(rows: readonly (readonly string[])[]): string[] {
  const widths: number[] = [];
  for (const row of rows) {
    row.slice(0, -1).forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  }
  return rows.map((row) =>
    row
      .map((cell, i) => (i < row.length - 1 ? cell.padEnd(widths[i]! + PADDING) : cell))
      .join('')
      .trimEnd(),
  );
}

/** Open model: whether the schedule was kept. Not a vegeta row, and it says so. */
function scheduleRow(r: RunResult): string[][] {
  if (r.load.model !== 'open') return [];
  const late = r.requests.late ?? 0;
  const dropped = r.requests.dropped ?? 0;
  return [
    [
      'Schedule',
      '[target rate, late, dropped]',
      `${fixed(r.load.rate, 2)}, ${late}, ${dropped}  (Trebuchet's row, not vegeta's)`,
    ],
  ];
}

export function formatVegetaReport(r: RunResult): string {
  const { total, attack, wait } = vegetaDurations(r);
  const lat = r.latency;
  const latencies = lat
    ? [
        lat.min,
        lat.mean,
        lat.percentiles['50'],
        lat.percentiles['90'],
        lat.percentiles['95'],
        lat.percentiles['99'],
        lat.max,
      ]
    : [];
  const count = r.requests.total;
  // A request that got no response is vegeta's status code 0.
  const codes = r.requests.errors > 0 ? [['0', r.requests.errors] as const] : [];
  const statusCells = [...codes, ...sortedStatusCodes(r).map((c) => [c, r.statusCodes[c]!] as const)].map(
    ([c, n]) => `${c}:${n}`,
  );

  const rows = [
    [
      'Requests',
      '[total, rate, throughput]',
      `${count}, ${fixed(vegetaRate(r), 2)}, ${fixed(vegetaThroughput(r), 2)}`,
    ],
    ...scheduleRow(r),
    ['Duration', '[total, attack, wait]', [total, attack, wait].map(formatDurationSeconds).join(', ')],
    [
      'Latencies',
      '[min, mean, 50, 90, 95, 99, max]',
      Array.from({ length: 7 }, (_, i) => formatDurationMs(latencies[i] ?? 0)).join(', '),
    ],
    ['Bytes In', '[total, mean]', `${r.bytes.inBody}, ${fixed(count > 0 ? r.bytes.inBody / count : 0, 2)}`],
    [
      'Bytes Out',
      '[total, mean]',
      `${r.bytes.outBody}, ${fixed(count > 0 ? r.bytes.outBody / count : 0, 2)}`,
    ],
    ['Success', '[ratio]', `${fixed(r.successRatio * 100, 2)}%`],
    ['Status Codes', '[code:count]', statusCells.join('  ')],
  ];
  const lines = [...alignColumns(rows), 'Error Set:', ...errorSet(r).map((e) => e.text)];
  return lines.join('\n') + '\n';
}
