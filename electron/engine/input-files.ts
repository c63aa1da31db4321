/**
 * The files a scenario makes the host read (request bodies, CA certificates), checked before
 * a run starts and read when it does. Only regular files of a bounded size are accepted,
 * opened with O_NONBLOCK so a named pipe cannot block the opening thread (and with it the
 * process's exit), and read off the event loop.
 */
import { closeSync } from 'node:fs';
import { LIMITS } from '../../shared/model/defaults.ts';
import type { Body, TlsOptions } from '../../shared/model/scenario.ts';
import type { FieldIssue } from '../../shared/model/validation.ts';
import {
  FileProblemError,
  openBoundedFile,
  openBoundedFileSync,
  readBoundedFile,
  readBoundedFileSync,
} from '../files/bounded-file.ts';
import { loadCrypto } from './builtins.ts';

export { FileProblemError as InputFileError } from '../files/bounded-file.ts';

export type InputFileKind = 'body' | 'ca';

const MAX_BYTES: Record<InputFileKind, number> = {
  body: LIMITS.bodyFileBytes.max,
  ca: LIMITS.caFileBytes.max,
};
const NOUN: Record<InputFileKind, string> = { body: 'a body file', ca: 'a CA file' };

const PEM_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g;

/** Why a CA file's text is not PEM certificates; null when every block parses. */
export function pemProblem(text: string): string | null {
  const blocks = text.match(PEM_BLOCK) ?? [];
  if (blocks.length === 0) return 'is not a PEM certificate (no "-----BEGIN CERTIFICATE-----" block)';
  for (const [i, block] of blocks.entries()) {
    try {
      new (loadCrypto().X509Certificate)(block);
    } catch {
      return `is not a PEM certificate (certificate ${i + 1} of ${blocks.length} does not parse)`;
    }
  }
  return null;
}

/** For the CLI's argument parsing, which is synchronous: the same checks as inputFileProblem(). */
export function inputFileProblemSync(file: string, kind: InputFileKind): string | null {
  try {
    if (kind === 'ca') return pemProblem(readBoundedFileSync(file, MAX_BYTES.ca, NOUN.ca).toString('utf8'));
    // A body is checked, not read.
    closeSync(openBoundedFileSync(file, MAX_BYTES.body, NOUN.body).fd);
    return null;
  } catch (err) {
    if (err instanceof FileProblemError) return err.problem;
    throw err;
  }
}

/**
 * The content of a body or CA file: a regular file within its size limit, a CA file holding
 * PEM certificates. Throws an InputFileError saying what is wrong.
 */
export async function readInputFile(file: string, kind: InputFileKind): Promise<Buffer> {
  // A body goes into shared memory: the engine's worker threads read the same bytes.
  const content = await readBoundedFile(file, MAX_BYTES[kind], NOUN[kind], { shared: kind === 'body' });
  const pem = kind === 'ca' ? pemProblem(content.toString('utf8')) : null;
  if (pem) throw new FileProblemError(file, pem);
  return content;
}

/** What is wrong with an input file, without reading a body (a CA file is small, and read). */
export async function inputFileProblem(file: string, kind: InputFileKind): Promise<string | null> {
  try {
    if (kind === 'ca') await readInputFile(file, kind);
    else await (await openBoundedFile(file, MAX_BYTES.body, NOUN.body)).handle.close();
    return null;
  } catch (err) {
    if (err instanceof FileProblemError) return err.problem;
    throw err;
  }
}

/** What input files a target may name: its body, and the bodies of its list of requests. */
interface FileTarget {
  body: Body;
  requests?: readonly { body: Body }[] | undefined;
}

/** The input files of a scenario or plan, each with the field that names it. */
export function inputFilesOf(s: {
  targets: readonly FileTarget[];
  options: { tls: Pick<TlsOptions, 'caFile'> };
}): { field: string; file: string; kind: InputFileKind }[] {
  const files: { field: string; file: string; kind: InputFileKind }[] = [];
  s.targets.forEach((t, i) => {
    if (t.body.kind === 'file')
      files.push({ field: `targets.${i}.body.path`, file: t.body.path, kind: 'body' });
    t.requests?.forEach((r, j) => {
      if (r.body.kind === 'file')
        files.push({ field: `targets.${i}.requests.${j}.body.path`, file: r.body.path, kind: 'body' });
    });
  });
  const ca = s.options.tls.caFile;
  if (ca !== null) files.push({ field: 'options.tls.caFile', file: ca, kind: 'ca' });
  return files;
}

/**
 * A scenario or plan with the path of each of its input files mapped (made absolute by the
 * CLI, resolved inside the web host's folder); everything else as it was.
 */
export function withInputPaths<T extends FileTarget, O extends { tls: TlsOptions }>(
  s: { targets: readonly T[]; options: O },
  map: (path: string) => string,
): { targets: T[]; options: O } {
  const { caFile } = s.options.tls;
  const mapBody = (body: Body): Body =>
    body.kind === 'file' ? { kind: 'file', path: map(body.path) } : body;
  return {
    targets: s.targets.map((t) => ({
      ...t,
      body: mapBody(t.body),
      ...(t.requests ? { requests: t.requests.map((r) => ({ ...r, body: mapBody(r.body) })) } : {}),
    })),
    options: { ...s.options, tls: { ...s.options.tls, caFile: caFile === null ? null : map(caFile) } },
  };
}

/**
 * Every input file of a scenario or plan checked as the run will read it, and a CA file
 * picked in the browser checked as PEM: what the hosts answer run.start, compare.start and
 * capacity.start with before anything starts. Empty when all are fine.
 */
export async function inputFileIssues(s: {
  targets: readonly FileTarget[];
  options: { tls: Pick<TlsOptions, 'caFile' | 'caUpload'> };
}): Promise<FieldIssue[]> {
  const issues: FieldIssue[] = [];
  for (const { field, file, kind } of inputFilesOf(s)) {
    const problem = await inputFileProblem(file, kind);
    if (problem) issues.push({ path: field, message: `${file} ${problem}` });
  }
  const picked = s.options.tls.caUpload;
  const pem = picked === undefined ? null : pemProblem(picked.pem);
  if (picked !== undefined && pem !== null)
    issues.push({ path: 'options.tls.caUpload', message: `${picked.name} ${pem}` });
  return issues;
}
