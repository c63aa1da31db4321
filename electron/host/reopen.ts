/**
 * How a page finds its web host again after the host stopped (a crash, a kill, a reboot): the
 * access token is kept per port in the data folder, so a host restarted on the same --port and
 * folder has the token its pages hold and they take it back by themselves; and the page is told
 * the command that starts the host as it was. A host on a port picked at random (0) gets a new
 * token each time. The token's file is the user's alone (0600), as presets holding secrets are.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { readBoundedFileSync, textOf } from '../files/bounded-file.ts';
import { PRIVATE_FILE_MODE, writeFileAtomicSync } from '../stores/files.ts';

export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{16,256}$/;

/** A token's file: `web-host-<port>.token` in the data folder. */
export function tokenFile(dataDir: string, port: number): string {
  return path.join(dataDir, `web-host-${port}.token`);
}

export function newToken(): string {
  return randomBytes(24).toString('base64url');
}

/**
 * The token for a host on `port` of this data folder: the one kept, or a new one then kept.
 * A folder that cannot be written (a full disk) gets a new token it does not keep, and says so.
 */
export function tokenForPort(dataDir: string, port: number, say: (message: string) => void): string {
  const file = tokenFile(dataDir, port);
  try {
    const kept = textOf(readBoundedFileSync(file, 1024, 'a token file')).trim();
    if (TOKEN_PATTERN.test(kept)) return kept;
  } catch {
    // None yet, or not a token's: a new one replaces it.
  }
  const token = newToken();
  try {
    fs.mkdirSync(dataDir, { recursive: true });
    writeFileAtomicSync(file, `${token}\n`, PRIVATE_FILE_MODE);
  } catch (error) {
    say(
      `the token for port ${port} could not be kept in ${file} (${error instanceof Error ? error.message : String(error)}): a page will need the new URL after a restart`,
    );
  }
  return token;
}

/** A path or value as a shell word: as it is when it needs no quoting, else in single quotes. */
function shellWord(text: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/** The `trebuchet serve` command line that starts a host as this one is: its address, port and folders. */
export function restartCommand(o: {
  host: string;
  port: number;
  dataDir: string;
  filesDir: string | null;
  allowNonLoopback?: boolean;
  allowKubernetes?: boolean;
}): string {
  return [
    'trebuchet serve',
    ...(o.host === '127.0.0.1' ? [] : [`--host ${shellWord(o.host)}`]),
    `--port ${o.port}`,
    `--data-dir ${shellWord(o.dataDir)}`,
    ...(o.filesDir === null ? [] : [`--files-dir ${shellWord(o.filesDir)}`]),
    ...(o.allowNonLoopback ? ['--allow-remote'] : []),
    ...(o.allowKubernetes ? ['--allow-kubernetes'] : []),
  ].join(' ');
}
