/**
 * Hand-built results and samples for tests that need a RunResult without running load: UI
 * tests with a stubbed bridge, formatters, stores, comparisons. Plain data with every field
 * the schema requires; the seed results are parsed by runResultSchema, so they cannot drift
 * from shared/model/result.ts unnoticed.
 */
import type { RunResult, Sample } from '../../shared/model/result.ts';
import { runResultSchema } from '../../shared/model/result.ts';
import { scenarioSchema } from '../../shared/model/scenario.ts';

/** ab's "Percentage of the requests served within" rows plus the tail, in ab's order. */
export const AB_PERCENTILE_LABELS = [
  '50%',
  '66%',
  '75%',
  '80%',
  '90%',
  '95%',
  '98%',
  '99%',
  '99.9%',
  '99.99%',
  '100%',
] as const;

/** One live sample; `over` replaces any field. */
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

/** The parts of a RunResult that amendResult changes field by field. */
type Section = 'target' | 'options' | 'requests' | 'throughput' | 'bytes' | 'generator';
export type ResultChanges = Partial<Omit<RunResult, Section>> & { [K in Section]?: Partial<RunResult[K]> };

/**
 * `base` with some fields replaced; target, options, requests, throughput, bytes and
 * generator take only the fields given: amendResult(r, { requests: { total: 0 } }).
 */
export function amendResult(base: RunResult, changes: ResultChanges): RunResult {
  return {
    ...base,
    ...changes,
    target: { ...base.target, ...changes.target },
    options: { ...base.options, ...changes.options },
    requests: { ...base.requests, ...changes.requests },
    throughput: { ...base.throughput, ...changes.throughput },
    bytes: { ...base.bytes, ...changes.bytes },
    generator: { ...base.generator, ...changes.generator },
  };
}

/**
 * A plausible closed-model result (12,000 req/s for 3 s, ten 503s) for UI and comparison
 * tests; `over` replaces any field.
 */
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

/**
 * Seed 000's nginx run (vegeta, 100 req/s for 5 s against a 5-byte test.html), with fields
 * the seed does not show filled in plausibly: what the formatter tests compare with vegeta.
 */
export function seed000Result(): RunResult {
  const scenario = scenarioSchema.parse({
    name: 'seed 000',
    targets: [{ url: 'http://127.0.0.1:8082/test.html' }],
    load: { model: 'open', rate: 100, durationSeconds: 5, maxInFlight: 1000 },
  });
  const base = runResultFixture();
  const sample = { requests: 100, requestsPerSecond: 100, bytesInPerSecond: 23900 };
  // The fixture must stay a valid result, or the formatter tests test nothing real.
  return runResultSchema.parse(
    amendResult(base, {
      runId: 'run-1',
      scenarioName: scenario.name,
      target: scenario.targets[0]!,
      load: scenario.load,
      options: scenario.options,
      startedAt: '2018-11-22T10:00:00.000Z',
      endedAt: '2018-11-22T10:00:05.000Z',
      durationSeconds: 4.990335713,
      attackSeconds: 4.99005168,
      waitSeconds: 0.000284033,
      requests: { total: 500, responses: 500, ok: 500, non2xx: 0, late: 0, dropped: 0 },
      throughput: {
        requestsPerSecond: 100.19,
        requestsPerSecondStdev: 0.5,
        requestsPerSecondMin: 99,
        requestsPerSecondMax: 101,
        targetRate: 100,
        sentRate: 100.2,
        bytesInPerSecond: 24000,
      },
      bytes: { inTotal: 119500, inBody: 2500, outBody: 0, outTotal: 45000 },
      successRatio: 1,
      latency: {
        min: 0.161,
        mean: 0.238008,
        stdev: 0.071,
        max: 1.178932,
        percentiles: {
          '50': 0.226084,
          '66': 0.233,
          '75': 0.241,
          '80': 0.247,
          '90': 0.279,
          '95': 0.304047,
          '98': 0.41,
          '99': 0.574479,
          '99.9': 1.001,
          '99.99': 1.178932,
          '100': 1.178932,
        },
      },
      statusCodes: { '200': 500 },
      server: {
        ...base.server!,
        software: 'nginx/1.22.1',
        port: 8082,
        documentPath: '/test.html',
        documentLength: 5,
      },
      generator: {
        engine: 'native',
        engineVersion: '0.1.0',
        nodeVersion: 'v24.21.0',
        platform: 'linux x64',
        cpuPercentMean: 12,
        cpuPercentMax: 20,
      },
      samples: [
        sampleFixture({
          ...sample,
          seq: 0,
          totalRequests: 100,
          latency: { mean: 0.24, p50: 0.226, p90: 0.279, p99: 0.574, max: 1.178 },
          statusCodes: { '200': 100 },
          inFlight: 0,
          cpuPercent: 11.5,
        }),
        sampleFixture({
          ...sample,
          seq: 1,
          elapsedSeconds: 2,
          totalRequests: 200,
          latency: { mean: 0.236, p50: 0.225, p90: 0.27, p99: 0.5, max: 0.9 },
          statusCodes: { '200': 99, '404': 1 },
          errors: { reset: 2 },
          inFlight: 1,
        }),
      ],
    }),
  );
}

