/** What `trebuchet run` prints and writes once the run is over. */
import { writeFileSync } from 'node:fs';
import type { LabelledResult } from '../../shared/format/csv.ts';
import { percentilesCsv, summaryCsv, timeSeriesCsv } from '../../shared/format/csv.ts';
import { formatAbReport } from '../../shared/format/ab.ts';
import { formatTextReport } from '../../shared/format/report.ts';
import { formatVegetaReport } from '../../shared/format/vegeta.ts';
import type { RunResult } from '../../shared/result.ts';
import { targetLabel } from '../../shared/scenario.ts';
import type { OutputOptions, ReportFormat } from './args.ts';

export const EXIT = { ok: 0, failed: 1, badInput: 2, interrupted: 130 } as const;

/** One target's result as an object; several as an array (what --json and --format json hold). */
export function resultsJson(results: readonly RunResult[]): string {
  return JSON.stringify(results.length === 1 ? results[0] : results, null, 2) + '\n';
}

export function renderReport(results: readonly RunResult[], format: ReportFormat): string {
  if (format === 'json') return resultsJson(results);
  const one = (r: RunResult, i: number): string => {
    if (format === 'ab') return formatAbReport(r);
    if (format === 'vegeta') return formatVegetaReport(r);
    return formatTextReport(r, i, results.length);
  };
  const separator = format === 'text' ? `\n${'-'.repeat(78)}\n\n` : '\n';
  return results.map(one).join(separator);
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

/** `--csv out.csv` -> out.summary.csv, out.timeseries.csv, out.percentiles.csv. */
export function csvPaths(file: string): { summary: string; timeseries: string; percentiles: string } {
  const base = file.replace(/\.csv$/i, '');
  return {
    summary: `${base}.summary.csv`,
    timeseries: `${base}.timeseries.csv`,
    percentiles: `${base}.percentiles.csv`,
  };
}

/** Writes the --json and --csv files; returns the paths written. */
export function writeOutputFiles(results: readonly RunResult[], output: OutputOptions): string[] {
  const written: string[] = [];
  if (output.jsonFile) {
    writeFileSync(output.jsonFile, resultsJson(results));
    written.push(output.jsonFile);
  }
  if (output.csvFile) {
    const labelled = labelResults(results);
    const paths = csvPaths(output.csvFile);
    writeFileSync(paths.summary, summaryCsv(labelled));
    writeFileSync(paths.timeseries, timeSeriesCsv(labelled));
    writeFileSync(paths.percentiles, percentilesCsv(labelled));
    written.push(paths.summary, paths.timeseries, paths.percentiles);
  }
  return written;
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
