/**
 * `trebuchet diff BASE.json NEW.json`: reads two saved results, decodes their latency
 * histograms, and hands them to the pure comparison (shared/diff/); prints the diff, writes
 * --json and --html, and exits 1 when a --fail-on rule was broken beyond noise.
 */
import { basename } from 'node:path';
import { DiffInputError, diffResults, namedParts } from '../../../shared/diff/compare.ts';
import { parseFailRule, ruleMoves, type FailRule } from '../../../shared/diff/rules.ts';
import {
  diffHtml,
  diffJson,
  diffText,
  type DiffExportInput,
  type DiffSide,
} from '../../../shared/export/diff.ts';
import type { SavedResult } from '../../../shared/records/kinds.ts';
import { resultsOfSaved, savedResultName } from '../../../shared/records/result-file.ts';
import { histogramQuantiles } from '../../host/record-diff.ts';
import { nodeFileIo } from '../files.ts';
import { DIFF_HELP } from '../help.ts';
import { outputFile } from '../output-flags.ts';
import { EXIT } from '../exit-codes.ts';
import { writeFiles } from '../report.ts';
import { readResultFile } from './result-files.ts';
import { CliInputError } from '../values.ts';
import { parseFlags } from '../input/flags.ts';

export interface DiffContext {
  argv: readonly string[];
  cwd: string;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

interface DiffArgs {
  base: string;
  next: string;
  rules: FailRule[];
  jsonFile: string | null;
  htmlFile: string | null;
}

function parseDiffArgs(argv: readonly string[], cwd: string): DiffArgs | null {
  const parsed = parseFlags({
    args: [...argv],
    options: {
      'fail-on': { type: 'string', multiple: true },
      json: { type: 'string' },
      html: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    allowPositionals: true,
  });
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
  let saved;
  try {
    const parsed = parseDiffArgs(ctx.argv, ctx.cwd);
    if (parsed === null) {
      ctx.stdout.write(DIFF_HELP);
      return EXIT.ok;
    }
    args = parsed;
    // One after the other: a large file's tree is built before the next is read.
    const base = await readResultFile(args.base, ctx.cwd);
    saved = { base, next: await readResultFile(args.next, ctx.cwd) };
    diff = diffResults(saved.base, saved.next, histogramQuantiles);
  } catch (e) {
    if (!(e instanceof CliInputError) && !(e instanceof DiffInputError)) throw e;
    ctx.stderr.write(`trebuchet diff: ${e.message}\nRun "trebuchet diff --help" for the flags.\n`);
    return EXIT.badInput;
  }
  const input: DiffExportInput = {
    diff,
    sides: { base: sideOf(saved.base, args.base), next: sideOf(saved.next, args.next) },
    rules: args.rules,
    moves: ruleMoves(diff, args.rules),
    runs: { base: namedParts(saved.base), next: namedParts(saved.next) },
  };
  ctx.stdout.write(diffText({ ...input, sides: shortSides(input.sides) }));
  const files: [string, string][] = [];
  if (args.jsonFile) files.push([args.jsonFile, diffJson(input)]);
  if (args.htmlFile) files.push([args.htmlFile, diffHtml(input)]);
  // A diff holds figures only: no header of either run, so no secret to keep private.
  const written = await writeFiles(files, false);
  for (const path of written.written) ctx.stderr.write(`wrote ${path}\n`);
  for (const { path, message } of written.failed)
    ctx.stderr.write(`trebuchet diff: could not write ${path}: ${message}\n`);
  if (written.failed.length > 0) return EXIT.failed;
  return input.moves.some((m) => m.broken) ? EXIT.failed : EXIT.ok;
}

/** A file's side: what it holds is called, when it first ran, and the file as given. */
function sideOf(saved: SavedResult, file: string): DiffSide {
  const starts = resultsOfSaved(saved)
    .map((r) => r.startedAt)
    .sort();
  return { name: savedResultName(saved, file), at: starts[0] ?? null, file };
}

/** On the terminal the files go by their names, not their paths. */
const shortSides = (s: DiffExportInput['sides']): DiffExportInput['sides'] => ({
  base: { ...s.base, file: s.base.file === null ? null : basename(s.base.file) },
  next: { ...s.next, file: s.next.file === null ? null : basename(s.next.file) },
});
