/**
 * A capacity job's export bundle: the plan, every step's run and each answer as JSON; the
 * steps and the answers as CSV, with every step's run summary and time series (server
 * resources and stages when there are any) and their percentiles; the HTML report; the
 * searches as text (steps and answers) and every step's run in each tool's layout. Pure.
 */
import { withVerdictRecord } from '../verdict/verdict.ts';
import { capacityReports, stepLabel, type CapacityResult, type SearchReport } from '../capacity/report.ts';
import { capacityAnswersCsv, capacityStepsCsv } from '../format/capacity-csv.ts';
import { formatCapacityReport } from '../format/capacity-text.ts';
import { capacityHtmlReport } from '../format/html-report.ts';
import type { LabelledResult } from '../format/labels.ts';
import { formatRunReport } from '../format/report.ts';
import { fileSlug } from '../model/file-name.ts';
import { csvItem, htmlItem, jsonItem, jsonText, textItems, type ExportBundle } from './files.ts';
import { resultCsvItems } from './run.ts';

/** What the JSON file of a capacity job holds: the plan, how it ended, each target's answer, every step's run. */
export function capacityJson(c: CapacityResult, reports: readonly SearchReport[]): string {
  const answers = reports.map((r) => ({ target: r.label, answer: r.answer }));
  const steps = c.steps.map((s) => ({ ...s, result: withVerdictRecord(s.result) }));
  return jsonText({ kind: 'capacity', plan: c.plan, status: c.status, answers, steps });
}

/** Every step's run under its name ("nginx · step 3 · 400 req/s"), search by search. */
function labelledSteps(reports: readonly SearchReport[]): LabelledResult[] {
  return reports.flatMap((r) =>
    r.steps.map((s, k) => ({ label: stepLabel(r.label, k, s.rate), result: s.result })),
  );
}

/**
 * The bundle of a capacity job. running: the search still measuring (its answer is not
 * given yet), null once the job ended.
 */
export function capacityExport(c: CapacityResult, opts: { running?: number | null } = {}): ExportBundle {
  const reports = capacityReports(c.plan, c.steps, opts.running ?? null);
  const labelled = labelledSteps(reports);
  return {
    base: fileSlug(c.plan.name, 'capacity'),
    items: [
      jsonItem(() => capacityJson(c, reports)),
      csvItem('steps', 'Steps CSV', () => capacityStepsCsv(reports)),
      csvItem('answers', 'Answers CSV', () => capacityAnswersCsv(reports)),
      ...resultCsvItems(labelled, true),
      htmlItem(() => capacityHtmlReport(c, reports)),
      // Ours is the searches' report; a tool's layout prints each step's run under its name.
      ...textItems((layout) =>
        layout === 'text'
          ? formatCapacityReport(reports)
          : labelled
              .map(({ label, result }) => `== ${label} ==\n${formatRunReport(result, layout)}`)
              .join('\n'),
      ),
    ],
  };
}
