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
  comparison: {
    /** Repetitions per cell: at least 2 give a spread to tell a difference from noise. */
    repetitions: 3,
    pauseSeconds: 0,
    /** The matrix's columns when a plan names none (see shared/report-settings.ts). */
    columns: [
      'runs',
      'rps',
      'rpsStdev',
      'rpsMin',
      'rpsMax',
      'p50',
      'p95',
      'p99',
      'failed',
      'success',
      'verdict',
    ],
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
} as const;

/**
 * When a result's figures stop being the server's (shared/verdict.ts). Shares are percent of
 * the requests concerned: scheduled ones for the rate, finished ones for failures.
 */
export const VERDICT = {
  /** Open model: late or dropped requests above this share of the scheduled ones: the rate was not reached. */
  rateShortfallPercent: 1,
  /** Generator CPU (percent of one core) above this: the client, not the server, was the limit. */
  clientBoundCpuPercent: 90,
  /** Transport errors, error statuses or SLO failures above this share of the requests: failures. */
  failurePercent: 1,
} as const;

/** ab's percentile table plus the tail (99.9, 99.99). Order matters: reports print it as is. */
export const REPORT_PERCENTILES = [50, 66, 75, 80, 90, 95, 98, 99, 99.9, 99.99, 100] as const;
