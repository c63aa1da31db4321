import { readdirSync, readlinkSync } from 'node:fs';

/**
 * The lowest pid holding one of these sockets (by inode, as /proc/net/{tcp,tcp6,unix} list
 * them), from a look through /proc/<pid>/fd for "socket:[inode]" (what `ss -p` does); null
 * when no process this user may read holds one.
 */
export function socketOwner(inodes: readonly number[]): number | null {
  const wanted = new Set(inodes.map((i) => `socket:[${i}]`));
  if (wanted.size === 0) return null;
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
        if (wanted.has(readlinkSync(`/proc/${pid}/fd/${fd}`))) return pid;
      } catch (err) {
        // Denied: none of this process's descriptors can be read (a process of another user,
        // or one that a container keeps from us, with hundreds of them: an error each cost a
        // run's start ~10 ms, issue 24). Else the descriptor closed between the listing and the read.
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'EACCES' || code === 'EPERM') break;
      }
    }
  }
  return null;
}

/** Why a listening socket's process was not found: it belongs to another user. */
export function notVisible(what: string): string {
  const uid = process.getuid?.();
  return `${what} is listening but its process is not visible to this user${uid === undefined ? '' : ` (uid ${uid})`}: run Trebuchet as the server's user, or give its pid (--monitor pid:N)`;
}
