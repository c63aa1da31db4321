import { readFileSync } from 'node:fs';
import { notVisible, socketOwner } from './socket-owner.ts';

/** __SO_ACCEPTCON in /proc/net/unix's Flags: the socket is listening. */
const LISTENING = 0x10000;

/**
 * The inodes of the listening unix sockets bound to `path`, from /proc/net/unix (its columns:
 * Num RefCount Protocol Flags Type St Inode Path; the path is the last one, and may hold spaces).
 */
export function listeningInodes(procNetUnix: string, path: string): number[] {
  const out: number[] = [];
  for (const line of procNetUnix.split('\n').slice(1)) {
    const cols = line.trim().split(/\s+/);
    if (cols.length < 8) continue;
    const flags = Number.parseInt(cols[3]!, 16);
    if ((flags & LISTENING) === 0) continue;
    if (cols.slice(7).join(' ') === path) out.push(Number(cols[6]));
  }
  return out;
}

/**
 * The pid of a process holding the unix socket listening on `path` (found once at start: a
 * look through /proc/<pid>/fd for "socket:[inode]"), or why there is none. Only the processes
 * this user may read are looked through.
 */
export function unixSocketListener(path: string): { ok: true; pid: number } | { ok: false; reason: string } {
  let table: string;
  try {
    table = readFileSync('/proc/net/unix', 'latin1');
  } catch (err) {
    return { ok: false, reason: `/proc/net/unix could not be read: ${(err as Error).message}` };
  }
  const inodes = listeningInodes(table, path);
  if (inodes.length === 0) return { ok: false, reason: `nothing listens on the unix socket ${path}` };
  const pid = socketOwner(inodes);
  return pid === null ? { ok: false, reason: notVisible(`the unix socket ${path}`) } : { ok: true, pid };
}
