/**
 * What `trebuchet run` and `trebuchet capacity` print and write once the job is over: the
 * report on stdout, and the files of the result's export bundle (shared/export/) where
 * --json, --csv, --html and --export say.
 */
import { mkdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { capacityReports, type CapacityResult, type SearchReport } from '../../shared/capacity/report.ts';
import { capacityExport, capacityJson } from '../../shared/export/capacity.ts';
import { formatCapacityReport } from '../../shared/format/capacity-text.ts';
import { formatComparisonResult } from '../../shared/format/comparison-text.ts';
import { formatRunsReport } from '../../shared/format/report.ts';
import type { ComparisonResult } from '../../shared/comparison/result.ts';
import { comparisonExport, comparisonJson } from '../../shared/export/comparison.ts';
import { itemFileName, type ExportBundle } from '../../shared/export/files.ts';
import { runExport, runJson } from '../../shared/export/run.ts';
import type { RunResult } from '../../shared/model/result.ts';
import { runVerdict } from '../../shared/verdict/verdict.ts';
import { countSecrets } from '../../shared/model/secret-headers.ts';
import { PRIVATE_FILE_MODE, SHARED_FILE_MODE, writeFileAtomic } from '../stores/files.ts';
import { EXIT } from './exit-codes.ts';
import type { OutputFiles, OutputOptions, ReportFormat } from './output-flags.ts';

export function renderReport(results: readonly RunResult[], format: ReportFormat): string {
  return format === 'json' ? runJson(results) : formatRunsReport(results, format);
}

/**
 * A comparison's report: each run in the chosen layout (the plan's own when none was asked
 * for) under its place in the matrix, then the matrix; or why it did not start.
 */
export function renderComparisonReport(outcome: ComparisonResult, format: ReportFormat | null): string {
  return format === 'json' ? comparisonJson(outcome) : formatComparisonResult(outcome, format);
}

/** A capacity job's report: its searches' steps and answers as text, or its JSON (other layouts print the same text). */
export function renderCapacityReport(c: CapacityResult, format: ReportFormat | null): string {
  const reports = capacityReports(c.plan, c.steps, null);
  return format === 'json' ? capacityJson(c, reports) : formatCapacityReport(reports);
}

/** `--csv out.csv` and a CSV file's suffix ("matrix.csv") -> out.matrix.csv */
const csvPath = (file: string, suffix: string): string => `${file.replace(/\.csv$/i, '')}.${suffix}`;

/**
 * Where each file of a bundle goes: the JSON to --json, the HTML to --html, every CSV next to
 * --csv's base name (out.csv -> out.summary.csv, out.timeseries.csv, ...), and with --export
 * every file, text reports included, into that folder under the name the app downloads it as.
 */
export function bundlePaths(
  bundle: ExportBundle,
  out: OutputFiles,
): { path: string; render: () => string }[] {
  const paths: { path: string; render: () => string }[] = [];
  for (const item of bundle.items) {
    // A file asked for twice (--json and --export) is made once.
    let made: string | null = null;
    const render = (): string => (made ??= item.render());
    const to = (path: string): number => paths.push({ path, render });
    if (item.suffix === 'json' && out.jsonFile) to(out.jsonFile);
    if (item.suffix === 'html' && out.htmlFile) to(out.htmlFile);
    if (item.suffix.endsWith('.csv') && out.csvFile) to(csvPath(out.csvFile, item.suffix));
    if (out.exportDir) to(join(out.exportDir, itemFileName(bundle, item)));
  }
  return paths;
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

/**
 * Writes the files of a result's bundle that the flags ask for (--export's folder made when
 * missing), owner-only when the result still holds a secret header value (--keep-secrets).
 */
export async function writeBundle(
  bundle: ExportBundle,
  out: OutputFiles,
  result: unknown,
): Promise<WrittenFiles> {
  const paths = bundlePaths(bundle, out);
  if (out.exportDir) {
    try {
      await mkdir(out.exportDir, { recursive: true });
    } catch (err) {
      return { written: [], failed: paths.map(({ path }) => ({ path, message: writeFailure(err) })) };
    }
  }
  return writeFiles(
    paths.map(({ path, render }) => [path, render()] as const),
    countSecrets(result) > 0,
  );
}

/** Writes a run's files, of results with secret values cleared unless kept (see withoutSecrets). */
export function writeOutputFiles(
  results: readonly RunResult[],
  output: OutputFiles & Pick<OutputOptions, 'format'>,
): Promise<WrittenFiles> {
  const htmlLayout = output.format === null || output.format === 'json' ? 'text' : output.format;
  const name = results[0]?.scenarioName ?? 'run';
  return writeBundle(runExport({ name, results, htmlLayout }), output, results);
}

/** Writes a comparison's files, of an outcome with secret values cleared unless kept (see withoutSecrets). */
export function writeComparisonFiles(outcome: ComparisonResult, output: OutputFiles): Promise<WrittenFiles> {
  return writeBundle(comparisonExport(outcome), output, outcome);
}

/** Writes a capacity job's files, of a result with secret values cleared unless kept (see withoutSecrets). */
export function writeCapacityFiles(c: CapacityResult, output: OutputFiles): Promise<WrittenFiles> {
  return writeBundle(capacityExport(c), output, c);
}

/**
 * 130 when interrupted; 1 when the engine broke down, a file could not be written, or a
 * target held no rate (none held, nothing measured, the client the limit from the start);
 * else 0, a lower bound ("at least") included.
 */
export function capacityExitCode(
  reports: readonly SearchReport[],
  opts: { interrupted: boolean; hostError: boolean; filesFailed: boolean; saveFailed?: boolean },
): number {
  if (opts.interrupted) return EXIT.interrupted;
  const unanswered = reports.some((r) => r.answer?.heldRate === null || r.answer === null);
  return opts.hostError || opts.filesFailed || opts.saveFailed === true || unanswered ? EXIT.failed : EXIT.ok;
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
