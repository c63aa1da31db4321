import { OTHER_PROCESSES_SHOWN, type MachineSample, type OtherProcess } from '../model/machine-facts.ts';
import { fixed } from '../figures/units.ts';

/*
 * A machine reading's figures from two readings of its counters: the CPU split of the whole
 * machine, the generator's process tree and busiest thread, the other processes' CPU and the
 * link's traffic. The counters come from electron/machine/ (Linux /proc, or os.cpus()
 * elsewhere) or, in tests, from a stand-in. Pure.
 */

/** The machine's cumulative CPU time by mode, seconds summed over its cores. */
export interface CpuTimes {
  user: number;
  nice: number;
  system: number;
  idle: number;
  iowait: number;
  irq: number;
  softirq: number;
  steal: number;
}

/** One process's cumulative counters, as read at one instant. */
export interface ProcessTimes {
  ppid: number;
  name: string;
  /** Its user + system time, seconds (every thread). */
  seconds: number;
  /** Its waited-for children's user + system time, seconds (they leave the process list with it). */
  childSeconds: number;
  /** When it started (clock ticks since boot): a pid reused by a new process is a new process. */
  start: number;
  /** A kernel thread (kworker, ksoftirqd): work the kernel does, often for the load itself; never an "other" process. */
  kernel: boolean;
}

/** One thread of the generator's process. */
export interface ThreadTimes {
  name: string;
  seconds: number;
}

/** Everything one machine reading reads, at one instant. */
export interface MachineCounters {
  /** Monotonic time of the reading, ms. */
  at: number;
  cores: number;
  cpu: CpuTimes;
  /** Every process by pid, where the OS lists them (Linux); null elsewhere. */
  processes: ReadonlyMap<number, ProcessTimes> | null;
  /** The generator's own threads by tid (Linux); null elsewhere. */
  threads: ReadonlyMap<number, ThreadTimes> | null;
  /** The generator process's own CPU seconds, where processes are not listed. */
  selfSeconds: number;
  /** The link's device's byte counters, for a target past this machine with a known link. */
  link: { rxBytes: number; txBytes: number } | null;
  /**
   * A light reading's process list: the pids it asked for (the generator's and the server's
   * processes as the last full reading knew them), `processes` holding those still there.
   * Absent when every process was read.
   */
  only?: ReadonlySet<number>;
}

/** Whose processes are whose: the generator's is this process, the server's the monitored tree's root. */
export interface MachineRoles {
  selfPid: number;
  /** The root of the server's process tree on this machine; null when it is not here or not known. */
  serverRoot: number | null;
}

/** One reading's figures, and the CPU-seconds per process and thread they came from (for the run's summary). */
export interface MachineWindow {
  figures: Omit<MachineSample, 'seq' | 'elapsedSeconds' | 'warmup'>;
  /** The other processes' CPU-seconds in the window, by pid. */
  others: Map<number, { name: string; seconds: number }>;
  /** The generator's threads' CPU-seconds in the window, by tid. */
  threads: Map<number, { name: string; seconds: number }>;
  /** The server's process tree includes the generator's process (a server inside the test's own process). */
  serverInGenerator: boolean;
}

const MODES = ['user', 'nice', 'system', 'idle', 'iowait', 'irq', 'softirq', 'steal'] as const;

/** The machine's CPU between two readings as shares of all its cores (0-100). */
export function cpuShares(
  prev: CpuTimes,
  cur: CpuTimes,
): Pick<MachineSample, 'cpuBusyPercent' | 'cpuIdlePercent' | 'cpuIowaitPercent' | 'cpuStealPercent'> {
  const d = {} as Record<(typeof MODES)[number], number>;
  for (const m of MODES) d[m] = Math.max(0, cur[m] - prev[m]);
  const total = MODES.reduce((sum, m) => sum + d[m], 0);
  const pct = (s: number): number => (total > 0 ? (s / total) * 100 : 0);
  return {
    // Steal counts as busy: the core was wanted, the hypervisor gave it to another guest.
    cpuBusyPercent: pct(d.user + d.nice + d.system + d.irq + d.softirq + d.steal),
    cpuIdlePercent: pct(d.idle),
    cpuIowaitPercent: pct(d.iowait),
    cpuStealPercent: pct(d.steal),
  };
}

/**
 * CPU-seconds each process used between two readings: the growth of one seen in both; the
 * whole time of one new in `cur`; and for a process whose descendants exited in between, what
 * its waited-for children's counter grew by beyond what they had been seen at (a `make` whose
 * compilers come and go is charged with their last moments, never twice). An exited process's
 * time reaches its parent's counter, and, when the parent exited too, the grandparent's: so
 * what it was seen at is taken off its nearest ancestor still there.
 */
