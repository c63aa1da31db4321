/** What `trebuchet run` prints and writes once the run or comparison is over. */
import { stat } from 'node:fs/promises';
import { labelResults } from '../../shared/format/labels.ts';
import {
  comparisonMatrixCsv,
  percentilesCsv,
  resourcesCsv,
  summaryCsv,
  timeSeriesCsv,
} from '../../shared/format/csv.ts';
import {
  formatComparisonReport,
  formatPreflightFailures,
  PREFLIGHT_FIX_FLAGS,
  runLabel,
} from '../../shared/format/comparison-text.ts';
import { comparisonHtmlReport, runHtmlReport } from '../../shared/format/html-report.ts';
import { formatRunReport } from '../../shared/format/report.ts';
import { stagesCsv } from '../../shared/format/stages.ts';
import { PREFLIGHT_FIX_LABELS } from '../../shared/model/preflight.ts';
import type { RunResult } from '../../shared/model/result.ts';
import { runVerdict } from '../../shared/verdict/verdict.ts';
import type { ComparisonOutcome } from '../jobs/comparison.ts';
import { PRIVATE_FILE_MODE, SHARED_FILE_MODE, writeFileAtomic } from '../stores/files.ts';
import { countSecrets } from '../../shared/model/secret-headers.ts';
import type { OutputOptions, ReportFormat } from './output-flags.ts';

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

/** `--csv out.csv` and a part name -> out.<part>.csv */
const csvPath = (file: string, part: string): string => `${file.replace(/\.csv$/i, '')}.${part}.csv`;

/** `--csv out.csv` -> out.summary.csv, out.timeseries.csv, out.percentiles.csv (and out.resources.csv, out.stages.csv). */
export function csvPaths(file: string): {
  summary: string;
  timeseries: string;
  percentiles: string;
  resources: string;
  stages: string;
} {
  return {
    summary: csvPath(file, 'summary'),
    timeseries: csvPath(file, 'timeseries'),
    percentiles: csvPath(file, 'percentiles'),
    resources: csvPath(file, 'resources'),
    stages: csvPath(file, 'stages'),
  };
}

/** `--csv out.csv` for a comparison -> out.matrix.csv (one row per cell) and out.summary.csv (one per run). */
export function comparisonCsvPaths(file: string): { matrix: string; summary: string } {
  return { matrix: csvPath(file, 'matrix'), summary: csvPath(file, 'summary') };
}

/** Why an output file could not be written, in words (the temporary file's name says nothing). */
function writeFailure(err: unknown): string {
  switch ((err as NodeJS.ErrnoException).code) {
    case 'ENOSPC':
      return 'the disk is full';
    case 'EDQUOT':
      return 'the disk quota is used up';
    case 'ENOENT':
      return 'its folder does not exist (any more)';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EROFS':
      return 'the file system is read-only';
    default:
      return err instanceof Error ? err.message : String(err);
  }
}

/** What writing the output files did: the paths written, and for each failed one why. */
export interface WrittenFiles {
  written: string[];
  failed: { path: string; message: string }[];
}

/**
 * Writes each [path, content] atomically (a failed write, a full disk, leaves no half file
 * and never a previous one truncated), owner-only when it holds a secret value, and goes on
 * with the others when one fails.
 */
export async function writeFiles(
  files: readonly (readonly [string, string])[],
  holdsSecrets: boolean,
): Promise<WrittenFiles> {
  const out: WrittenFiles = { written: [], failed: [] };
  const mode = holdsSecrets ? PRIVATE_FILE_MODE : SHARED_FILE_MODE;
  for (const [path, content] of files) {
    try {
      // The write renames a new file into place: never over a device or a pipe (/dev/full).
      const existing = await stat(path).catch(() => null);
      if (existing && !existing.isFile()) throw new Error('it is not a regular file; give a file name');
      await writeFileAtomic(path, content, mode);
      out.written.push(path);
    } catch (err) {
      out.failed.push({ path, message: writeFailure(err) });
    }
  }
  return out;
}

/** Writes the --json, --csv and --html files of results with secret values cleared (see withoutSecrets). */
export function writeOutputFiles(
  results: readonly RunResult[],
  output: OutputOptions,
): Promise<WrittenFiles> {
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
    // Only when a server was sampled: a run with the monitor off writes what it always did.
    if (results.some((r) => r.serverResources && r.serverResources.samples.length > 0)) {
      files.push([paths.resources, resourcesCsv(labelled)]);
    }
    if (results.some((r) => r.stages)) files.push([paths.stages, stagesCsv(labelled)]);
  }
  return writeFiles(files, countSecrets(results) > 0);
}

/** Writes a comparison's --json, --csv and --html files, of an outcome with secret values cleared (see withoutSecrets). */
export function writeComparisonFiles(
  outcome: ComparisonOutcome,
  output: OutputOptions,
): Promise<WrittenFiles> {
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
  return writeFiles(files, countSecrets(outcome) > 0);
}

/**
 * 130 when interrupted; 1 when the host broke down, nothing ran, a target could not run or
 * got no response at all, a threshold failed, an output file or the history save could not
 * be written, or (failUnlessClean, --fail-unless-clean) a verdict is not clean; else 0.
 */
export function exitCodeFor(
  results: readonly RunResult[],
  opts: {
    interrupted: boolean;
    hostError: boolean;
    filesFailed?: boolean;
    saveFailed?: boolean;
    failUnlessClean?: boolean;
  },
): number {
  if (opts.interrupted) return EXIT.interrupted;
  const failed =
    opts.hostError ||
    opts.filesFailed === true ||
    opts.saveFailed === true ||
    results.length === 0 ||
    results.some(
      (r) => r.status === 'failed' || r.requests.responses === 0 || r.thresholds.some((t) => !t.passed),
    ) ||
    (opts.failUnlessClean === true && results.some((r) => !runVerdict(r).clean));
  return failed ? EXIT.failed : EXIT.ok;
}
