import { z } from 'zod';

/*
 * The server's side of a run: CPU, memory, threads, open files and load of the target's
 * server, sampled on the host beside the engine (electron/monitor/), on the run's time axis.
 * Schemas of what a RunResult and the live events carry, and the pure math that turns two
 * raw readings into one sample's figures and a run's samples into its summary.
 */

const nonNeg = z.number().nonnegative();
const count = z.number().int().nonnegative();

/** One reading of the server, aligned with the engine Sample it was taken at. */
export const resourceSampleSchema = z.object({
  /** The engine Sample's seq and elapsedSeconds: the same time axis as throughput. */
  seq: count,
  elapsedSeconds: nonNeg,
  /** Wall time this reading's figures cover, since the previous successful reading. */
  intervalSeconds: nonNeg,
  /** True when it covers warm-up time (left out of the summary and the efficiency figure). */
  warmup: z.boolean(),
  /**
   * CPU used in the window, percent of one core (can exceed 100): the process tree's user +
   * system time, or for node_exporter the machine's busy cores (see cpuBusyPercent).
   */
  cpuPercent: nonNeg.optional(),
  cpuUserPercent: nonNeg.optional(),
  cpuSystemPercent: nonNeg.optional(),
  /** CPU-seconds used in the window (the exact counter delta cpuPercent comes from). */
  cpuSeconds: nonNeg.optional(),
  /** node_exporter: busy share of all the machine's cores, 0-100 (top's and Grafana's "CPU busy"). */
  cpuBusyPercent: nonNeg.optional(),
  /** Process tree: resident memory summed over its processes (shared pages count in each). */
  rssBytes: nonNeg.optional(),
  threads: count.optional(),
  openFiles: count.optional(),
  processes: count.optional(),
  /** node_exporter: MemTotal - MemAvailable, and MemTotal. */
  memoryUsedBytes: nonNeg.optional(),
  memoryTotalBytes: nonNeg.optional(),
  load1: nonNeg.optional(),
  load5: nonNeg.optional(),
  load15: nonNeg.optional(),
  /** node_exporter: bytes per second over the network devices (loopback left out). */
  netInBytesPerSecond: nonNeg.optional(),
  netOutBytesPerSecond: nonNeg.optional(),
  /** Why this tick has no reading, or only part of one ("scrape timed out after 2 s"). */
  gap: z.string().max(500).optional(),
});
export type ResourceSample = z.infer<typeof resourceSampleSchema>;

/** The figures a summary and a chart can show, in the order reports list them. */
export const RESOURCE_FIGURES = [
  'cpuPercent',
  'cpuUserPercent',
  'cpuSystemPercent',
  'cpuBusyPercent',
  'rssBytes',
  'threads',
  'openFiles',
  'processes',
  'memoryUsedBytes',
  'load1',
  'load5',
  'load15',
  'netInBytesPerSecond',
  'netOutBytesPerSecond',
] as const satisfies readonly (keyof ResourceSample)[];
export type ResourceFigure = (typeof RESOURCE_FIGURES)[number];

/** Labels with units, for tables, CSV headers and chart legends. */
export const RESOURCE_FIGURE_LABELS: Readonly<Record<ResourceFigure, string>> = {
  cpuPercent: 'CPU (% of a core)',
  cpuUserPercent: 'CPU user (% of a core)',
  cpuSystemPercent: 'CPU system (% of a core)',
  cpuBusyPercent: 'CPU busy (% of all cores)',
  rssBytes: 'RSS (B)',
  threads: 'threads',
  openFiles: 'open files',
  processes: 'processes',
  memoryUsedBytes: 'memory used (B)',
  load1: 'load 1m',
  load5: 'load 5m',
  load15: 'load 15m',
  netInBytesPerSecond: 'network in (B/s)',
  netOutBytesPerSecond: 'network out (B/s)',
};

const processInfoSchema = z.object({
  pid: z.number().int().positive(),
  name: z.string().max(64),
});

/** What was sampled and how. */
export const resourceSourceSchema = z.discriminatedUnion('method', [
  z.object({
    method: z.literal('process'),
    /** port: the process listening on the target's port (and its tree); pid: the one the user gave. */
    found: z.enum(['port', 'pid']),
    port: z.number().int().nullable(),
    platform: z.string(),
    /** How the figures are read: Linux /proc (no process is started per tick). */
    reader: z.literal('procfs'),
    /** The tree's root: the listener's topmost ancestor with the same name (nginx master, apache2 parent). */
    rootPid: z.number().int().positive(),
    /** Every process seen in the tree during the run (bounded). */
    processes: z.array(processInfoSchema).max(1024),
  }),
  z.object({
    method: z.literal('node-exporter'),
    url: z.string(),
    /** CPUs the exporter reported (node_cpu_seconds_total's cpu label). */
    cpuCount: z.number().int().nonnegative().nullable(),
  }),
  /** Nothing sampled: monitor off, a remote target without an exporter, or the start failed (reason). */
  z.object({ method: z.literal('none'), reason: z.string() }),
]);
export type ResourceSource = z.infer<typeof resourceSourceSchema>;

