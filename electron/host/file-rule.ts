/**
 * Which of its machine's files a host may read for a scenario (body files, CA files; and the
 * unix sockets it may connect to). The
 * desktop app and the CLI read any path their user gives. The web host reads none, unless it
 * was started with a folder (`trebuchet serve --files-dir DIR`): then only files inside it,
 * by their real path (a symbolic link out of it is refused). Anything else is "not allowed",
 * the same words whether the path exists or not, so a token holder learns nothing about the
 * machine's files; in the browser a file comes from the person, picked and sent with the
 * scenario (body kind 'upload', tls.caUpload).
 */
import { lstat, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Body, TlsOptions } from '../../shared/model/scenario.ts';
import type { FieldIssue } from '../../shared/model/validation.ts';
import { inputFilesOf, withInputPaths } from '../engine/input-files.ts';

export type FileRule =
  /** Any path its user can read (desktop, CLI). */
  | { kind: 'any' }
  /** Only inside `dir` (a real path), or nothing when dir is null (the web host). */
  | { kind: 'folder'; dir: string | null };

const NOT_ALLOWED_NO_FOLDER =
  'not allowed: this web host reads no file of its machine (pick the file to send it from the browser, or start trebuchet serve with --files-dir)';
const NOT_ALLOWED_OUTSIDE = 'not allowed: outside the folder this web host reads files from (--files-dir)';

const NOT_ALLOWED_SOCKET_NO_FOLDER =
  'not allowed: this web host connects to no unix socket of its machine (start trebuchet serve with --files-dir, and put the socket inside that folder)';
const NOT_ALLOWED_SOCKET_OUTSIDE =
  'not allowed: outside the folder this web host uses files from (--files-dir)';

const inside = (dir: string, p: string): boolean => p === dir || p.startsWith(dir + path.sep);

/**
 * Where `file` really is when that is inside `dir`: a relative path is taken from `dir`,
 * symbolic links are followed, and a path that does not exist is checked by its nearest
 * existing folder (so "does not exist" is said only of places inside). Null when outside.
 */
async function resolveInside(dir: string, file: string): Promise<string | null> {
  const wanted = path.resolve(dir, file);
  if (!inside(dir, wanted)) return null;
  for (let probe = wanted; ; probe = path.dirname(probe)) {
    const real = await realpath(probe).catch(() => null);
    if (real !== null) {
      if (!inside(dir, real)) return null;
      // The part past the nearest existing folder does not exist: the check will say so.
      return probe === wanted ? real : path.join(real, path.relative(probe, wanted));
    }
    // There but not resolvable: a link to nowhere (perhaps outside), or a loop.
    if ((await lstat(probe).catch(() => null)) !== null) return null;
    if (path.dirname(probe) === probe) return null;
  }
}

/** The folder a web host reads files from: its real path; an error when it is not a folder. */
export async function filesFolder(dir: string): Promise<string> {
  let real: string;
  try {
    real = await realpath(dir);
  } catch {
    throw new Error(`--files-dir ${dir} does not exist`);
  }
  if (!(await stat(real)).isDirectory()) throw new Error(`--files-dir ${dir} is not a folder`);
  return real;
}

/**
 * A scenario or plan with its input file paths as the host will read them (under a folder
 * rule: their real paths inside it), or the issues of the paths the rule refuses.
 */
export async function applyFileRule<
  T extends { body: Body; unixSocket?: string | undefined },
  O extends { tls: TlsOptions },
  S,
>(
  s: S & { targets: readonly T[]; options: O },
  rule: FileRule,
): Promise<{ ok: true; value: S } | { ok: false; issues: FieldIssue[] }> {
  if (rule.kind === 'any') return { ok: true, value: s };
  const resolved = new Map<string, string>();
  const issues: FieldIssue[] = [];
  // A unix socket is a file of the machine too (and one may be a daemon's API, docker.sock):
  // the web host connects only to those inside its folder.
  for (const [i, t] of s.targets.entries()) {
    if (t.unixSocket === undefined) continue;
    if (rule.dir === null || (await resolveInside(rule.dir, t.unixSocket)) === null) {
      issues.push({
        path: `targets.${i}.unixSocket`,
        message: rule.dir === null ? NOT_ALLOWED_SOCKET_NO_FOLDER : NOT_ALLOWED_SOCKET_OUTSIDE,
      });
    }
  }
  for (const { field, file } of inputFilesOf(s)) {
    const real = rule.dir === null ? null : await resolveInside(rule.dir, file);
    if (real === null) {
      issues.push({ path: field, message: rule.dir === null ? NOT_ALLOWED_NO_FOLDER : NOT_ALLOWED_OUTSIDE });
    } else {
      resolved.set(file, real);
    }
  }
  if (issues.length > 0) return { ok: false, issues };
  return { ok: true, value: { ...s, ...withInputPaths(s, (p) => resolved.get(p) ?? p) } };
}
