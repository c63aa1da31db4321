import type { ResourceSample } from '../model/server-resources.ts';

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
 * CPU each process of the tree used between two readings, user and system apart: the growth
 * of every process seen in both; the whole time of a process new in `cur` (it started after
 * `prev`, or joined the tree); and for children of the root that exited in between, what the
 * root's waited-for children counters grew by beyond what those children had already been
 * counted at, charged to the root (an Apache or nginx worker that exits is reaped by its
 * parent, so its last moments still count).
 */
export function processCpuByPid(
  prev: ProcessReading,
  cur: ProcessReading,
): Map<number, { userSeconds: number; systemSeconds: number }> {
  const out = new Map<number, { userSeconds: number; systemSeconds: number }>();
  for (const [pid, now] of cur.processes) {
    const before = prev.processes.get(pid);
    out.set(
      pid,
      before
        ? {
            userSeconds: Math.max(0, now.userSeconds - before.userSeconds),
            systemSeconds: Math.max(0, now.systemSeconds - before.systemSeconds),
          }
        : { userSeconds: now.userSeconds, systemSeconds: now.systemSeconds },
    );
  }
  const rootBefore = prev.processes.get(prev.rootPid);
  const rootNow = cur.processes.get(cur.rootPid);
  const root = out.get(cur.rootPid);
  if (rootBefore && rootNow && root && prev.rootPid === cur.rootPid) {
    let countedUser = 0;
    let countedSystem = 0;
    for (const [pid, before] of prev.processes) {
      if (!cur.processes.has(pid) && before.ppid === prev.rootPid) {
        countedUser += before.userSeconds;
        countedSystem += before.systemSeconds;
      }
    }
    root.userSeconds += Math.max(0, rootNow.childUserSeconds - rootBefore.childUserSeconds - countedUser);
    root.systemSeconds += Math.max(
      0,
      rootNow.childSystemSeconds - rootBefore.childSystemSeconds - countedSystem,
    );
  }
  return out;
}

/**
 * The processes that serve: the tree's, less a root that has children (nginx's master,
 * Apache's parent, a cluster's primary: they start and watch workers, they do not serve).
 */
export function workerPids(reading: ProcessReading): number[] {
  const pids = [...reading.processes.keys()];
  const rootHasChildren = [...reading.processes.values()].some((p) => p.ppid === reading.rootPid);
  return rootHasChildren ? pids.filter((pid) => pid !== reading.rootPid) : pids;
}

/** The figures of a process-tree sample from two readings (CPU from the pair, the rest from `cur`). */
export function processFigures(
  prev: ProcessReading,
  cur: ProcessReading,
  byPid = processCpuByPid(prev, cur),
): Partial<ResourceSample> {
  const seconds = (cur.at - prev.at) / 1000;
  let busiestSeconds = 0;
  for (const pid of workerPids(cur)) {
    const p = byPid.get(pid);
    if (p) busiestSeconds = Math.max(busiestSeconds, p.userSeconds + p.systemSeconds);
  }
  let user = 0;
  let system = 0;
  for (const p of byPid.values()) {
    user += p.userSeconds;
    system += p.systemSeconds;
  }
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
    cpuSeconds: user + system,
    cpuPercent: pct(user + system),
    cpuUserPercent: pct(user),
    cpuSystemPercent: pct(system),
    busiestCpuPercent: pct(busiestSeconds),
    rssBytes: rss,
    threads,
    ...(openFiles === undefined ? {} : { openFiles }),
    processes: cur.processes.size,
  };
}