export const figureStatsSchema = z.object({ mean: nonNeg, max: nonNeg });
export type FigureStats = z.infer<typeof figureStatsSchema>;

export const resourceGapSchema = z.object({
  reason: z.string().max(500),
  count: count,
  /** The first tick it happened at (seconds into the run). */
  firstElapsedSeconds: nonNeg,
});
export type ResourceGap = z.infer<typeof resourceGapSchema>;

/** A run's server resources: the series, the summary, the efficiency figure and how they were got. */
export const serverResourcesSchema = z.object({
  source: resourceSourceSchema,
  /** Readings were at least this far apart (they fall on engine ticks). */
  minIntervalMs: z.number().int().positive(),
  samples: z.array(resourceSampleSchema),
  /** Mean and max of each figure over the measured samples (warm-up excluded). */
  summary: z.partialRecord(z.enum(RESOURCE_FIGURES), figureStatsSchema),
  /** CPU-seconds used during the measured time (the process tree's, or the whole machine's). */
  cpuSeconds: nonNeg.nullable(),
  /**
   * Server CPU-seconds per 10,000 requests (the run's requests.total): which server spent the
   * least CPU for the same work. Null when the readings do not cover the measured time.
   */
  cpuSecondsPer10kRequests: nonNeg.nullable(),
  /** Ticks without a reading, grouped by reason. */
  gaps: z.array(resourceGapSchema).max(50),
  /** What could not be read or must be known to read the figures (permissions, scope). */
  notes: z.array(z.string().max(500)).max(50),
  /**
   * The monitor's own CPU on the host, percent of one core: its readings' synchronous work
   * (the /proc reads, parsing an exporter's answer). Timers and socket I/O come on top: the
   * whole host process measured 0.14 % of a core for a 3-process tree and 0.44 % for a full
   * node_exporter at a 1 s tick (docs/server-resources.md).
   */
  monitorCpuPercent: nonNeg.nullable(),
});
export type ServerResources = z.infer<typeof serverResourcesSchema>;

// ---------------------------------------------------------------------------------------
// Process readings -> figures

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

const cpuOf = (p: ProcessCounters): number => p.userSeconds + p.systemSeconds;

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

/** Total CPU time of a reading's processes, seconds (for cross-checks against ps). */
export const treeCpuSeconds = (r: ProcessReading): number =>
  [...r.processes.values()].reduce((sum, p) => sum + cpuOf(p), 0);

// ---------------------------------------------------------------------------------------
// node_exporter scrapes -> figures

/** The node_exporter series a sample needs, from one scrape. */
export interface ExporterScrape {
  /** Monotonic time the answer arrived, ms. */
  at: number;
  /** node_cpu_seconds_total by "cpu|mode". */
  cpuSeconds: ReadonlyMap<string, { cpu: string; mode: string; value: number }>;
  load1: number | null;
  load5: number | null;
  load15: number | null;
  memTotalBytes: number | null;
  memAvailableBytes: number | null;
  /** node_network_{receive,transmit}_bytes_total by device. */
  netReceiveBytes: ReadonlyMap<string, number>;
  netTransmitBytes: ReadonlyMap<string, number>;
}

/**
 * Modes that are not busy time. iowait is idle time while a disk request is pending (the core
 * could run anything else), so it is not counted as busy, as top's "us+sy" and Grafana's
 * Node Exporter dashboard do; steal (a hypervisor running another guest) is counted, since
 * the server wanted the core then. guest time is already inside user and nice.
 */
const IDLE_MODES = new Set(['idle', 'iowait']);
const USER_MODES = new Set(['user', 'nice']);
const SYSTEM_MODES = new Set(['system', 'irq', 'softirq']);

/** A counter's growth; a counter that went down was reset (exporter or machine restarted): its new value is the growth. */
const counterDelta = (before: number, now: number): number => (now >= before ? now - before : now);

/** The sum of the growth of every series present in both maps, except excluded keys. */
function sumDeltas(
  prev: ReadonlyMap<string, number>,
  cur: ReadonlyMap<string, number>,
  exclude: ReadonlySet<string> = new Set(),
): number {
  let sum = 0;
  for (const [key, now] of cur) {
    const before = prev.get(key);
    if (before !== undefined && !exclude.has(key)) sum += counterDelta(before, now);
  }
  return sum;
}

/** Number of distinct cpu labels in a scrape. */
export const exporterCpuCount = (s: ExporterScrape): number =>
  new Set([...s.cpuSeconds.values()].map((c) => c.cpu)).size;

/**
 * The figures of a node_exporter sample from two scrapes: CPU from the node_cpu_seconds_total
 * deltas (busy = every mode but idle and iowait), memory used = MemTotal - MemAvailable, load
 * averages as scraped, network bytes per second summed over devices not in `excludeDevices`.
 * A figure whose series are missing is left out.
 */
