/**
 * A comparison as text (the CLI's report of a comparison preset):
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
import { alignColumns } from './table.ts';
import { fixed, formatPercent } from './units.ts';

const NONE = '-';

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
function formatPercentileTable(title: string, pt: PercentileTable): string {
  const rows = [['', ...pt.columns], ...pt.rows.map((r) => [r.label, ...r.values.map((v) => num(v, 3))])];
  return [title, ...alignColumns(rows, 1)].join('\n') + '\n';
}

export function formatComparisonTable(table: ComparisonTable): string {
  const rows = [MATRIX_HEADER, ...table.cells.map((c) => matrixRow(table, c))];
  const parts = [
    [
      table.name,
      `${table.targets.length} target(s) x ${table.protocols.length} protocol(s) x ${table.levels.length} level(s) x ${table.repetitions} repetition(s); figures are means over the counted runs, latencies in ms`,
      '',
      ...alignColumns(rows, 3), // target, protocol and level are text
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
