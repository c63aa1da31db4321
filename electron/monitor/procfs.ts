import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { endianness } from 'node:os';
import type { ProcessCounters } from '../../shared/resources/process.ts';

/*
 * Linux /proc, read synchronously: a process tree's counters cost a few small reads per
 * process per tick, no process started (pidtree spawns `ps -A` on every call: about 9 ms of
 * CPU each, measured here, which is 1 % of a core at a 1 s tick on its own; pidusage reads
 * the same /proc/<pid>/stat but drops the thread count, the waited-for children's time and
 * has no open-file count). (USER_HZ and the page size come from the auxiliary vector, not getconf, for the same
 * reason.) procfs answers from kernel memory, so the reads never block on a
 * disk, and doing them synchronously lets the monitor measure its own CPU exactly.
 */

export const procfsSupported = process.platform === 'linux';

interface Units {
  clockTicks: number;
  pageSize: number;
}

let units: Units | null = null;

/** The auxiliary vector's keys (elf.h) for the page size and USER_HZ. */
const AT_PAGESZ = 6n;
const AT_CLKTCK = 17n;

/**
 * USER_HZ and the page size, as the kernel handed them to this process (/proc/self/auxv: pairs
 * of native-endian 64-bit words, key then value; what getconf reads through sysconf), read
 * once per process: no process started. 100 and 4096 nearly everywhere, the fallbacks.
 */
function procUnits(): Units {
  if (units) return units;
  units = { clockTicks: 100, pageSize: 4096 };
  // A 32-bit process's auxv is in 32-bit words: the fallbacks stand.
  if (process.arch === 'arm' || process.arch === 'ia32') return units;
  try {
    const auxv = readFileSync('/proc/self/auxv');
    const word = (at: number): bigint =>
      endianness() === 'LE' ? auxv.readBigUInt64LE(at) : auxv.readBigUInt64BE(at);
    for (let at = 0; at + 16 <= auxv.length; at += 16) {
      const key = word(at);
      const value = Number(word(at + 8));
      if (key === AT_CLKTCK && value > 0) units.clockTicks = value;
      if (key === AT_PAGESZ && value > 0) units.pageSize = value;
    }
  } catch {
    // No /proc/self/auxv to read: the fallbacks stand.
  }
  return units;
}

/** USER_HZ: the clock ticks per second /proc counts CPU time in (100 nearly everywhere). */
export const clockTicksPerSecond = (): number => procUnits().clockTicks;

const errno = (err: unknown): string | undefined => (err as NodeJS.ErrnoException).code;
const gone = (err: unknown): boolean => errno(err) === 'ENOENT' || errno(err) === 'ESRCH';

/** /proc/<pid>/stat's fields after the command name (which may hold spaces and parentheses). */
function statFields(pid: number): string[] | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return text.slice(text.lastIndexOf(')') + 2).split(' ');
  } catch (err) {
    if (gone(err)) return null;
    throw err;
  }
}

/**
 * Open file descriptors of a process: since Linux 6.2 the size of /proc/<pid>/fd is their
 * count (one stat); older kernels report 0 there, then the directory is listed. Null when
 * this user may not look (another user's process).
 */
function openFiles(pid: number): number | null {
  try {
    const size = statSync(`/proc/${pid}/fd`).size;
    return size > 0 ? size : readdirSync(`/proc/${pid}/fd`).length;
  } catch (err) {
    if (errno(err) === 'EACCES' || errno(err) === 'EPERM' || gone(err)) return null;
    throw err;
  }
}

/** A process's counters, or null when it no longer exists. */
export function readCounters(pid: number): ProcessCounters | null {
  const f = statFields(pid);
  if (!f) return null;
  const { clockTicks, pageSize } = procUnits();
  // proc(5) field numbers minus 3 (pid and comm come before the slice).
  const num = (field: number): number => Number(f[field - 3]);
  return {
    ppid: num(4),
    userSeconds: num(14) / clockTicks,
    systemSeconds: num(15) / clockTicks,
    childUserSeconds: num(16) / clockTicks,
    childSystemSeconds: num(17) / clockTicks,
    threads: num(20),
    rssBytes: num(24) * pageSize,
    openFiles: openFiles(pid),
  };
}

/** The process's command name (comm, at most 15 characters), or null when it is gone. */
export function processName(pid: number): string | null {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return null;
  }
}

/** The parent's pid, or null when the process is gone. */
export function parentOf(pid: number): number | null {
  const f = statFields(pid);
  return f ? Number(f[1]) : null;
}

/** The uid owning a process, or null when it is gone. */
export function ownerOf(pid: number): number | null {
  try {
    return statSync(`/proc/${pid}`).uid;
  } catch {
    return null;
  }
}

/** Kernels built without CONFIG_PROC_CHILDREN lack /proc/<pid>/task/<tid>/children. */
const childrenFiles = procfsSupported && existsSync(`/proc/self/task/${process.pid}/children`);

/**
 * Direct children, from /proc/<pid>/task/<tid>/children (each thread lists the children it
 * forked); without those files, by looking up every process's parent (a scan of /proc).
 */
function childrenOf(pid: number): number[] {
  if (!childrenFiles) {
    return readdirSync('/proc')
      .filter((name) => /^\d+$/.test(name) && parentOf(Number(name)) === pid)
      .map(Number);
  }
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  const out: number[] = [];
  for (const tid of tasks) {
    try {
      const text = readFileSync(`/proc/${pid}/task/${tid}/children`, 'latin1');
      for (const c of text.split(' ')) if (c.trim() !== '') out.push(Number(c));
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return out;
}

/** The root and its descendants, breadth first, at most `max` pids. */
export function processTree(root: number, max: number): { pids: number[]; truncated: boolean } {
  const pids = [root];
  for (let i = 0; i < pids.length && pids.length < max; i++) {
    for (const c of childrenOf(pids[i]!)) {
      if (pids.length >= max) return { pids, truncated: true };
      pids.push(c);
    }
  }
  return { pids, truncated: false };
}

/**
 * The top of a server's process family: from the process holding the socket, up through
 * parents with the same command name (an nginx worker to its master, an Apache child to the
 * parent apache2), stopping below init and below a differently named parent (a shell, a
 * supervisor, the test runner).
 */
export function familyRoot(pid: number): number {
  const name = processName(pid);
  let current = pid;
  for (let hops = 0; hops < 16; hops++) {
    const parent = parentOf(current);
    if (parent === null || parent <= 1 || processName(parent) !== name) break;
    current = parent;
  }
  return current;
}
