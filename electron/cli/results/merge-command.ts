/**
 * `trebuchet merge a.json b.json ...`: the results of every shard of one plan (`trebuchet run
 * --shard i/N`, each a --json file or a `--json -` log) as one run: checked to belong
 * together (shared/shards/combine.ts), merged exactly by the engine's merge
 * (electron/engine/shards/merged-result.ts), then printed and written as a run is.
 */
import { resolve } from 'node:path';
import { runResultSchema, type RunResult } from '../../../shared/model/result.ts';
import { withoutSecrets } from '../../../shared/model/secret-headers.ts';
import { describeIssues, issuesOf } from '../../../shared/model/validation.ts';
import { LIMITS } from '../../../shared/model/defaults.ts';
import { shardSet, type ShardFile } from '../../../shared/shards/combine.ts';
import { streamLineSchema } from '../../../shared/shards/stream.ts';
import { mergeShardResults } from '../../engine/shards/merged-result.ts';
import { FileProblemError, readBoundedFileSync, textOf } from '../../files/bounded-file.ts';
import { parseJsonText } from '../../stores/files.ts';
import { histogramIssues } from '../../stores/result-histograms.ts';
import { readJsonStreamed } from '../../stores/json/file.ts';
import { JsonStreamError } from '../../stores/json/shapes.ts';
import { resultArithmeticIssues } from '../../../shared/records/result-checks.ts';
import { nodeFileIo } from '../files.ts';
import { MERGE_HELP } from '../help.ts';
import { outputFromFlags } from '../output-flags.ts';
import { EXIT } from '../exit-codes.ts';
import { exitCodeFor, renderReport, writeOutputFiles } from '../report.ts';
import { parseFlags } from '../input/flags.ts';
import { CliInputError } from '../values.ts';

export interface MergeContext {
  argv: readonly string[];
  cwd: string;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

const MERGE_OPTIONS = {
  json: { type: 'string' },
  csv: { type: 'string' },
  html: { type: 'string' },
  export: { type: 'string' },
  format: { type: 'string' },
  'keep-secrets': { type: 'boolean' },
  'fail-unless-clean': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/**
 * A shard's result from its file: a result as `--json F` writes it (read a chunk at a time: a
 * long run's file is never one text), or a `--json -` log, whose last result line it is. A file
 * that is neither, or whose result does not add up, is a CliInputError naming it.
 */
async function readShardFile(cwd: string, file: string): Promise<RunResult> {
  const path = resolve(cwd, file);
  let candidate: unknown;
  try {
    candidate = await readJsonStreamed(path, LIMITS.runFileBytes.max, 'a shard result');
  } catch (e) {
    if (e instanceof FileProblemError) throw new CliInputError(file, e.problem);
    if (!(e instanceof JsonStreamError)) throw e;
    // Not one JSON value: a log of lines, one of them its result.
    candidate = lastResultLine(
      file,
      textOf(readBoundedFileSync(path, LIMITS.runFileBytes.max, 'a shard result')),
    );
  }
  if (Array.isArray(candidate)) {
    throw new CliInputError(file, `holds ${candidate.length} results; a shard's file holds one`);
  }
  const parsed = runResultSchema.safeParse(candidate);
  if (!parsed.success)
    throw new CliInputError(file, `is not a run result: ${describeIssues(issuesOf(parsed.error))}`);
  // A shard that contradicts itself would be added in as if it were a measurement.
  const issues = [...resultArithmeticIssues(parsed.data), ...histogramIssues(parsed.data)];
  if (issues.length > 0)
    throw new CliInputError(file, `does not add up: ${describeIssues(issues.slice(0, 5))}`);
  return parsed.data;
}

function lastResultLine(file: string, text: string): unknown {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  for (let i = lines.length - 1; i >= 0; i--) {
    const json = parseJsonText(lines[i]!);
    if (!json.ok) continue;
    const line = streamLineSchema.safeParse(json.value);
    if (line.success && line.data.type === 'result') return line.data.result;
  }
  throw new CliInputError(file, 'is neither a result (--json F) nor a log with a result line (--json -)');
}

export async function mergeCommand(ctx: MergeContext): Promise<number> {
  const io = nodeFileIo(ctx.cwd);
  let files: ShardFile[];
  let output;
  try {
    const parsed = parseFlags({ args: [...ctx.argv], options: MERGE_OPTIONS, allowPositionals: true });
    if (parsed.values.help) {
      ctx.stdout.write(MERGE_HELP);
      return EXIT.ok;
    }
    output = outputFromFlags(parsed.values, io);
    if (output.jsonStream) throw new CliInputError('--json', '- streams a run; give merge a file name');
    if (parsed.positionals.length === 0) throw new CliInputError('<file>', "give every shard's result file");
    // One after the other: a large file's tree is built before the next is read.
    files = [];
    for (const file of parsed.positionals) files.push({ file, result: await readShardFile(ctx.cwd, file) });
  } catch (e) {
    if (!(e instanceof CliInputError)) throw e;
    ctx.stderr.write(`trebuchet merge: ${e.message}\nRun "trebuchet merge --help" for the flags.\n`);
    return EXIT.badInput;
  }
  const set = shardSet(files);
  if (!set.ok) {
    ctx.stderr.write(`trebuchet merge: ${set.message}\n`);
    return EXIT.badInput;
  }
  const merged = mergeShardResults(set.shards);
  const shown = withoutSecrets([merged], output.keepSecrets);
  ctx.stdout.write(renderReport(shown, output.format ?? 'text'));
  const written = await writeOutputFiles(shown, output);
  for (const path of written.written) ctx.stderr.write(`wrote ${path}\n`);
  for (const { path, message } of written.failed)
    ctx.stderr.write(`trebuchet merge: could not write ${path}: ${message}\n`);
  return exitCodeFor([merged], {
    interrupted: false,
    hostError: false,
    filesFailed: written.failed.length > 0,
    failUnlessClean: output.failUnlessClean,
  });
}
