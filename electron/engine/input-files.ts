/**
 * The files a scenario makes the host read (request bodies, CA certificates), checked before
 * a run starts and read when it does. Only regular files of a bounded size are accepted,
 * opened with O_NONBLOCK so a named pipe cannot block the opening thread (and with it the
 * process's exit), and read off the event loop.
 */
import { X509Certificate } from 'node:crypto';
import { closeSync, constants, fstatSync, openSync, readFileSync, type Stats } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { LIMITS } from '../../shared/model/defaults.ts';
import type { Body, TlsOptions } from '../../shared/model/scenario.ts';
import type { FieldIssue } from '../../shared/model/validation.ts';

export type InputFileKind = 'body' | 'ca';

const MAX_BYTES: Record<InputFileKind, number> = {
  body: LIMITS.bodyFileBytes.max,
  ca: LIMITS.caFileBytes.max,
};
const NOUN: Record<InputFileKind, string> = { body: 'a body file', ca: 'a CA file' };

/** O_NONBLOCK is POSIX; Windows has no named pipes in the file system to block on. */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/** What is wrong with an input file, said after its path ("/x.pem is not a PEM certificate"). */
export class InputFileError extends Error {
  readonly file: string;
  readonly problem: string;
  constructor(file: string, problem: string) {
    super(`${file} ${problem}`);
    this.name = 'InputFileError';
    this.file = file;
    this.problem = problem;
  }
}

function kindOf(stat: Stats): string {
  if (stat.isFIFO()) return 'a named pipe (FIFO)';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device';
  if (stat.isSocket()) return 'a socket';
  return 'not a file';
}

/** Why a file of this stat cannot be this input; null when it can. */
function statProblem(stat: Stats, kind: InputFileKind): string | null {
  if (stat.isDirectory()) return 'is a folder, not a file';
  if (!stat.isFile()) return `is ${kindOf(stat)}, not a regular file`;
  const max = MAX_BYTES[kind];
  if (stat.size > max) return `is ${stat.size} bytes; ${NOUN[kind]} is at most ${max} bytes`;
  return null;
}

function openProblem(err: unknown): string {
  switch ((err as NodeJS.ErrnoException).code) {
    case 'ENOENT':
      return 'does not exist';
    case 'ENOTDIR':
      return 'does not exist (a part of its path is not a folder)';
    case 'EACCES':
    case 'EPERM':
      return 'cannot be read (permission denied)';
    case 'ENXIO':
      return 'is a socket or a device, not a regular file';
    default:
      return `cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})`;
  }
}

const PEM_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g;

/** Why a CA file's text is not PEM certificates; null when every block parses. */
export function pemProblem(text: string): string | null {
  const blocks = text.match(PEM_BLOCK) ?? [];
  if (blocks.length === 0) return 'is not a PEM certificate (no "-----BEGIN CERTIFICATE-----" block)';
  for (const [i, block] of blocks.entries()) {
    try {
      new X509Certificate(block);
    } catch {
      return `is not a PEM certificate (certificate ${i + 1} of ${blocks.length} does not parse)`;
    }
  }
  return null;
}

/** For the CLI's argument parsing, which is synchronous: the same checks as inputFileProblem(). */
export function inputFileProblemSync(file: string, kind: InputFileKind): string | null {
  let fd: number;
  try {
    fd = openSync(file, OPEN_FLAGS);
  } catch (err) {
    return openProblem(err);
  }
  try {
    const problem = statProblem(fstatSync(fd), kind);
    return problem ?? (kind === 'ca' ? pemProblem(readFileSync(fd, 'utf8')) : null);
  } finally {
    closeSync(fd);
  }
}

/** Opens an input file and checks the opened handle (so the file read is the file checked). */
async function openChecked(file: string, kind: InputFileKind): Promise<{ handle: FileHandle; size: number }> {
  let handle: FileHandle;
  try {
    handle = await open(file, OPEN_FLAGS);
  } catch (err) {
    throw new InputFileError(file, openProblem(err));
  }
  const stat = await handle.stat();
  const problem = statProblem(stat, kind);
  if (problem) {
    await handle.close();
    throw new InputFileError(file, problem);
  }
  return { handle, size: stat.size };
}

/**
 * The content of a body or CA file: a regular file within its size limit, a CA file holding
 * PEM certificates. Throws an InputFileError saying what is wrong.
 */
export async function readInputFile(file: string, kind: InputFileKind): Promise<Buffer> {
  const { handle, size } = await openChecked(file, kind);
  let content: Buffer;
  try {
    // Exactly the checked size: a file that grows meanwhile is not read past its limit. A body
    // goes into shared memory, so the engine's worker threads get the same bytes, not a copy
    // each (a message to a worker clones a plain buffer).
    const data = kind === 'body' ? Buffer.from(new SharedArrayBuffer(size)) : Buffer.alloc(size);
    let read = 0;
    while (read < size) {
      const { bytesRead } = await handle.read(data, read, size - read, read);
      if (bytesRead === 0) break;
      read += bytesRead;
    }
    content = data.subarray(0, read);
  } finally {
    await handle.close();
  }
  const pem = kind === 'ca' ? pemProblem(content.toString('utf8')) : null;
  if (pem) throw new InputFileError(file, pem);
  return content;
}

/** What is wrong with an input file, without reading a body (a CA file is small, and read). */
export async function inputFileProblem(file: string, kind: InputFileKind): Promise<string | null> {
  try {
    if (kind === 'ca') await readInputFile(file, kind);
    else await (await openChecked(file, kind)).handle.close();
    return null;
  } catch (err) {
    if (err instanceof InputFileError) return err.problem;
    throw err;
  }
}

/** The input files of a scenario or plan, each with the field that names it. */
export function inputFilesOf(s: {
  targets: readonly { body: Body }[];
  options: { tls: Pick<TlsOptions, 'caFile'> };
}): { field: string; file: string; kind: InputFileKind }[] {
  const files: { field: string; file: string; kind: InputFileKind }[] = [];
  s.targets.forEach((t, i) => {
    if (t.body.kind === 'file')
      files.push({ field: `targets.${i}.body.path`, file: t.body.path, kind: 'body' });
  });
  const ca = s.options.tls.caFile;
  if (ca !== null) files.push({ field: 'options.tls.caFile', file: ca, kind: 'ca' });
  return files;
}

/**
 * Every input file of a scenario or plan checked as the run will read it: what the hosts
 * answer run.start and compare.start with before anything starts. Empty when all are fine.
 */
export async function inputFileIssues(s: Parameters<typeof inputFilesOf>[0]): Promise<FieldIssue[]> {
  const issues: FieldIssue[] = [];
  for (const { field, file, kind } of inputFilesOf(s)) {
    const problem = await inputFileProblem(file, kind);
    if (problem) issues.push({ path: field, message: `${file} ${problem}` });
  }
  return issues;
}
