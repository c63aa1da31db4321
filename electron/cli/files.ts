/**
 * The files the CLI reads (scenario and preset files, bodies, CA files) and what it needs to
 * know about paths, behind FileIo so argument parsing can be tested with fakes.
 */
import { existsSync, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { LIMITS } from '../../shared/model/defaults.ts';
import type { Body, TlsOptions } from '../../shared/model/scenario.ts';
import { inputFileProblemSync, withInputPaths, type InputFileKind } from '../engine/input-files.ts';
import { FileProblemError, readBoundedFileSync, textOf } from '../files/bounded-file.ts';
import { parseJsonText } from '../stores/files.ts';
import { readTargetsFile, readTargetsStdin } from './run/targets-flags.ts';
import { CliInputError } from './values.ts';

/** What reading the command line needs from the outside world (tests pass fakes). */
export interface FileIo {
  /** Relative paths on the command line are relative to it. */
  cwd: string;
  /** A scenario, preset or plan file's text; throws a FileProblemError (electron/files/bounded-file.ts). */
  readFile(path: string): string;
  /** Something is there (a file, a folder, a pipe...). */
  exists(path: string): boolean;
  isDirectory(path: string): boolean;
  /** Why the file cannot be a request body or a CA file (electron/engine/input-files.ts); null when it can. */
  inputFileProblem(path: string, kind: InputFileKind): string | null;
  /** A --targets file's text (null: standard input), bounded; throws a FileProblemError. */
  readTargets(path: string | null): string;
}

export function nodeFileIo(cwd: string): FileIo {
  return {
    cwd,
    // Checked by size on the opened file first: a 2 GB file, a FIFO or /dev/zero is refused unread.
    readFile: (p) => textOf(readBoundedFileSync(p, LIMITS.inputFileBytes.max, INPUT_FILE_NOUN)),
    exists: (p) => existsSync(p),
    isDirectory: (p) => existsSync(p) && statSync(p).isDirectory(),
    inputFileProblem: inputFileProblemSync,
    readTargets: (p) => (p === null ? readTargetsStdin() : readTargetsFile(p)),
  };
}

const INPUT_FILE_NOUN = 'a scenario, preset or plan file';

/**
 * A JSON file's content; `flag` names the flag that gave the file when it cannot be read or
 * is not JSON. The message never quotes the file (it may be anything: /etc/shadow).
 */
export function readJsonFile(flag: string, file: string, io: Pick<FileIo, 'readFile'>): unknown {
  let text: string;
  try {
    text = io.readFile(file);
  } catch (e) {
    if (e instanceof FileProblemError) throw new CliInputError(flag, e.message);
    throw e;
  }
  // Any depth: the schema reads the value next, and stops at the first field it does not know.
  const json = parseJsonText(text, null);
  if (!json.ok) throw new CliInputError(flag, `${file}: ${json.message}`);
  return json.value;
}

/**
 * A scenario's or plan's body files and CA file, which a file names relative to its own
 * folder (`dir`), not to wherever the CLI was started.
 */
export function pathsRelativeTo<
  T extends { body: Body; requests?: readonly { body: Body }[] },
  O extends { tls: TlsOptions },
>(dir: string, s: { targets: readonly T[]; options: O }): { targets: T[]; options: O } {
  return withInputPaths(s, (p) => (isAbsolute(p) ? p : resolve(dir, p)));
}
