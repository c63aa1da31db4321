/**
 * A comparison's export bundle: the whole comparison as JSON; the matrix (one row per cell),
 * every run's summary and time series (server resources and stages when there are any) and a
 * percentile table per protocol and level as CSV; the HTML report; each run in every text
 * layout followed by the matrix. Pure.
 */
import { withVerdictRecord } from '../verdict/verdict.ts';
import { cellAt, aggregateComparison, comparisonPercentileTable } from '../comparison/table.ts';
import { cellLabel, levelLabel, type ComparisonPlan } from '../comparison/plan.ts';
import { planReport, type MatrixColumnId } from '../comparison/report-settings.ts';
import type { ComparisonResult } from '../comparison/result.ts';
import { comparisonMatrixCsv, percentileTableCsv } from '../format/csv.ts';
import { formatComparisonResult } from '../format/comparison-text.ts';
import { comparisonHtmlReport } from '../format/html-report.ts';
import { fileSlug } from '../model/file-name.ts';
import {
  csvItem,
  htmlItem,
  jsonItem,
  jsonText,
  textItems,
  type ExportBundle,
  type ExportItem,
} from './files.ts';
import { resultCsvItems } from './run.ts';

/** What the JSON file of a comparison holds: the plan, how it ended, the matrix, every run, and the URLs that failed the check. */
export function comparisonJson(c: ComparisonResult): string {
  const { plan, status, outcomes } = c;
  const table = aggregateComparison(plan, outcomes);
  return jsonText({
    kind: 'comparison',
    plan,
    status,
    table,
    outcomes: outcomes.map((o) => ({ ...o, result: withVerdictRecord(o.result) })),
    preflightFailures: c.preflightFailures ?? [],
  });
}

/** The plan with the matrix's columns a view shows (the text and HTML follow the screen). */
function withColumns(plan: ComparisonPlan, columns: readonly MatrixColumnId[] | undefined): ComparisonPlan {
  return columns ? { ...plan, report: { ...planReport(plan), columns: [...columns] } } : plan;
}

/** A percentile table CSV per protocol and level with a measured cell: "percentiles-http-c-10.csv". */
function percentileItems(c: ComparisonResult): ExportItem[] {
  const table = aggregateComparison(c.plan, c.outcomes);
  const levels = [...table.levels].sort((a, b) => a - b);
  return table.protocols.flatMap((protocol) =>
    levels.flatMap((level) => {
      const measured = table.targets.some(
        (_, targetIndex) => (cellAt(table, { targetIndex, protocol, level })?.runs ?? 0) > 0,
      );
      if (!measured) return [];
      const at = `${protocol} · ${levelLabel(table.levelKind, level)}`;
      return [
        csvItem(`percentiles-${fileSlug(at)}`, `Percentiles CSV, ${at}`, () =>
          percentileTableCsv(comparisonPercentileTable(table, { protocol, level })),
        ),
      ];
    }),
  );
}

/**
 * The bundle of a comparison. columns: the matrix's columns on screen, for the text reports
 * and the HTML (the plan's own by default); the JSON keeps the plan as it ran.
 */
export function comparisonExport(
  c: ComparisonResult,
  opts: { columns?: readonly MatrixColumnId[] } = {},
): ExportBundle {
  const shown = { ...c, plan: withColumns(c.plan, opts.columns) };
  const labelled = c.outcomes.map((o) => ({ label: cellLabel(c.plan, o.coordinates), result: o.result }));
  return {
    base: fileSlug(c.plan.name, 'comparison'),
    items: [
      jsonItem(() => comparisonJson(c)),
      csvItem('matrix', 'Matrix CSV', () =>
        comparisonMatrixCsv(aggregateComparison(c.plan, c.outcomes), c.outcomes),
      ),
      ...resultCsvItems(labelled, false),
      ...percentileItems(c),
      htmlItem(() =>
        comparisonHtmlReport({
          plan: shown.plan,
          outcomes: c.outcomes,
          status: c.status,
          preflightFailures: c.preflightFailures ?? [],
        }),
      ),
      ...textItems((layout) => formatComparisonResult(shown, layout)),
    ],
  };
}
