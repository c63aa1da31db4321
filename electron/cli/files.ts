/**
 * The files the CLI reads (scenario and preset files, bodies, CA files) and what it needs to
 * know about paths, behind FileIo so argument parsing can be tested with fakes.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import type { Body, TlsOptions } from '../../shared/model/scenario.ts';
import { inputFileProblemSync, type InputFileKind } from '../engine/input-files.ts';
import { CliInputError } from './values.ts';

/** What reading the command line needs from the outside world (tests pass fakes). */
export interface FileIo {
  /** Relative paths on the command line are relative to it. */
  cwd: string;
  readFile(path: string): string;
  isFile(path: string): boolean;
  isDirectory(path: string): boolean;
  /** Why the file cannot be a request body or a CA file (electron/engine/input-files.ts); null when it can. */
  inputFileProblem(path: string, kind: InputFileKind): string | null;
}

export function nodeFileIo(cwd: string): FileIo {
  return {
    cwd,
    readFile: (p) => readFileSync(p, 'utf8'),
    isFile: (p) => existsSync(p) && statSync(p).isFile(),
    isDirectory: (p) => existsSync(p) && statSync(p).isDirectory(),
    inputFileProblem: inputFileProblemSync,
  };
}

/** A JSON file's content; `flag` names the flag that gave the file when it is not JSON. */
export function readJsonFile(flag: string, file: string, io: Pick<FileIo, 'readFile'>): unknown {
  try {
    return JSON.parse(io.readFile(file));
  } catch (e) {
    throw new CliInputError(flag, `${file} is not valid JSON (${(e as Error).message})`);
  }
}

/**
 * A scenario's or plan's body files and CA file, which a file names relative to its own
 * folder (`dir`), not to wherever the CLI was started.
 */
export function pathsRelativeTo<T extends { body: Body }, O extends { tls: TlsOptions }>(
  dir: string,
  s: { targets: readonly T[]; options: O },
): { targets: T[]; options: O } {
  const rel = (p: string): string => (isAbsolute(p) ? p : resolve(dir, p));
  const { caFile } = s.options.tls;
  return {
    targets: s.targets.map((t) =>
      t.body.kind === 'file' ? { ...t, body: { kind: 'file', path: rel(t.body.path) } } : t,
    ),
    options: { ...s.options, tls: { ...s.options.tls, caFile: caFile === null ? null : rel(caFile) } },
  };
}
