/**
 * A comparison as text (the CLI's report of a comparison preset, "copy as text" in the UI):
 * the matrix with one row per target, protocol and level, each figure's mean over the
 * repetitions with the req/s spread, then seed 001's percentile table (one column per
 * server) for each protocol and level.
 */
import {
  cellAt,
  comparisonPercentileTable,
  levelLabel,
  type CellAggregate,
  type ComparisonTable,
  type PercentileTable,
} from '../comparison.ts';
import { fixed, formatPercent } from './units.ts';

const GAP = '  ';
const NONE = '-';

type Align = 'left' | 'right';

/** Columns padded to their widest cell: text left, figures right. */
function alignTable(rows: readonly (readonly string[])[], align: readonly Align[]): string[] {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  return rows.map((row) =>
    row
      .map((cell, i) => (align[i] === 'left' ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
      .join(GAP)
      .trimEnd(),
  );
}

const num = (v: number | null | undefined, decimals: number): string =>
  v === null || v === undefined ? NONE : fixed(v, decimals);

const MATRIX_HEADER = [
  'target',
  'protocol',
  'level',
  'runs',
  'req/s',
  '± stdev',
  'min',
  'max',
  'p50 ms',
  'p95 ms',
  'p99 ms',
  'failed',
  'success',
];
const MATRIX_ALIGN: readonly Align[] = MATRIX_HEADER.map((_, i) => (i < 3 ? 'left' : 'right'));

function matrixRow(table: ComparisonTable, c: CellAggregate): string[] {
  const f = c.figures;
  return [
    c.target,
    c.protocol,
    levelLabel(table.levelKind, c.level),
    `${c.runs}/${c.planned}`,
    num(f.rps?.mean, 2),
    num(f.rps?.stdev, 2),
    num(f.rps?.min, 2),
    num(f.rps?.max, 2),
    num(f.p50?.mean, 3),
    num(f.p95?.mean, 3),
    num(f.p99?.mean, 3),
    c.runs > 0 ? String(c.failedRequests) : NONE,
    f.successRatio ? formatPercent(f.successRatio.mean) : NONE,
  ];
}

/** Percentile rows, one latency column (ms) per server. */
export function formatPercentileTable(title: string, pt: PercentileTable): string {
  const rows = [['', ...pt.columns], ...pt.rows.map((r) => [r.label, ...r.values.map((v) => num(v, 3))])];
  const align: Align[] = rows[0]!.map((_, i) => (i === 0 ? 'left' : 'right'));
  return [title, ...alignTable(rows, align)].join('\n') + '\n';
}

export function formatComparisonTable(table: ComparisonTable): string {
  const rows = [MATRIX_HEADER, ...table.cells.map((c) => matrixRow(table, c))];
  const parts = [
    [
      table.name,
      `${table.targets.length} target(s) x ${table.protocols.length} protocol(s) x ${table.levels.length} level(s) x ${table.repetitions} repetition(s); figures are means over the counted runs, latencies in ms`,
      '',
      ...alignTable(rows, MATRIX_ALIGN),
    ].join('\n') + '\n',
  ];
  const failures = table.cells.flatMap((c) =>
    c.failures.map(
      (message) => `  ${c.target} · ${c.protocol} · ${levelLabel(table.levelKind, c.level)}: ${message}`,
    ),
  );
  if (failures.length > 0) parts.push(['Runs that failed:', ...failures].join('\n') + '\n');
  if (table.targets.length > 1) {
    for (const level of table.levels) {
      for (const protocol of table.protocols) {
        const measured = table.targets.some(
          (_, targetIndex) => (cellAt(table, { targetIndex, protocol, level })?.runs ?? 0) > 0,
        );
        if (!measured) continue;
        parts.push(
          formatPercentileTable(
            `Latency percentiles (ms), ${protocol} at ${levelLabel(table.levelKind, level)}`,
            comparisonPercentileTable(table, { protocol, level }),
          ),
        );
      }
    }
  }
  return parts.join('\n');
}
