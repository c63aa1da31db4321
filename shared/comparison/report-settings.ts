/**
 * How a comparison reports: the layout each cell's run is printed in (the tool the seed
 * article used) and the matrix columns shown on screen, in the text export and the HTML
 * report. Stored in the plan (presets, history); a plan without one gets planReport()'s
 * default, the only place a default is chosen.
 */
import { z } from 'zod';
import { DEFAULTS } from '../model/defaults.ts';

/** A run's text layout: ours (vegeta's and ab's rows together) or one tool's. */
export const REPORT_LAYOUTS = ['text', 'ab', 'vegeta', 'jmeter', 'http_load'] as const;
export const reportLayoutSchema = z.enum(REPORT_LAYOUTS);
export type ReportLayout = z.infer<typeof reportLayoutSchema>;

/** Whose layout a text is in, as a button, a title or a file's label names it. */
export const LAYOUT_NAMES: Record<ReportLayout, string> = {
  text: 'Trebuchet',
  ab: 'ab',
  vegeta: 'vegeta',
  jmeter: 'JMeter',
  http_load: 'http_load',
};

/** The matrix's columns; their labels, values and formats are in shared/comparison/columns.ts. */
export const MATRIX_COLUMN_IDS = [
  'runs',
  'rps',
  'rpsStdev',
  'rpsMin',
  'rpsMax',
  'requests',
  'timeTaken',
  'timePerRequest',
  'timePerRequestAcross',
  'latencyMean',
  'p50',
  'p95',
  'p99',
  'latencyMax',
  'connectMean',
  'processingMean',
  'waitingMean',
  'failed',
  'success',
  'errorRate',
  'errors',
  'non2xx',
  'sloFailures',
  'late',
  'dropped',
  'workers',
  'serverCpuMean',
  'serverCpuMax',
  'serverCpuPer10k',
  'serverRssMax',
  'serverMemoryMax',
  'serverLoadMax',
  'verdict',
] as const;
export const matrixColumnIdSchema = z.enum(MATRIX_COLUMN_IDS);
export type MatrixColumnId = z.infer<typeof matrixColumnIdSchema>;

export const comparisonReportSchema = z.strictObject({
  format: reportLayoutSchema,
  columns: z
    .array(matrixColumnIdSchema)
    .min(1, 'pick at least one column')
    .refine((ids) => new Set(ids).size === ids.length, 'a column is listed twice'),
});
export type ComparisonReportSettings = z.infer<typeof comparisonReportSchema>;

const DEFAULT_COLUMNS = DEFAULTS.comparison.columns satisfies readonly MatrixColumnId[];

/**
 * The plan's report settings, or the default for its load: JMeter's layout when an SLO makes
 * slow responses errors (seed 003), vegeta's for the open model (seed 000), ab's otherwise.
 */
export function planReport(plan: {
  report?: ComparisonReportSettings | undefined;
  load: { model: 'open' | 'closed' };
  options: { sloMs: number | null };
}): ComparisonReportSettings {
  if (plan.report) return plan.report;
  const format: ReportLayout =
    plan.options.sloMs !== null ? 'jmeter' : plan.load.model === 'open' ? 'vegeta' : 'ab';
  return { format, columns: [...DEFAULT_COLUMNS] };
}