export function processSeconds(
  prev: ReadonlyMap<number, ProcessTimes>,
  cur: ReadonlyMap<number, ProcessTimes>,
): Map<number, number> {
  const here = (pid: number): boolean => {
    const a = prev.get(pid);
    const b = cur.get(pid);
    return a !== undefined && b !== undefined && a.start === b.start;
  };
  const seenGone = new Map<number, number>();
  for (const [pid, p] of prev) {
    if (here(pid)) continue;
    let up = p.ppid;
    // Bounded: a parent chain is a tree's depth, and a reused pid could make a loop.
    for (let hops = 0; hops < 64 && prev.has(up) && !here(up); hops++) up = prev.get(up)!.ppid;
    seenGone.set(up, (seenGone.get(up) ?? 0) + p.seconds + p.childSeconds);
  }
  const out = new Map<number, number>();
  for (const [pid, c] of cur) {
    const p = prev.get(pid);
    if (!p || !here(pid)) {
      out.set(pid, c.seconds);
      continue;
    }
    const reaped = c.childSeconds - p.childSeconds - (seenGone.get(pid) ?? 0);
    out.set(pid, Math.max(0, c.seconds - p.seconds) + Math.max(0, reaped));
  }
  return out;
}

/** A process and every descendant of it in this process list. */
export function treeOf(root: number, processes: ReadonlyMap<number, ProcessTimes>): Set<number> {
  const children = new Map<number, number[]>();
  for (const [pid, p] of processes) {
    const list = children.get(p.ppid);
    if (list) list.push(pid);
    else children.set(p.ppid, [pid]);
  }
  const out = new Set<number>();
  if (!processes.has(root)) return out;
  const todo = [root];
  for (let pid = todo.pop(); pid !== undefined; pid = todo.pop()) {
    if (out.has(pid)) continue;
    out.add(pid);
    todo.push(...(children.get(pid) ?? []));
  }
  return out;
}

/** The busiest processes first, at most `max`, each as % of one core over `seconds`. */
export function busiest(
  byPid: ReadonlyMap<number, { name: string; seconds: number }>,
  seconds: number,
  max = OTHER_PROCESSES_SHOWN,
): OtherProcess[] {
  return [...byPid]
    .filter(([, p]) => p.seconds > 0)
    .sort(([pa, a], [pb, b]) => b.seconds - a.seconds || pa - pb)
    .slice(0, max)
    .map(([pid, p]) => ({ name: p.name, pid, cpuPercent: seconds > 0 ? (p.seconds / seconds) * 100 : 0 }));
}

/** Whose CPU the processes of two process lists used between them. */
export interface ProcessShares {
  generatorSeconds: number;
  serverSeconds: number;
  /** Processes neither the generator's nor the server's nor the kernel's, by pid (those that used any). */
  others: Map<number, { name: string; seconds: number }>;
  otherSeconds: number;
  serverInGenerator: boolean;
}

/** The CPU-seconds between two process lists of the generator's tree, the server's tree and the others. */
export function processShares(
  prev: ReadonlyMap<number, ProcessTimes>,
  cur: ReadonlyMap<number, ProcessTimes>,
  roles: MachineRoles,
): ProcessShares {
  const used = processSeconds(prev, cur);
  const generator = treeOf(roles.selfPid, cur);
  const server = roles.serverRoot === null ? new Set<number>() : treeOf(roles.serverRoot, cur);
  const out: ProcessShares = {
    generatorSeconds: 0,
    serverSeconds: 0,
    others: new Map(),
    otherSeconds: 0,
    serverInGenerator: server.has(roles.selfPid),
  };
  for (const [pid, s] of used) {
    const p = cur.get(pid)!;
    if (generator.has(pid)) out.generatorSeconds += s;
    else if (server.has(pid)) out.serverSeconds += s;
    else if (p.kernel) continue;
    else {
      out.otherSeconds += s;
      if (s > 0) out.others.set(pid, { name: p.name, seconds: s });
    }
  }
  return out;
}

/** The machine's busy CPU-seconds between two readings that processes can have used (steal is other guests'). */
function processBusySeconds(prev: CpuTimes, cur: CpuTimes): number {
  const modes = ['user', 'nice', 'system', 'irq', 'softirq'] as const;
  return modes.reduce((sum, m) => sum + Math.max(0, cur[m] - prev[m]), 0);
}

/** A process list cut to the pids in `asked`. */
const within = (
  processes: ReadonlyMap<number, ProcessTimes>,
  asked: ReadonlySet<number> | undefined,
): ReadonlyMap<number, ProcessTimes> =>
  asked === undefined ? processes : new Map([...processes].filter(([pid]) => asked.has(pid)));

