/**
 * `vegeta report` text layout (vegeta 12): the same rows, brackets and Go duration notation,
 * aligned as Go's tabwriter (padding 2) aligns them. Durations are printed unrounded at our
 * microsecond resolution, as vegeta before 12.8 did. One row is ours: an open-model run
 * adds "Schedule" after Requests (target rate, late and dropped requests), marked as ours:
 * vegeta's report does not say when the generator fell behind its schedule. Another is ours
 * too: "Warm" after Schedule (the connections the open model opened before its first send),
 * and "Lateness" after Latencies, for runs on a schedule (open model, rate cap): how
 * late requests went out, the part of those latencies that is the generator's own delay.
 */
import type { RunResult } from '../model/result.ts';
import {
  errorSet,
  runDurations,
  sortedStatusCodes,
  vegetaRate,
  vegetaThroughput,
} from '../verdict/run-figures.ts';
import { alignColumns } from './table.ts';
import { fixed, formatDurationMs, formatDurationSeconds, formatPercent } from '../figures/units.ts';

/** Open model: whether the schedule was kept. Not a vegeta row, and it says so. */
function scheduleRow(r: RunResult): string[][] {
  if (r.load.model !== 'open') return [];
  const late = r.requests.late ?? 0;
  const dropped = r.requests.dropped ?? 0;
  return [
    [
      'Schedule',
      '[target rate, late, dropped]',
      `${fixed(r.throughput.targetRate ?? r.load.rate, 2)}, ${late}, ${dropped}  (Trebuchet's row, not vegeta's)`,
    ],
  ];
}

/** Open model: the connections opened before the first send (RunResult.warm). Not a vegeta row, and it says so. */
function warmRow(r: RunResult): string[][] {
  const w = r.warm;
  if (!w) return [];
  return [
    [
      'Warm',
      '[connections, open, seconds]',
      `${w.wanted}, ${w.ready}, ${fixed(w.seconds, 3)}  (Trebuchet's row: opened before the first send, not run time)`,
    ],
  ];
}

/** Scheduled runs: how late requests went out (p50, p99, max). Not a vegeta row, and it says so. */
function latenessRow(r: RunResult): string[][] {
  const l = r.sendLateness;
  if (!l) return [];
  const figures = [l.percentiles['50'] ?? 0, l.percentiles['99'] ?? 0, l.max].map(formatDurationMs);
  return [
    [
      'Lateness',
      '[send 50, 99, max]',
      `${figures.join(', ')}  (Trebuchet's row: the generator's own delay, inside the latencies)`,
    ],
  ];
}

export function formatVegetaReport(r: RunResult): string {
  const { total, attack, wait } = runDurations(r);
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
  const totalAndMean = (bytes: number): string => `${bytes}, ${fixed(count > 0 ? bytes / count : 0, 2)}`;
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
    ...warmRow(r),
    ['Duration', '[total, attack, wait]', [total, attack, wait].map(formatDurationSeconds).join(', ')],
    [
      'Latencies',
      '[min, mean, 50, 90, 95, 99, max]',
      Array.from({ length: 7 }, (_, i) => formatDurationMs(latencies[i] ?? 0)).join(', '),
    ],
    ...latenessRow(r),
    ['Bytes In', '[total, mean]', totalAndMean(r.bytes.inBody)],
    ['Bytes Out', '[total, mean]', totalAndMean(r.bytes.outBody)],
    ['Success', '[ratio]', formatPercent(r.successRatio)],
    ['Status Codes', '[code:count]', statusCells.join('  ')],
  ];
  const lines = [...alignColumns(rows), 'Error Set:', ...errorSet(r).map((e) => e.text)];
  return lines.join('\n') + '\n';
}
