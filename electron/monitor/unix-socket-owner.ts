import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

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
  const inodes = new Set(listeningInodes(table, path).map((i) => `socket:[${i}]`));
  if (inodes.size === 0) return { ok: false, reason: `nothing listens on the unix socket ${path}` };
  const pids = readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .sort((a, b) => a - b);
  for (const pid of pids) {
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue; // another user's process, or gone
    }
    for (const fd of fds) {
      try {
        if (inodes.has(readlinkSync(`/proc/${pid}/fd/${fd}`))) return { ok: true, pid };
      } catch {
        // The descriptor closed between the listing and the read.
      }
    }
  }
  const uid = process.getuid?.();
  return {
    ok: false,
    reason: `the unix socket ${path} is listening but its process is not visible to this user${uid === undefined ? '' : ` (uid ${uid})`}: run Trebuchet as the server's user, or give its pid (--monitor pid:N)`,
  };
}
