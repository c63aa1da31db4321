import type { RunResult, Sample } from '../../shared/result.ts';
import { scenarioSchema } from '../../shared/scenario.ts';

/**
 * Hand-made results and samples for UI tests (renderer unit tests with a stubbed bridge).
 * Plain data with every field the schema requires; tests that depend on the exact shape
 * check it against runResultSchema, so this cannot drift from shared/result.ts unnoticed.
 */
export function sampleFixture(over: Partial<Sample> = {}): Sample {
  return {
    seq: 1,
    elapsedSeconds: 1,
    intervalSeconds: 1,
    warmup: false,
    requests: 1000,
    totalRequests: 1000,
    requestsPerSecond: 1000,
    bytesInPerSecond: 120_000,
    latency: { mean: 2, p50: 1.8, p90: 3.1, p99: 7.4, max: 12 },
    statusCodes: { '200': 1000 },
    errors: {},
    inFlight: 10,
    ...over,
  };
}

export function runResultFixture(over: Partial<RunResult> = {}): RunResult {
  const scenario = scenarioSchema.parse({ targets: [{ url: 'http://127.0.0.1:8080/' }] });
  return {
    version: 1,
    runId: 'run_1',
    scenarioName: scenario.name,
    target: scenario.targets[0]!,
    load: scenario.load,
    options: scenario.options,
    status: 'completed',
    error: null,
    startedAt: '2025-01-01T00:00:00.000Z',
    endedAt: '2025-01-01T00:00:03.000Z',
    durationSeconds: 3,
    attackSeconds: null,
    waitSeconds: null,
    requests: {
      total: 36_000,
      responses: 36_000,
      ok: 35_990,
      non2xx: 10,
      errors: 0,
      sloExceeded: 0,
      inFlightAtEnd: 0,
      late: null,
      dropped: null,
    },
    throughput: {
      requestsPerSecond: 12_000.456,
      requestsPerSecondStdev: 150,
      requestsPerSecondMin: 11_800,
      requestsPerSecondMax: 12_200,
      targetRate: null,
      sentRate: 12_000,
      bytesInPerSecond: 1_536_000,
    },
    bytes: { inTotal: 4_608_000, inBody: 396_000, outBody: 0, outTotal: 1_800_000 },
    successRatio: 35_990 / 36_000,
    latency: {
      min: 0.21,
      mean: 4.1,
      stdev: 1.2,
      max: 48.7,
      percentiles: {
        '50': 3.9,
        '66': 4.3,
        '75': 4.6,
        '80': 4.8,
        '90': 5.6,
        '95': 6.4,
        '98': 8.1,
        '99': 9.9,
        '99.9': 21.5,
        '99.99': 40.2,
        '100': 48.7,
      },
    },
    correctedLatency: null,
    histogram: null,
    phases: null,
    statusCodes: { '200': 35_990, '503': 10 },
    errors: [],
    tls: null,
    server: {
      software: 'test',
      hostname: '127.0.0.1',
      port: 8080,
      documentPath: '/',
      documentLength: 11,
      httpVersion: '1.1',
    },
    generator: {
      engine: 'autocannon',
      engineVersion: '9.0.0',
      appVersion: '0.1.0',
      nodeVersion: '24.21.0',
      platform: 'linux-x64',
      cpuModel: 'Test CPU',
      cpuCores: 2,
      cpuPercentMean: 60,
      cpuPercentMax: 75,
      saturated: false,
    },
    thresholds: [],
    warnings: [],
    samples: [sampleFixture()],
    ...over,
  };
}
