import type { CellOutcome } from '../../../shared/comparison/cells.ts';
import type { ComparisonPlan } from '../../../shared/comparison/plan.ts';
import { formatAbReport } from '../../../shared/format/ab.ts';
import { resourcesCsv } from '../../../shared/format/csv.ts';
import { labelResults, type LabelledResult } from '../../../shared/format/labels.ts';
import { formatHttpLoadReport } from '../../../shared/format/http-load.ts';
import { formatJmeterReport } from '../../../shared/format/jmeter.ts';
import { formatVegetaReport } from '../../../shared/format/vegeta.ts';
import type { RunResult } from '../../../shared/model/result.ts';
import { withoutSecrets } from '../../../shared/model/secret-headers.ts';
import { cellLabel } from '../Compare/matrixView.ts';
import { MIME } from './download.ts';
import { downloadAction, type ExportAction } from './ExportBar.tsx';

/** A comparison's cell runs, named "nginx · https · c=100 · #2" (protocol only when several). */
export function labelOutcomes(plan: ComparisonPlan, outcomes: readonly CellOutcome[]): LabelledResult[] {
  return outcomes.map((o) => ({ label: cellLabel(plan, o.coordinates), result: o.result }));
}

/** The Server resources CSV (every reading of target.monitor), offered when a result has readings. */
export function resourcesCsvActions(labelled: readonly LabelledResult[], base: string): ExportAction[] {
  if (!labelled.some(({ result }) => (result.serverResources?.samples.length ?? 0) > 0)) return [];
  return [
    downloadAction('Server resources CSV', 'export-resources-csv', `${base}.resources.csv`, MIME.csv, () =>
      resourcesCsv(labelled),
    ),
  ];
}

/**
 * The full result as JSON: what history keeps, readable by other tools, secret header values
 * (Authorization, Cookie, API keys) cleared: a file leaves the app.
 */
export function resultJson(value: unknown): string {
  return `${JSON.stringify(withoutSecrets(value), null, 2)}\n`;
}

/** A text report layout: the button that opens it, the dialog's title, the formatter. */
export interface TextReport {
  id: string;
  button: string;
  title: string;
  format: (r: RunResult) => string;
}

/** The text reports a run can be copied as, in the layouts of the tools the seeds use. */
export const TEXT_REPORTS: readonly TextReport[] = [
  { id: 'ab', button: 'ab', title: "ab's report", format: formatAbReport },
  { id: 'vegeta', button: 'vegeta', title: "vegeta's report", format: formatVegetaReport },
  { id: 'http-load', button: 'http_load', title: "http_load's report", format: formatHttpLoadReport },
  {
    id: 'jmeter',
    button: 'JMeter',
    title: "JMeter's aggregate and summary reports",
    format: formatJmeterReport,
  },
];

/** A run's text report in one layout, every target one after another under its label. */
export function textReport(results: readonly RunResult[], report: TextReport): string {
  const labelled = labelResults(results);
  return labelled
    .map(({ label, result }) => {
      const body = report.format(result);
      return labelled.length > 1 ? `# ${label}\n\n${body}` : body;
    })
    .join('\n');
}