export function exporterFigures(
  prev: ExporterScrape,
  cur: ExporterScrape,
  excludeDevices: readonly string[],
): Partial<ResourceSample> {
  const seconds = (cur.at - prev.at) / 1000;
  const out: Partial<ResourceSample> = { intervalSeconds: Math.max(0, seconds) };
  let busy = 0;
  let total = 0;
  let user = 0;
  let system = 0;
  let matched = 0;
  for (const [key, now] of cur.cpuSeconds) {
    const before = prev.cpuSeconds.get(key);
    if (!before) continue;
    matched++;
    const d = counterDelta(before.value, now.value);
    total += d;
    if (!IDLE_MODES.has(now.mode)) busy += d;
    if (USER_MODES.has(now.mode)) user += d;
    if (SYSTEM_MODES.has(now.mode)) system += d;
  }
  if (matched > 0 && seconds > 0) {
    out.cpuSeconds = busy;
    out.cpuPercent = (busy / seconds) * 100;
    out.cpuUserPercent = (user / seconds) * 100;
    out.cpuSystemPercent = (system / seconds) * 100;
    // The counters tick in 10 ms steps: busy can read a hair above total; 100 % is the ceiling.
    out.cpuBusyPercent = total > 0 ? Math.min(100, (busy / total) * 100) : 0;
  }
  if (cur.load1 !== null) out.load1 = cur.load1;
  if (cur.load5 !== null) out.load5 = cur.load5;
  if (cur.load15 !== null) out.load15 = cur.load15;
  if (cur.memTotalBytes !== null) {
    out.memoryTotalBytes = cur.memTotalBytes;
    if (cur.memAvailableBytes !== null) {
      out.memoryUsedBytes = Math.max(0, cur.memTotalBytes - cur.memAvailableBytes);
    }
  }
  if (seconds > 0) {
    const exclude = new Set(excludeDevices);
    if (cur.netReceiveBytes.size > 0) {
      out.netInBytesPerSecond = sumDeltas(prev.netReceiveBytes, cur.netReceiveBytes, exclude) / seconds;
    }
    if (cur.netTransmitBytes.size > 0) {
      out.netOutBytesPerSecond = sumDeltas(prev.netTransmitBytes, cur.netTransmitBytes, exclude) / seconds;
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------
// Summary

/** Measured samples cover less than this share of the measured time: no efficiency figure. */
const MIN_COVERAGE = 0.9;

/**
 * Mean and max of each figure over the measured samples (warm-up excluded), the CPU-seconds
 * they add up to, and server CPU-seconds per 10,000 requests. The efficiency figure needs
 * readings that cover the measured time (`measuredSeconds`), else it is null and a note
 * says why: a partial sum would flatter the server.
 */
export function summarizeResources(
  samples: readonly ResourceSample[],
  measured: { seconds: number; requests: number },
): Pick<ServerResources, 'summary' | 'cpuSeconds' | 'cpuSecondsPer10kRequests'> & { note: string | null } {
  const counted = samples.filter((s) => !s.warmup);
  const summary: ServerResources['summary'] = {};
  for (const figure of RESOURCE_FIGURES) {
    const values = counted.map((s) => s[figure]).filter((v): v is number => v !== undefined);
    if (values.length === 0) continue;
    summary[figure] = {
      mean: values.reduce((a, b) => a + b, 0) / values.length,
      max: Math.max(...values),
    };
  }
  const withCpu = counted.filter((s) => s.cpuSeconds !== undefined);
  if (withCpu.length === 0) return { summary, cpuSeconds: null, cpuSecondsPer10kRequests: null, note: null };
  const cpuSeconds = withCpu.reduce((sum, s) => sum + (s.cpuSeconds ?? 0), 0);
  const covered = withCpu.reduce((sum, s) => sum + s.intervalSeconds, 0);
  let note: string | null = null;
  let per10k: number | null = null;
  if (measured.requests === 0) note = 'no requests were measured: no CPU-seconds per 10,000 requests';
  else if (measured.seconds > 0 && covered < measured.seconds * MIN_COVERAGE) {
    note = `CPU readings cover ${covered.toFixed(1)} s of the ${measured.seconds.toFixed(1)} s measured: no CPU-seconds per 10,000 requests`;
  } else per10k = (cpuSeconds / measured.requests) * 10_000;
  return { summary, cpuSeconds, cpuSecondsPer10kRequests: per10k, note };
}

/** Groups tick gaps by reason, keeping the first tick each happened at (bounded). */
export function groupGaps(samples: readonly ResourceSample[], max = 50): ResourceGap[] {
  const byReason = new Map<string, ResourceGap>();
  for (const s of samples) {
    if (s.gap === undefined) continue;
    const g = byReason.get(s.gap);
    if (g) g.count++;
    else if (byReason.size < max)
      byReason.set(s.gap, { reason: s.gap, count: 1, firstElapsedSeconds: s.elapsedSeconds });
  }
  return [...byReason.values()];
}
