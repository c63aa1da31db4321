/**
 * Every default in one place: the schema, the UI's initial form and the CLI's help derive
 * from these values, so they cannot drift apart.
 */
export const DEFAULTS = {
  method: 'GET',
  closed: {
    connections: 10,
    pipelining: 1,
    durationSeconds: 10,
  },
  open: {
    rate: 100,
    durationSeconds: 5,
    maxInFlight: 1000,
  },
  keepAlive: true,
  protocol: 'http1.1',
  engine: 'auto',
  timeoutMs: 10_000,
  warmupSeconds: 0,
  sampleIntervalMs: 1000,
  tls: {
    verify: true,
  },
  /** How a target's server is watched (shared/monitor.ts): 'auto' = its process when it runs on this machine, else nothing. */
  monitor: {
    kind: 'auto',
    /**
     * Readings are at least this far apart: a 100 ms engine tick would otherwise read /proc or
     * scrape a node_exporter ten times a second. Readings fall on engine ticks (the run's time
     * axis), so a shorter sample interval gives a resource sample every few ticks.
     */
    minIntervalMs: 1000,
    /** A node_exporter scrape slower than this is a gap (never a failed run). */
    exporterTimeoutMs: 2000,
    /** node_exporter sends 50-300 KB; a larger answer is a gap, never read further. */
    exporterMaxBytes: 8 * 1024 * 1024,
    /** Series of the families used (CPU modes x cores, network devices); more is a gap. */
    exporterMaxSeries: 50_000,
    /** Network devices left out of the in/out rates (loopback traffic is not the server's network). */
    excludeDevices: ['lo'],
    /** Processes of one tree sampled at most (nginx, Apache children); the rest is a named gap. */
    maxProcesses: 1024,
  },
  comparison: {
    /** Repetitions per cell: at least 2 give a spread to tell a difference from noise. */
    repetitions: 3,
    pauseSeconds: 0,
  },
} as const;

export const LIMITS = {
  connections: { min: 1, max: 10_000 },
  pipelining: { min: 1, max: 1000 },
  durationSeconds: { min: 0.1, max: 24 * 3600 },
  requests: { min: 1, max: 1_000_000_000 },
  rate: { min: 0.1, max: 1_000_000 },
  maxInFlight: { min: 1, max: 100_000 },
  timeoutMs: { min: 1, max: 3_600_000 },
  warmupSeconds: { min: 0, max: 3600 },
  sampleIntervalMs: { min: 100, max: 60_000 },
  sloMs: { min: 0.001, max: 3_600_000 },
  repetitions: { min: 1, max: 100 },
  pauseSeconds: { min: 0, max: 3600 },
  /** Process ids: Linux allows up to 2^22, Windows larger ones. */
  pid: { min: 1, max: 2 ** 31 - 1 },
} as const;

/** ab's percentile table plus the tail (99.9, 99.99). Order matters: reports print it as is. */
export const REPORT_PERCENTILES = [50, 66, 75, 80, 90, 95, 98, 99, 99.9, 99.99, 100] as const;
