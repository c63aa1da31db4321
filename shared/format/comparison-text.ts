/**
 * A comparison as text (the CLI's report of a comparison, the UI's text export): each cell's
 * run in the layout the plan names (ab, vegeta, JMeter...), one after another, then the
 * matrix with the plan's columns and a verdict mark per cell, every caveat spelled out under
 * it, the runs that failed, seed 001's percentile table (one column per server) for each
 * protocol and level, and with repetitions, one row per run (seed 002's Résumé).
 */
import { NO_VALUE } from '../comparison/column-format.ts';
import { columnText, matrixColumns } from '../comparison/columns.ts';
import { matrixCells, type MatrixCell } from '../comparison/matrix.ts';
import { REPETITION_COLUMNS, repetitionRows } from '../comparison/repetitions.ts';
import type { CellOutcome } from '../comparison/cells.ts';
import {
  aggregateComparison,
  cellAt,
  comparisonPercentileTable,
  type ComparisonTable,
  type PercentileTable,
} from '../comparison/table.ts';
import { cellLabel, levelLabel, type ComparisonPlan } from '../comparison/plan.ts';
import { PREFLIGHT_FIX_LABELS, type PreflightFailure, type PreflightFix } from '../model/preflight.ts';
import { planReport, type ReportLayout } from '../comparison/report-settings.ts';
import type { ComparisonResult } from '../comparison/result.ts';
import { formatRunReport } from './report.ts';
import { fixText } from '../model/preflight.ts';
import { alignColumns } from './table.ts';
import { caveatMark, verdictMark } from './verdict-text.ts';
import { fixed } from '../figures/units.ts';
import { jobStatusText } from '../model/interruption.ts';
import type { RunStatus } from '../model/result.ts';

/** Percentile rows, one latency column (ms) per server. */
function formatPercentileTable(title: string, pt: PercentileTable): string {
  const rows = [
    ['', ...pt.columns],
    ...pt.rows.map((r) => [r.label, ...r.values.map((v) => (v === null ? NO_VALUE : fixed(v, 3)))]),
  ];
  return [title, ...alignColumns(rows, 1)].join('\n') + '\n';
}

/** Every caveat of every cell, the cell named, worst cells first as the matrix lists them. */
function caveatLines(plan: ComparisonPlan, cells: readonly MatrixCell[]): string[] {
  const lines = cells.flatMap((c) =>
    c.results.length === 0
      ? []
      : c.verdict.caveats.map((v) => `${caveatMark(v)} ${cellLabel(plan, c)}: ${v.message}`),
  );
  return lines.length === 0
    ? []
    : ['Verdicts (! not the server’s figures, ~ stopped early, - a note):', ...lines];
}

function repetitionTable(table: ComparisonTable, outcomes: readonly CellOutcome[]): string[] {
  const rows = repetitionRows(table, outcomes);
  if (rows.length === 0) return [];
  const header = ['target', 'protocol', 'level', 'run', ...REPETITION_COLUMNS.map((c) => c.label)];
  const body = rows.map((r) => [
    r.target,
    r.protocol,
    r.levelText,
    `#${r.repetition}`,
    ...REPETITION_COLUMNS.map((c) => c.format(c.value(r))),
  ]);
  const text = new Set([0, 1, 2, 3, 4, header.length - 1]);
  return ['Each run', ...alignColumns([header, ...body], (i) => text.has(i))];
}

/** The matrix and what goes with it, for the plan's columns. */
export function formatComparisonMatrix(plan: ComparisonPlan, outcomes: readonly CellOutcome[]): string {
  const table = aggregateComparison(plan, outcomes);
  const cells = matrixCells(table, outcomes);
  const columns = matrixColumns(planReport(plan).columns);
  const header = ['', 'target', 'protocol', 'level', ...columns.map((c) => c.label)];
  const rows = cells.map((c) => [
    c.results.length === 0 ? ' ' : verdictMark(c.verdict),
    c.target,
    c.protocol,
    levelLabel(table.levelKind, c.level),
    ...columns.map((col) => columnText(col, c)),
  ]);
  const parts = [
    [
      table.name,
      `${table.targets.length} target(s) x ${table.protocols.length} protocol(s) x ${table.levels.length} level(s) x ${table.repetitions} repetition(s); figures are means over the counted runs, counts are summed`,
      '',
      // The mark, target, protocol, level and the verdict are text; the figures align right.
      ...alignColumns([header, ...rows], (i) => i < 4 || columns[i - 4]?.id === 'verdict'),
    ].join('\n') + '\n',
  ];
  const verdicts = caveatLines(plan, cells);
  if (verdicts.length > 0) parts.push(verdicts.join('\n') + '\n');
  const failures = cells.flatMap((c) => c.failures.map((message) => `  ${cellLabel(plan, c)}: ${message}`));
  if (failures.length > 0) parts.push(['Runs that failed:', ...failures].join('\n') + '\n');
  if (table.repetitions > 1) {
    const each = repetitionTable(table, outcomes);
    if (each.length > 0) parts.push(each.join('\n') + '\n');
  }
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

/**
 * Each cell's run in a layout (the plan's report format unless another is asked for) under
 * its place in the matrix, then the matrix, preceded by the comparison's status unless it
 * completed.
 */
export function formatComparisonReport(
  plan: ComparisonPlan,
  outcomes: readonly CellOutcome[],
  opts: { layout?: ReportLayout; status?: RunStatus } = {},
): string {
  const layout = opts.layout ?? planReport(plan).format;
  const runs = outcomes.map(
    (o, i) =>
      `== ${cellLabel(plan, o.coordinates)} ==\n${formatRunReport(o.result, layout, i, outcomes.length)}`,
  );
  const status = opts.status === undefined || opts.status === 'completed' ? '' : `Status: ${jobStatusText(opts.status, outcomes.map((o) => o.result))}\n`;
  return [...runs, status + formatComparisonMatrix(plan, outcomes)].join('\n');
}

/** Why a comparison did not start: each URL that failed the check, the reason and the fixes. */
export function formatPreflightFailures(
  failures: readonly PreflightFailure[],
  fixText: (fix: PreflightFix) => string = (f) => PREFLIGHT_FIX_LABELS[f],
): string {
  const lines = [
    `The comparison did not start: ${failures.length} URL(s) failed the check before any load.`,
    ...failures.flatMap((f) => [
      `  ${f.url} (${f.protocol === 'h2' ? 'HTTP/2' : 'HTTP/1.1'}; ${f.targets.join(', ')}): ${f.message}`,
      ...f.fixes.map((fix) => `    fix: ${fixText(fix)}`),
    ]),
  ];
  return lines.join('\n') + '\n';
}

/**
 * A comparison as the CLI prints it and its text files hold it: why it did not start (each
 * fix with its flag), or each run in a layout (the plan's own when null) and then the matrix.
 */
export function formatComparisonResult(c: ComparisonResult, layout: ReportLayout | null): string {
  const failures = c.preflightFailures ?? [];
  if (failures.length > 0) {
    return formatPreflightFailures(failures, (fix) => fixText(fix, 'comparison'));
  }
  return formatComparisonReport(c.plan, c.outcomes, {
    ...(layout === null ? {} : { layout }),
    ...(c.status === null ? {} : { status: c.status }),
  });
}
