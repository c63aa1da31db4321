/**
 * `trebuchet diff BASE.json NEW.json`: reads two saved results, decodes their latency
 * histograms, and hands them to the pure comparison (shared/diff/); prints the diff, writes
 * --json and --html, and exits 1 when a --fail-on rule was broken beyond noise.
 */
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { DiffInputError, diffResults, type QuantilesOf } from '../../shared/diff/compare.ts';
import { parseFailRule, ruleMoves, type FailRule } from '../../shared/diff/rules.ts';
import { jsonText } from '../../shared/export/files.ts';
import { formatDiff } from '../../shared/format/diff-text.ts';
import { diffHtmlReport } from '../../shared/format/html-report.ts';
import type { RunResult } from '../../shared/model/result.ts';
import { decodeHistogram, valueAtPercentile } from '../engine/histogram.ts';
import { nodeFileIo } from './files.ts';
import { DIFF_HELP } from './help.ts';
import { outputFile } from './output-flags.ts';
import { EXIT, writeFiles } from './report.ts';
import { readResultFile } from './result-files.ts';
import { CliInputError } from './values.ts';

export interface DiffContext {
  argv: readonly string[];
  cwd: string;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

/** Quantiles per run: 1,000 evenly spaced ranks resolve the distribution functions to 0.1 %. */
const QUANTILE_POINTS = 1000;

/** A run's latency quantiles (ms) from its HdrHistogram; null without one (no response, an old file). */
const histogramQuantiles: QuantilesOf = (r: RunResult) => {
  if (r.histogram === null) return null;
  const h = decodeHistogram(r.histogram);
  if (h.totalCount === 0) return null;
  return Array.from(
    { length: QUANTILE_POINTS },
    (_, i) => valueAtPercentile(h, ((i + 0.5) / QUANTILE_POINTS) * 100) / 1000,
  );
};

interface DiffArgs {
  base: string;
  next: string;
  rules: FailRule[];
  jsonFile: string | null;
  htmlFile: string | null;
}

function parseDiffArgs(argv: readonly string[], cwd: string): DiffArgs | null {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      options: {
        'fail-on': { type: 'string', multiple: true },
        json: { type: 'string' },
        html: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      allowPositionals: true,
      strict: true,
    });
  } catch (e) {
    throw new CliInputError('arguments', e instanceof Error ? e.message : String(e));
  }
  const v = parsed.values;
  if (v.help === true) return null;
  if (parsed.positionals.length !== 2) {
    throw new CliInputError(
      'BASE.json NEW.json',
      `give two saved result files (${parsed.positionals.length} given)`,
    );
  }
  const rules = (v['fail-on'] ?? []).map((text) => {
    try {
      return parseFailRule(text);
    } catch (e) {
      throw new CliInputError('--fail-on', e instanceof Error ? e.message : String(e));
    }
  });
  const io = nodeFileIo(cwd);
  return {
    base: parsed.positionals[0]!,
    next: parsed.positionals[1]!,
    rules,
    jsonFile: outputFile('--json', v.json, io),
    htmlFile: outputFile('--html', v.html, io),
  };
}

export async function diffCommand(ctx: DiffContext): Promise<number> {
  let args: DiffArgs;
  let diff;
  try {
    const parsed = parseDiffArgs(ctx.argv, ctx.cwd);
    if (parsed === null) {
      ctx.stdout.write(DIFF_HELP);
      return EXIT.ok;
    }
    args = parsed;
    diff = diffResults(
      readResultFile(args.base, ctx.cwd),
      readResultFile(args.next, ctx.cwd),
      histogramQuantiles,
    );
  } catch (e) {
    if (!(e instanceof CliInputError) && !(e instanceof DiffInputError)) throw e;
    ctx.stderr.write(`trebuchet diff: ${e.message}\nRun "trebuchet diff --help" for the flags.\n`);
    return EXIT.badInput;
  }
  const moves = ruleMoves(diff, args.rules);
  const names = { base: basename(args.base), next: basename(args.next) };
  ctx.stdout.write(formatDiff(diff, names, args.rules, moves));
  const files: [string, string][] = [];
  if (args.jsonFile) {
    files.push([
      args.jsonFile,
      jsonText({ kind: 'diff', base: args.base, next: args.next, diff, rules: args.rules, moves }),
    ]);
  }
  if (args.htmlFile) files.push([args.htmlFile, diffHtmlReport(diff, names, args.rules, moves)]);
  // A diff holds figures only: no header of either run, so no secret to keep private.
  const written = await writeFiles(files, false);
  for (const path of written.written) ctx.stderr.write(`wrote ${path}\n`);
  for (const { path, message } of written.failed)
    ctx.stderr.write(`trebuchet diff: could not write ${path}: ${message}\n`);
  if (written.failed.length > 0) return EXIT.failed;
  return moves.some((m) => m.broken) ? EXIT.failed : EXIT.ok;
}
