/**
 * A run's export bundle: the results as JSON, the summary, time-series and percentile CSVs
 * (server resources when a server was watched, the machine's readings, stages when the load was staged, URLs when a
 * target held a list), the HTML
 * report, and the run in every text layout (ours, ab, vegeta, http_load, JMeter). Pure.
 */
import type { ReportLayout } from '../comparison/report-settings.ts';
import { percentilesCsv, resourcesCsv, summaryCsv, timeSeriesCsv } from '../format/csv.ts';
import { runHtmlReport } from '../format/html-report.ts';
import { machineCsv } from '../format/machine/machine-csv.ts';
import { labelResults, type LabelledResult } from '../format/labels.ts';
import { formatRunsReport } from '../format/report.ts';
import { stagesCsv } from '../format/stages.ts';
import { urlsCsv } from '../format/urls.ts';
import { fileSlug } from '../model/file-name.ts';
import type { RunResult } from '../model/result.ts';
import { withVerdictRecord } from '../verdict/verdict.ts';
import {
  csvItem,
  htmlItem,
  jsonItem,
  jsonText,
  textItems,
  type ExportBundle,
  type ExportItem,
} from './files.ts';

/** A run as its files are made of it. */
export interface RunExportInput {
  /** The run's (scenario's) name: the files' base name and the HTML report's title. */
  name: string;
  /** One per target, in target order, secret header values already cleared (see withoutSecrets). */
  results: readonly RunResult[];
  /** The layout of the text the HTML report carries for each run (ours by default). */
  htmlLayout?: ReportLayout;
}

/** The JSON file of a run: its one result as an object, several as an array; each with its verdict. */
export function runJson(results: readonly RunResult[]): string {
  const withVerdicts = results.map(withVerdictRecord);
  return jsonText(withVerdicts.length === 1 ? withVerdicts[0] : withVerdicts);
}

/**
 * The CSV files of a set of labelled runs: one row per run (summary), per sample (time
 * series), per server reading (only when a server was watched), per stage (only when a
 * load was staged) and per URL (only when a target held a list); the percentile table when asked. A comparison's and a capacity search's
 * runs get the same files.
 */
export function resultCsvItems(labelled: readonly LabelledResult[], percentiles: boolean): ExportItem[] {
  const results = labelled.map((l) => l.result);
  return [
    csvItem('summary', 'Summary CSV', () => summaryCsv(labelled)),
    csvItem('timeseries', 'Time series CSV', () => timeSeriesCsv(labelled)),
    ...(percentiles ? [csvItem('percentiles', 'Percentiles CSV', () => percentilesCsv(labelled))] : []),
    ...(results.some((r) => (r.serverResources?.samples.length ?? 0) > 0)
      ? [csvItem('resources', 'Server resources CSV', () => resourcesCsv(labelled))]
      : []),
    ...(results.some((r) => (r.machine?.samples.length ?? 0) > 0)
      ? [csvItem('machine', 'Machine CSV', () => machineCsv(labelled))]
      : []),
    ...(results.some((r) => r.stages) ? [csvItem('stages', 'Stages CSV', () => stagesCsv(labelled))] : []),
    ...(results.some((r) => r.urls) ? [csvItem('urls', 'URLs CSV', () => urlsCsv(labelled))] : []),
  ];
}

export function runExport(input: RunExportInput): ExportBundle {
  const { results } = input;
  const labelled = labelResults(results);
  return {
    base: fileSlug(input.name, 'run'),
    items: [
      jsonItem(() => runJson(results)),
      ...resultCsvItems(labelled, true),
      htmlItem(() => runHtmlReport(results, { title: input.name, layout: input.htmlLayout ?? 'text' })),
      ...textItems((layout) => formatRunsReport(results, layout)),
    ],
  };
}
