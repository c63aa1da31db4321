import { z } from 'zod';

/*
 * The server's side of a run: CPU, memory, threads, open files and load of the target's
 * server, sampled on the host beside the engine (electron/monitor/), on the run's time axis.
 * Schemas of what a RunResult and the live events carry (the summary of a run's readings is
 * shared/resources/summary.ts's).
 * Two raw readings become one sample's figures in shared/resources/process.ts (a process tree) and
 * shared/resources/exporter.ts (node_exporter). Pure.
 */

const nonNeg = z.number().nonnegative();
const count = z.number().int().nonnegative();

/** One reading of the server, aligned with the engine Sample it was taken at. */
export const resourceSampleSchema = z.strictObject({
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
  /**
   * Process tree: the busiest serving process's CPU in the window, % of one core (its workers:
   * the tree less a root that has children). One worker flat while the others idle is a limit
   * of the server's configuration, not of the machine.
   */
  busiestCpuPercent: nonNeg.optional(),
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
  'busiestCpuPercent',
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
  busiestCpuPercent: 'busiest process CPU (% of a core)',
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

const processInfoSchema = z.strictObject({
  pid: z.number().int().positive(),
  name: z.string().max(64),
});

/** What was sampled and how. */
export const resourceSourceSchema = z.discriminatedUnion('method', [
  z.strictObject({
    method: z.literal('process'),
    /**
     * port: the process listening on the target's port (and its tree); unix-socket: the one
     * listening on its unix socket; pid: the one the user gave.
     */
    found: z.enum(['port', 'unix-socket', 'pid']),
    port: z.number().int().nullable(),
    /** The unix socket the process listens on (found 'unix-socket'). */
    socketPath: z.string().optional(),
    platform: z.string(),
    /** How the figures are read: Linux /proc (no process is started per tick). */
    reader: z.literal('procfs'),
    /** The tree's root: the listener's topmost ancestor with the same name (nginx master, apache2 parent). */
    rootPid: z.number().int().positive(),
    /** Every process seen in the tree during the run (bounded). */
    processes: z.array(processInfoSchema).max(1024),
  }),
  z.strictObject({
    method: z.literal('node-exporter'),
    url: z.string(),
    /** CPUs the exporter reported (node_cpu_seconds_total's cpu label). */
    cpuCount: z.number().int().nonnegative().nullable(),
  }),
  /** Nothing sampled: monitor off, a remote target without an exporter, or the start failed (reason). */
  z.strictObject({ method: z.literal('none'), reason: z.string() }),
]);
export type ResourceSource = z.infer<typeof resourceSourceSchema>;

export const figureStatsSchema = z.strictObject({ mean: nonNeg, max: nonNeg });
export type FigureStats = z.infer<typeof figureStatsSchema>;

export const resourceGapSchema = z.strictObject({
  reason: z.string().max(500),
  count: count,
  /** The first tick it happened at (seconds into the run). */
  firstElapsedSeconds: nonNeg,
});
export type ResourceGap = z.infer<typeof resourceGapSchema>;

/**
 * A process tree's serving processes over the measured time (the tree less a root that has
 * children): how many there were, how many ran flat out (VERDICT.serverProcessFlatPercent of a
 * core on average) and the busiest ("busiest worker 99%, 1 of 4 busy").
 */
export const serverWorkersSchema = z.strictObject({
  count: count,
  busy: count,
  busiest: z.strictObject({
    pid: z.number().int().positive(),
    name: z.string().max(64),
    cpuPercentMean: nonNeg,
    cpuPercentMax: nonNeg,
  }),
});
export type ServerWorkers = z.infer<typeof serverWorkersSchema>;

/** A run's server resources: the series, the summary, the efficiency figure and how they were got. */
export const serverResourcesSchema = z.strictObject({
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
  /** A process tree's serving processes (absent for an exporter, and in results saved before it existed). */
  workers: serverWorkersSchema.optional(),
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
