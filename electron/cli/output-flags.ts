/**
 * What `trebuchet run` writes and keeps: --format, the output files (checked before the run,
 * so a long run does not end in a write error), --quiet, --keep-secrets, --save.
 */
import { dirname, resolve } from 'node:path';
import type { FileIo } from './files.ts';
import type { Values } from './run/flags.ts';
import { CliInputError, parseDataDir } from './values.ts';

const REPORT_FORMATS = ['text', 'ab', 'vegeta', 'http_load', 'jmeter', 'json'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/** Where the files of the export bundle (shared/export/) go; see bundlePaths. */
export interface OutputFiles {
  /** Write the result(s) as JSON here. */
  jsonFile: string | null;
  /** Base path of the CSV files: out.csv -> out.summary.csv, out.matrix.csv, ... */
  csvFile: string | null;
  /** Write the self-contained HTML report here. */
  htmlFile: string | null;
  /** Write every file of the bundle into this folder, named as the app's downloads are. */
  exportDir: string | null;
}

export interface OutputOptions extends OutputFiles {
  /** `--json -`: one JSON line per tick on stdout, then the result's line (shared/shards/stream.ts); no report there. */
  jsonStream: boolean;
  /** --format; null when not given (a run prints text, a comparison its plan's layout). */
  format: ReportFormat | null;
  /** No progress lines on stderr. */
  quiet: boolean;
  /** Keep secret header values in the report and the files (--keep-secrets); cleared by default. */
  keepSecrets: boolean;
  /** Exit 1 unless every verdict is clean (--fail-unless-clean, for CI). */
  failUnlessClean: boolean;
}

/** Where `--save` keeps runs: the data directory of `trebuchet serve --data-dir` (the stores' default when undefined). */
export interface HistoryOptions {
  save: boolean;
  dataDir: string | undefined;
}

/** An output file path whose folder exists, so a long run does not end in a write error. */
export function outputFile(flag: string, path: string | undefined, io: FileIo): string | null {
  if (path === undefined) return null;
  const abs = resolve(io.cwd, path);
  if (!io.isDirectory(dirname(abs))) throw new CliInputError(flag, `folder does not exist: ${dirname(abs)}`);
  if (io.isDirectory(abs)) throw new CliInputError(flag, `${abs} is a folder; give a file name`);
  return abs;
}

/**
 * A folder for --export: an existing folder, or a new one in an existing folder (made when
 * the files are written), so a long run does not end in a write error.
 */
export function outputDir(flag: string, path: string | undefined, io: FileIo): string | null {
  if (path === undefined) return null;
  const abs = resolve(io.cwd, path);
  if (io.exists(abs) && !io.isDirectory(abs))
    throw new CliInputError(flag, `${abs} is not a folder; give a folder`);
  if (!io.isDirectory(abs) && !io.isDirectory(dirname(abs))) {
    throw new CliInputError(flag, `folder does not exist: ${dirname(abs)}`);
  }
  return abs;
}

/** --json, --csv, --html and --export, checked. */
export function filesFromFlags(
  v: { json?: string; csv?: string; html?: string; export?: string },
  io: FileIo,
): OutputFiles {
  return {
    jsonFile: outputFile('--json', v.json, io),
    csvFile: outputFile('--csv', v.csv, io),
    htmlFile: outputFile('--html', v.html, io),
    exportDir: outputDir('--export', v.export, io),
  };
}

/** --format's layout; null when not given. */
export function parseReportFormat(format: string | undefined): ReportFormat | null {
  if (format === undefined) return null;
  if (!(REPORT_FORMATS as readonly string[]).includes(format)) {
    throw new CliInputError('--format', `"${format}" is not one of ${REPORT_FORMATS.join(', ')}`);
  }
  return format as ReportFormat;
}

export function outputFromFlags(v: Values, io: FileIo): OutputOptions {
  // '--json -': a JSON line per tick and the result on stdout, no file.
  const jsonStream = v.json === '-';
  return {
    format: parseReportFormat(v.format),
    ...filesFromFlags({ ...v, json: jsonStream ? undefined : v.json }, io),
    jsonStream,
    quiet: v.quiet === true,
    keepSecrets: v['keep-secrets'] === true,
    failUnlessClean: v['fail-unless-clean'] === true,
  };
}

export function historyFromFlags(v: Values, io: FileIo): HistoryOptions {
  return { save: v.save === true, dataDir: parseDataDir(v['data-dir'], io.cwd) };
}
