/**
 * `--targets FILE|-`, `--targets-format`, `--targets-order` and `--seed`: one target whose
 * load spreads over a list of requests read from a vegeta or http_load file (or stdin). The
 * text is parsed by shared/targets-file/; relative body paths are the file's folder's (the
 * working folder's for stdin), as a scenario file's are.
 */
import { readSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { LIMITS } from '../../../shared/model/defaults.ts';
import type { ListRequestInput, RequestOrder } from '../../../shared/model/scenario.ts';
import {
  parseTargets,
  targetsFormatSchema,
  type TargetsFormat,
} from '../../../shared/targets-file/formats.ts';
import { problemText } from '../../../shared/targets-file/problem.ts';
import { FileProblemError, readBoundedFileSync, textOf } from '../../files/bounded-file.ts';
import type { Values } from './flags.ts';
import { CliInputError, parseWholeNumber } from '../values.ts';

const NOUN = 'a targets file';

/** A targets file's text, bounded by LIMITS.targetsFileBytes; FileProblemError when it cannot be one. */
export function readTargetsFile(path: string): string {
  return textOf(readBoundedFileSync(path, LIMITS.targetsFileBytes.max, NOUN));
}

/** Standard input's text, read until its end and no further than LIMITS.targetsFileBytes. */
export function readTargetsStdin(): string {
  const max = LIMITS.targetsFileBytes.max;
  const chunks: Buffer[] = [];
  let total = 0;
  const chunk = Buffer.alloc(64 * 1024);
  for (;;) {
    let n: number;
    try {
      n = readSync(0, chunk, 0, chunk.length, null);
    } catch (err) {
      // A non-blocking stdin with nothing yet: wait for it (Atomics.wait sleeps this thread).
      if ((err as { code?: string }).code === 'EAGAIN') {
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
        continue;
      }
      if ((err as { code?: string }).code === 'EOF') break;
      throw err;
    }
    if (n === 0) break;
    total += n;
    if (total > max) throw new FileProblemError('standard input', `is larger than ${max} bytes`);
    chunks.push(Buffer.from(chunk.subarray(0, n)));
  }
  return textOf(Buffer.concat(chunks));
}

/** The list a run's target gets from the flags, with its order; null without --targets. */
export interface TargetsFromFlags {
  url: string;
  requests: ListRequestInput[];
  order?: RequestOrder;
}

function orderFromFlags(v: Values): RequestOrder | undefined {
  const order = v['targets-order'];
  if (order === undefined || order === 'round-robin') {
    if (v.seed !== undefined)
      throw new CliInputError('--seed', 'seeds the random order: add --targets-order random');
    return order === undefined ? undefined : { kind: 'round-robin' };
  }
  if (order !== 'random')
    throw new CliInputError('--targets-order', `"${order}" is not round-robin or random`);
  // Without --seed a random order draws a seed of its own, as http_load does; the run keeps it.
  const seed =
    v.seed === undefined ? Math.floor(Math.random() * LIMITS.seed.max) : parseWholeNumber('--seed', v.seed);
  return { kind: 'random', seed };
}

/**
 * The list of requests --targets names, parsed in --targets-format (detected when absent).
 * `read` gives a file's text (null: standard input). Every problem names the flag, and a
 * parse problem the line and field.
 */
export function targetsFromFlags(
  v: Values,
  cwd: string,
  read: (path: string | null) => string,
): TargetsFromFlags | null {
  const source = v.targets;
  if (source === undefined) {
    for (const flag of ['targets-format', 'targets-order', 'seed'] as const) {
      if (v[flag] !== undefined)
        throw new CliInputError(`--${flag}`, 'belongs to a list of requests: add --targets FILE');
    }
    return null;
  }
  let format: TargetsFormat | null = null;
  if (v['targets-format'] !== undefined) {
    const f = targetsFormatSchema.safeParse(v['targets-format']);
    if (!f.success) throw new CliInputError('--targets-format', f.error.issues[0]!.message);
    format = f.data;
  }
  const stdin = source === '-';
  const file = stdin ? null : resolve(cwd, source);
  let text: string;
  try {
    text = read(file);
  } catch (e) {
    if (e instanceof FileProblemError) throw new CliInputError('--targets', e.message);
    throw e;
  }
  const parsed = parseTargets(text, format);
  if (!parsed.ok) {
    throw new CliInputError(
      '--targets',
      `${stdin ? 'stdin' : file} (${parsed.format} format) ${problemText(parsed.problem)}`,
    );
  }
  const dir = file === null ? cwd : dirname(file);
  const requests = parsed.requests.map((r) =>
    r.body?.kind === 'file' && !isAbsolute(r.body.path)
      ? { ...r, body: { kind: 'file' as const, path: resolve(dir, r.body.path) } }
      : r,
  );
  const order = orderFromFlags(v);
  // The target's URL is the list's origin: its label, route and pre-flight origin.
  return { url: new URL('/', requests[0]!.url).href, requests, ...(order ? { order } : {}) };
}
