import type { ResourceSample } from './resources.ts';

/* A process tree's figures (CPU, memory, threads, open files) from two readings of its counters. Pure. */

/** Cumulative counters of one process, as read at one instant. */
export interface ProcessCounters {
  ppid: number;
  /** CPU time since the process started, seconds. */
  userSeconds: number;
  systemSeconds: number;
  /** CPU time of its children that exited and were waited for (they leave the tree with it). */
  childUserSeconds: number;
  childSystemSeconds: number;
  rssBytes: number;
  threads: number;
  /** Null when the reader may not look (another user's process). */
  openFiles: number | null;
}

/** One reading of a process tree. */
export interface ProcessReading {
  /** Monotonic time of the reading, ms. */
  at: number;
  rootPid: number;
  processes: ReadonlyMap<number, ProcessCounters>;
}

/**
 * CPU the tree used between two readings, user and system apart: the growth of every process
 * seen in both; the whole time of a process new in `cur` (it started after `prev`, or joined
 * the tree); and for children of the root that exited in between, what the root's waited-for
 * children counters grew by beyond what those children had already been counted at (an Apache
 * or nginx worker that exits is reaped by its parent, so its last moments still count).
 */
export function processCpuDelta(
  prev: ProcessReading,
  cur: ProcessReading,
): { userSeconds: number; systemSeconds: number } {
  let user = 0;
  let system = 0;
  for (const [pid, now] of cur.processes) {
    const before = prev.processes.get(pid);
    if (before) {
      user += Math.max(0, now.userSeconds - before.userSeconds);
      system += Math.max(0, now.systemSeconds - before.systemSeconds);
    } else {
      user += now.userSeconds;
      system += now.systemSeconds;
    }
  }
  const rootBefore = prev.processes.get(prev.rootPid);
  const rootNow = cur.processes.get(cur.rootPid);
  if (rootBefore && rootNow && prev.rootPid === cur.rootPid) {
    let countedUser = 0;
    let countedSystem = 0;
    for (const [pid, before] of prev.processes) {
      if (!cur.processes.has(pid) && before.ppid === prev.rootPid) {
        countedUser += before.userSeconds;
        countedSystem += before.systemSeconds;
      }
    }
    user += Math.max(0, rootNow.childUserSeconds - rootBefore.childUserSeconds - countedUser);
    system += Math.max(0, rootNow.childSystemSeconds - rootBefore.childSystemSeconds - countedSystem);
  }
  return { userSeconds: user, systemSeconds: system };
}

/** The figures of a process-tree sample from two readings (CPU from the pair, the rest from `cur`). */
export function processFigures(prev: ProcessReading, cur: ProcessReading): Partial<ResourceSample> {
  const seconds = (cur.at - prev.at) / 1000;
  const cpu = processCpuDelta(prev, cur);
  let rss = 0;
  let threads = 0;
  let openFiles: number | undefined = 0;
  for (const p of cur.processes.values()) {
    rss += p.rssBytes;
    threads += p.threads;
    openFiles = p.openFiles === null || openFiles === undefined ? undefined : openFiles + p.openFiles;
  }
  const pct = (s: number): number => (seconds > 0 ? (s / seconds) * 100 : 0);
  return {
    intervalSeconds: Math.max(0, seconds),
    cpuSeconds: cpu.userSeconds + cpu.systemSeconds,
    cpuPercent: pct(cpu.userSeconds + cpu.systemSeconds),
    cpuUserPercent: pct(cpu.userSeconds),
    cpuSystemPercent: pct(cpu.systemSeconds),
    rssBytes: rss,
    threads,
    ...(openFiles === undefined ? {} : { openFiles }),
    processes: cur.processes.size,
  };
}