/**
 * The figures of the machine between two readings, with whose processes are whose. When
 * either reading was light (MachineCounters.only), the others are not read one by one: their
 * CPU is the machine's busy time less the generator's and the server's (/proc/stat's
 * remainder: it holds the kernel's threads and interrupts too, so it reads at least what the
 * others used), and none is named.
 */
export function machineWindow(
  prev: MachineCounters,
  cur: MachineCounters,
  roles: MachineRoles,
): MachineWindow {
  const seconds = Math.max(0, (cur.at - prev.at) / 1000);
  const pct = (s: number): number => (seconds > 0 ? (s / seconds) * 100 : 0);
  let others = new Map<number, { name: string; seconds: number }>();
  let generatorSeconds = Math.max(0, cur.selfSeconds - prev.selfSeconds);
  let serverInGenerator = false;
  let otherFigures: Pick<MachineWindow['figures'], 'otherCpuPercent' | 'otherProcesses'> = {};
  if (prev.processes && cur.processes) {
    if (prev.only === undefined && cur.only === undefined) {
      const shares = processShares(prev.processes, cur.processes, roles);
      others = shares.others;
      otherFigures = { otherCpuPercent: pct(shares.otherSeconds), otherProcesses: busiest(others, seconds) };
      ({ generatorSeconds, serverInGenerator } = shares);
    } else {
      // Only the pids both readings asked for compare: one missing from a light reading was not asked.
      const asked =
        prev.only && cur.only
          ? new Set([...prev.only].filter((pid) => cur.only!.has(pid)))
          : (prev.only ?? cur.only);
      const shares = processShares(within(prev.processes, asked), within(cur.processes, asked), roles);
      const rest = processBusySeconds(prev.cpu, cur.cpu) - shares.generatorSeconds - shares.serverSeconds;
      otherFigures = { otherCpuPercent: pct(Math.max(0, rest)) };
      ({ generatorSeconds, serverInGenerator } = shares);
    }
  }
  const threads = new Map<number, { name: string; seconds: number }>();
  if (prev.threads && cur.threads) {
    for (const [tid, t] of cur.threads) {
      const before = prev.threads.get(tid);
      threads.set(tid, { name: t.name, seconds: Math.max(0, t.seconds - (before?.seconds ?? 0)) });
    }
  }
  const [thread] = busiest(threads, seconds, 1);
  const link =
    prev.link && cur.link && seconds > 0
      ? {
          linkInBitsPerSecond: (Math.max(0, cur.link.rxBytes - prev.link.rxBytes) * 8) / seconds,
          linkOutBitsPerSecond: (Math.max(0, cur.link.txBytes - prev.link.txBytes) * 8) / seconds,
        }
      : {};
  return {
    figures: {
      intervalSeconds: seconds,
      cores: cur.cores,
      ...cpuShares(prev.cpu, cur.cpu),
      generatorCpuPercent: pct(generatorSeconds),
      ...(thread ? { generatorThread: { name: thread.name, cpuPercent: thread.cpuPercent } } : {}),
      ...otherFigures,
      ...link,
    },
    others,
    threads,
    serverInGenerator,
  };
}

/**
 * The first window of a run as the run's own: the baseline is read before the engine starts
 * (its thread, the pre-flight: 0.3-3 s), so the window is longer than the load's `seconds`
 * (the engine's elapsed time at its first tick). Its shares stay as read (the machine and its
 * other processes went on the same), but it counts as `seconds` of the run: its per-process
 * and per-thread CPU-seconds shrink in proportion, and the link's traffic, the load's own,
 * is over the load's time.
 */
export function windowOver(w: MachineWindow, seconds: number): MachineWindow {
  const was = w.figures.intervalSeconds;
  if (was <= seconds || seconds <= 0) return w;
  const k = seconds / was;
  const scaled = (m: Map<number, { name: string; seconds: number }>) =>
    new Map([...m].map(([id, p]) => [id, { name: p.name, seconds: p.seconds * k }]));
  const { linkInBitsPerSecond: linkIn, linkOutBitsPerSecond: linkOut, ...figures } = w.figures;
  return {
    ...w,
    figures: {
      ...figures,
      intervalSeconds: seconds,
      ...(linkIn === undefined ? {} : { linkInBitsPerSecond: linkIn / k }),
      ...(linkOut === undefined ? {} : { linkOutBitsPerSecond: linkOut / k }),
    },
    others: scaled(w.others),
    threads: scaled(w.threads),
  };
}

/** "yes (pid 4242) 97.0%, node tsc (pid 77) 3.1%" */
export function otherProcessesText(list: readonly OtherProcess[]): string {
  return list.map((p) => `${p.name} (pid ${p.pid}) ${fixed(p.cpuPercent, 1)}%`).join(', ');
}
