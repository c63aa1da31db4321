/** What `trebuchet run` prints and writes once the run or comparison is over. */
import { writeFileSync } from 'node:fs';
import type { LabelledResult } from '../../shared/format/csv.ts';
import { comparisonMatrixCsv, percentilesCsv, summaryCsv, timeSeriesCsv } from '../../shared/format/csv.ts';
import {
  formatComparisonReport,
  formatPreflightFailures,
  PREFLIGHT_FIX_FLAGS,
  runLabel,
} from '../../shared/format/comparison-text.ts';
import { comparisonHtmlReport, runHtmlReport } from '../../shared/format/html-report.ts';
import { formatRunReport } from '../../shared/format/report.ts';
import { PREFLIGHT_FIX_LABELS } from '../../shared/preflight.ts';
import type { RunResult } from '../../shared/result.ts';
import { targetLabel } from '../../shared/scenario.ts';
import type { ComparisonOutcome } from '../services/comparison-runner.ts';
import type { OutputOptions, ReportFormat } from './args.ts';

export const EXIT = { ok: 0, failed: 1, badInput: 2, interrupted: 130 } as const;

/** One target's result as an object; several as an array (what --json and --format json hold). */
export function resultsJson(results: readonly RunResult[]): string {
  return JSON.stringify(results.length === 1 ? results[0] : results, null, 2) + '\n';
}

export function renderReport(results: readonly RunResult[], format: ReportFormat): string {
  if (format === 'json') return resultsJson(results);
  const separator = format === 'text' ? `\n${'-'.repeat(78)}\n\n` : '\n';
  return results.map((r, i) => formatRunReport(r, format, i, results.length)).join(separator);
}

/** What --format json and --json hold for a comparison. */
function comparisonJson(outcome: ComparisonOutcome): string {
  const { plan, status, table, outcomes, preflightFailures } = outcome;
  return JSON.stringify({ plan, status, table, outcomes, preflightFailures }, null, 2) + '\n';
}

/**
 * A comparison's report: each run in the chosen layout (the plan's own when none was asked
 * for) under its place in the matrix, then the matrix; or why it did not start.
 */
export function renderComparisonReport(outcome: ComparisonOutcome, format: ReportFormat | null): string {
  if (format === 'json') return comparisonJson(outcome);
  if (outcome.preflightFailures.length > 0) {
    return formatPreflightFailures(
      outcome.preflightFailures,
      (fix) => `${PREFLIGHT_FIX_LABELS[fix]} (${PREFLIGHT_FIX_FLAGS[fix]})`,
    );
  }
  return formatComparisonReport(outcome.plan, outcome.outcomes, {
    ...(format === null ? {} : { layout: format }),
    status: outcome.status,
  });
}

/** Target labels for CSV columns; repeated labels get a #n suffix so columns stay distinct. */
export function labelResults(results: readonly RunResult[]): LabelledResult[] {
  const seen = new Map<string, number>();
  return results.map((result) => {
    const base = targetLabel(result.target);
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    return { label: n === 1 ? base : `${base} #${n}`, result };
  });
}

/** `--csv out.csv` and a part name -> out.<part>.csv */
const csvPath = (file: string, part: string): string => `${file.replace(/\.csv$/i, '')}.${part}.csv`;

/** `--csv out.csv` -> out.summary.csv, out.timeseries.csv, out.percentiles.csv. */
export function csvPaths(file: string): { summary: string; timeseries: string; percentiles: string } {
  return {
    summary: csvPath(file, 'summary'),
    timeseries: csvPath(file, 'timeseries'),
    percentiles: csvPath(file, 'percentiles'),
  };
}

/** `--csv out.csv` for a comparison -> out.matrix.csv (one row per cell) and out.summary.csv (one per run). */
export function comparisonCsvPaths(file: string): { matrix: string; summary: string } {
  return { matrix: csvPath(file, 'matrix'), summary: csvPath(file, 'summary') };
}

/** Writes each [path, content]; returns the paths written. */
function writeFiles(files: readonly (readonly [string, string])[]): string[] {
  for (const [path, content] of files) writeFileSync(path, content);
  return files.map(([path]) => path);
}

/** Writes the --json, --csv and --html files; returns the paths written. */
export function writeOutputFiles(results: readonly RunResult[], output: OutputOptions): string[] {
  const files: [string, string][] = [];
  if (output.jsonFile) files.push([output.jsonFile, resultsJson(results)]);
  if (output.htmlFile) {
    const layout = output.format === null || output.format === 'json' ? 'text' : output.format;
    files.push([output.htmlFile, runHtmlReport(results, { layout })]);
  }
  if (output.csvFile) {
    const labelled = labelResults(results);
    const paths = csvPaths(output.csvFile);
    files.push(
      [paths.summary, summaryCsv(labelled)],
      [paths.timeseries, timeSeriesCsv(labelled)],
      [paths.percentiles, percentilesCsv(labelled)],
    );
  }
  return writeFiles(files);
}

/** Writes a comparison's --json, --csv and --html files; returns the paths written. */
export function writeComparisonFiles(outcome: ComparisonOutcome, output: OutputOptions): string[] {
  const files: [string, string][] = [];
  if (output.jsonFile) files.push([output.jsonFile, comparisonJson(outcome)]);
  if (output.htmlFile) files.push([output.htmlFile, comparisonHtmlReport(outcome)]);
  if (output.csvFile) {
    const paths = comparisonCsvPaths(output.csvFile);
    const labelled = outcome.outcomes.map((o) => ({
      label: runLabel(outcome.plan, o.coordinates),
      result: o.result,
    }));
    files.push(
      [paths.matrix, comparisonMatrixCsv(outcome.table, outcome.outcomes)],
      [paths.summary, summaryCsv(labelled)],
    );
  }
  return writeFiles(files);
}

/**
 * 130 when interrupted; 1 when the host broke down, nothing ran, a target could not run or
 * a threshold failed; else 0.
 */
export function exitCodeFor(
  results: readonly RunResult[],
  opts: { interrupted: boolean; hostError: boolean },
): number {
  if (opts.interrupted) return EXIT.interrupted;
  const failed =
    opts.hostError ||
    results.length === 0 ||
    results.some((r) => r.status === 'failed' || r.thresholds.some((t) => !t.passed));
  return failed ? EXIT.failed : EXIT.ok;
}
