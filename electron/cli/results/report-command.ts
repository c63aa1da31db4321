/**
 * `trebuchet report RESULT.json...`: a saved result (a run's JSON, a comparison's, a
 * capacity search's, a history file) printed and written again exactly as its command did
 * when it ran, through the same renderers and export bundles, with the same exit code.
 * Several run files are one report of all their targets, in the order given.
 */
import { capacityReports } from '../../../shared/capacity/report.ts';
import { withoutSecrets } from '../../../shared/model/secret-headers.ts';
import { recordKind, type SavedResult } from '../../../shared/records/kinds.ts';
import type { RunResult } from '../../../shared/model/result.ts';
import { nodeFileIo } from '../files.ts';
import { REPORT_HELP } from '../help.ts';
import { filesFromFlags, parseReportFormat, type OutputOptions } from '../output-flags.ts';
import { EXIT } from '../exit-codes.ts';
import {
  capacityExitCode,
  exitCodeFor,
  renderCapacityReport,
  renderComparisonReport,
  renderReport,
  writeCapacityFiles,
  writeComparisonFiles,
  writeOutputFiles,
  type WrittenFiles,
} from '../report.ts';
import { readResultFile } from './result-files.ts';
import { CliInputError } from '../values.ts';
import { parseFlags } from '../input/flags.ts';

export interface ReportContext {
  argv: readonly string[];
  cwd: string;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

type ReportOptions = Omit<OutputOptions, 'quiet' | 'jsonStream'>;

function parseReportArgs(
  argv: readonly string[],
  cwd: string,
): { files: string[]; output: ReportOptions } | null {
  const parsed = parseFlags({
    args: [...argv],
    options: {
      format: { type: 'string' },
      json: { type: 'string' },
      csv: { type: 'string' },
      html: { type: 'string' },
      export: { type: 'string' },
      'keep-secrets': { type: 'boolean' },
      'fail-unless-clean': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    allowPositionals: true,
  });
  const v = parsed.values;
  if (v.help === true) return null;
  if (parsed.positionals.length === 0)
    throw new CliInputError('RESULT.json', 'give at least one saved result file');
  return {
    files: parsed.positionals,
    output: {
      format: parseReportFormat(v.format),
      ...filesFromFlags(v, nodeFileIo(cwd)),
      keepSecrets: v['keep-secrets'] === true,
      failUnlessClean: v['fail-unless-clean'] === true,
    },
  };
}

/** The files as one result: several runs are one run of all their targets; any other kind stands alone. */
function oneResult(files: readonly string[], saved: readonly SavedResult[]): SavedResult {
  if (saved.length === 1) return saved[0]!;
  const other = saved.findIndex((s) => s.kind !== 'run');
  if (other >= 0) {
    throw new CliInputError(
      files[other]!,
      `is ${recordKind(saved[other]!.kind).noun}; only runs are reported together (give it alone)`,
    );
  }
  return { kind: 'run', results: saved.flatMap((s) => (s.kind === 'run' ? s.results : [])) };
}

function reportFiles(ctx: ReportContext, files: WrittenFiles): boolean {
  for (const path of files.written) ctx.stderr.write(`wrote ${path}\n`);
  for (const { path, message } of files.failed) {
    ctx.stderr.write(`trebuchet report: could not write ${path}: ${message}\n`);
  }
  return files.failed.length > 0;
}

export async function reportCommand(ctx: ReportContext): Promise<number> {
  let files: string[];
  let output: ReportOptions;
  let saved: SavedResult;
  try {
    const parsed = parseReportArgs(ctx.argv, ctx.cwd);
    if (parsed === null) {
      ctx.stdout.write(REPORT_HELP);
      return EXIT.ok;
    }
    ({ files, output } = parsed);
    const read: SavedResult[] = [];
    for (const f of files) read.push(await readResultFile(f, ctx.cwd));
    saved = oneResult(files, read);
  } catch (e) {
    if (!(e instanceof CliInputError)) throw e;
    ctx.stderr.write(`trebuchet report: ${e.message}\nRun "trebuchet report --help" for the flags.\n`);
    return EXIT.badInput;
  }
  const flags = { interrupted: false, hostError: false, failUnlessClean: output.failUnlessClean };
  switch (saved.kind) {
    case 'run': {
      const shown: RunResult[] = withoutSecrets(saved.results, output.keepSecrets);
      ctx.stdout.write(renderReport(shown, output.format ?? 'text'));
      const filesFailed = reportFiles(ctx, await writeOutputFiles(shown, output));
      return exitCodeFor(shown, { ...flags, filesFailed });
    }
    case 'comparison': {
      const shown = withoutSecrets(saved.comparison, output.keepSecrets);
      ctx.stdout.write(renderComparisonReport(shown, output.format));
      const filesFailed = reportFiles(ctx, await writeComparisonFiles(shown, output));
      return exitCodeFor(
        shown.outcomes.map((o) => o.result),
        { ...flags, filesFailed },
      );
    }
    case 'capacity': {
      const shown = withoutSecrets(saved.capacity, output.keepSecrets);
      ctx.stdout.write(renderCapacityReport(shown, output.format));
      const filesFailed = reportFiles(ctx, await writeCapacityFiles(shown, output));
      return capacityExitCode(capacityReports(shown.plan, shown.steps, null), { ...flags, filesFailed });
    }
  }
}