/** A closed ab-style run (seed 002's shape) with failures of several kinds. */
export function abStyleResult(): RunResult {
  const base = seed000Result();
  const s = scenarioSchema.parse({
    name: 'ab -n 30000 -c 30',
    targets: [{ url: 'http://127.0.0.1:8080/' }],
    load: { model: 'closed', connections: 30, limit: { kind: 'requests', count: 30000 } },
    options: { sloMs: 300 },
  });
  return runResultSchema.parse(
    amendResult(base, {
      scenarioName: s.name,
      target: s.targets[0]!,
      load: s.load,
      options: s.options,
      durationSeconds: 21.949,
      attackSeconds: null,
      waitSeconds: null,
      requests: {
        total: 30000,
        responses: 29990,
        ok: 29970,
        non2xx: 12,
        errors: 10,
        sloExceeded: 8,
        inFlightAtEnd: 0,
        late: null,
        dropped: null,
      },
      throughput: { requestsPerSecond: 1366.79, targetRate: null, sentRate: 1366.79 },
      bytes: { inTotal: 10530000, inBody: 2550000, outBody: 0, outTotal: 2000000 },
      successRatio: 29970 / 30000,
      server: {
        ...base.server!,
        software: 'Apache/2.2.15',
        port: 8080,
        documentPath: '/',
        documentLength: 85,
      },
      statusCodes: { '200': 29978, '404': 7, '503': 5 },
      errors: [
        { kind: 'refused', count: 4, message: 'connect ECONNREFUSED 127.0.0.1:8080' },
        { kind: 'reset', count: 6, message: 'read ECONNRESET' },
        { kind: 'slo', count: 8, message: 'response slower than 300 ms' },
      ],
      phases: {
        dns: { min: 0, mean: 0.002, stdev: 0.01, median: 0, max: 0.2, percentiles: {} },
        connect: { min: 0.01, mean: 1.198, stdev: 16.29, median: 0.045, max: 1003.8, percentiles: {} },
        setup: { min: 0.01, mean: 1.2, stdev: 16.3, median: 0.045, max: 1004, percentiles: {} },
        processing: { min: 0.99, mean: 20.92, stdev: 32.3, median: 15.2, max: 419, percentiles: {} },
        waiting: { min: 0.2, mean: 15.25, stdev: 12.04, median: 14.1, max: 392.5, percentiles: {} },
        transfer: { min: 0.001, mean: 0.01, stdev: 0.002, median: 0.009, max: 0.5, percentiles: {} },
        total: { min: 1.001, mean: 22.12, stdev: 36.1, median: 15.3, max: 1021, percentiles: {} },
      },
    }),
  );
}
