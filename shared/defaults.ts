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
  /** Engine worker threads: 'auto' = the machine's cores, less one when the target is on it (see shared/shard-plan.ts). */
  workers: 'auto',
  timeoutMs: 10_000,
  warmupSeconds: 0,
  sampleIntervalMs: 1000,
  tls: {
    verify: true,
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
  workers: { min: 1, max: 256 },
  timeoutMs: { min: 1, max: 3_600_000 },
  warmupSeconds: { min: 0, max: 3600 },
  sampleIntervalMs: { min: 100, max: 60_000 },
  sloMs: { min: 0.001, max: 3_600_000 },
  repetitions: { min: 1, max: 100 },
  pauseSeconds: { min: 0, max: 3600 },
} as const;

/** ab's percentile table plus the tail (99.9, 99.99). Order matters: reports print it as is. */
export const REPORT_PERCENTILES = [50, 66, 75, 80, 90, 95, 98, 99, 99.9, 99.99, 100] as const;
