import { describe, expect, it } from 'vitest';
import { REPORT_PERCENTILES } from '../../shared/model/defaults.ts';
import { runResultSchema, type Sample } from '../../shared/model/result.ts';
import type { ScenarioInput } from '../../shared/model/scenario.ts';
import { decodeHistogram } from '../../electron/engine/recording/histogram.ts';
import { Recorder } from '../../electron/engine/recording/recorder.ts';
import {
  cpuFacts,
  failedResult,
  rateStats,
  resultFromSamples,
  type TargetFacts,
} from '../../electron/engine/result.ts';
import { emptyOutcome } from '../../electron/engine/types.ts';
import { recorderResult, runSpecFixture } from '../helpers/engine.ts';

const spec = (input: Partial<ScenarioInput> = {}) =>
  runSpecFixture(
    { targets: [{ url: 'http://127.0.0.1:8080/index.html?x=1' }], ...input },
    { runId: 'r1', appVersion: '9.9.9' },
  );

const facts: TargetFacts = {
  tls: null,
  server: {
    software: 'nginx/1.22.1',
    hostname: '127.0.0.1',
    port: 8080,
    documentPath: '/index.html?x=1',
    documentLength: 612,
    httpVersion: '1.1',
  },
};

const sample = (over: Partial<Sample>): Sample => ({
  seq: 0,
  elapsedSeconds: 1,
  intervalSeconds: 1,
  warmup: false,
  requests: 0,
  totalRequests: 0,
  requestsPerSecond: 0,
  bytesInPerSecond: 0,
  latency: null,
  statusCodes: {},
  errors: {},
  inFlight: 0,
  ...over,
});

describe('result math', () => {
  it('builds a RunResult from the recorder: rates, ratio, percentiles, histogram, thresholds', () => {
    const s = spec({
      options: {
        thresholds: [
          { metric: 'p99', op: '<', value: 5 },
          { metric: 'rps', op: '>=', value: 100 },
        ],
      },
    });
    const r = new Recorder({ sloMs: null, warmup: false, now: 0 });
    // 300 responses at 1..3 ms, 100 of them 500s, and 10 resets, over 2 s in 2 ticks.
    for (let i = 0; i < 300; i++) {
      r.started();
      r.sent(0, 100);
      r.response(i % 3 === 0 ? 500 : 200, 1000 + (i % 3) * 1000, 10, 100);
      r.inFlight--;
    }
    for (let i = 0; i < 10; i++) r.error('reset', 'read ECONNRESET');
    const samples = [r.tick(1000, 50), r.tick(2000, 95)];
    const result = recorderResult({
      spec: s,
      status: 'completed',
      startedAt: new Date(0),
      endedAt: new Date(2000),
      measuredSeconds: 2,
      recorder: r,
      outcome: emptyOutcome(),
      samples,
      engine: { name: 'autocannon', version: '9.0.0' },
      facts,
    });
    expect(runResultSchema.parse(result)).toEqual(result);
    expect(result.requests).toMatchObject({ total: 310, responses: 300, ok: 200, non2xx: 100, errors: 10 });
    expect(result.throughput.requestsPerSecond).toBe(155);
    expect(result.throughput.sentRate).toBe(150);
    expect(result.throughput.bytesInPerSecond).toBe(15_000);
    // Per-sample rates 310 and 0: the spread is across full samples.
    expect(result.throughput.requestsPerSecondMax).toBe(310);
    expect(result.throughput.requestsPerSecondMin).toBe(0);
    expect(result.throughput.requestsPerSecondStdev).toBe(155);
    expect(result.successRatio).toBeCloseTo(200 / 310, 12);
    // Integer-like keys come first in an object whatever the insertion order: compare as sets.
    expect(Object.keys(result.latency!.percentiles).sort()).toEqual(REPORT_PERCENTILES.map(String).sort());
    expect(result.latency!.percentiles['50']).toBeCloseTo(2, 2);
    expect(result.latency!.max).toBeCloseTo(3, 2);
    expect(decodeHistogram(result.histogram!).totalCount).toBe(300);
    expect(result.statusCodes).toEqual({ '200': 200, '500': 100 });
    expect(result.errors).toEqual([{ kind: 'reset', count: 10, message: 'read ECONNRESET' }]);
    expect(result.bytes).toEqual({ inTotal: 30_000, inBody: 3000, outBody: 0, outTotal: 30_000 });
    expect(result.thresholds.map((t) => [t.actual, t.passed])).toEqual([
      [result.latency!.percentiles['99'], true],
      [155, true],
    ]);
    expect(result.server).toEqual({ ...facts.server });
    expect(result.generator).toMatchObject({
      engine: 'autocannon',
      engineVersion: '9.0.0',
      appVersion: '9.9.9',
    });
    expect(result.generator.cpuPercentMean).toBeCloseTo(72.5, 10);
    expect(result.generator.cpuPercentMax).toBe(95);
    expect(result.generator.saturated).toBe(true);
    expect(result.warnings.map((w) => w.code)).toEqual(['closed-loop-latency', 'generator-saturated']);
    expect(result.warnings[1]!.message).toContain('the client may be the bottleneck');
  });

  it('warns about unverified TLS and requests still in flight', () => {
    const s = spec({
      targets: [{ url: 'https://127.0.0.1:8443/' }],
      options: { tls: { verify: false, caFile: null, servername: null } },
    });
    const r = new Recorder({ sloMs: null, warmup: false, now: 0 });
    r.response(200, 100, 0, 10);
    r.inFlight = 7;
    const result = recorderResult({
      spec: s,
      status: 'cancelled',
      startedAt: new Date(0),
      endedAt: new Date(1000),
      measuredSeconds: 1,
      recorder: r,
      outcome: emptyOutcome({ warnings: [{ code: 'engine-limit', message: 'bursts' }] }),
      samples: [r.tick(1000, 10)],
      engine: { name: 'autocannon', version: '9.0.0' },
      facts: {
        ...facts,
        tls: {
          protocol: 'TLSv1.3',
          cipher: 'X',
          alpn: null,
          verified: false,
          authorizationError: 'certificate is self-signed (DEPTH_ZERO_SELF_SIGNED_CERT)',
        },
      },
    });
    expect(result.requests.inFlightAtEnd).toBe(7);
    expect(result.warnings.map((w) => w.code)).toEqual([
      'tls-not-verified',
      'closed-loop-latency',
      'engine-limit',
      'in-flight-at-end',
    ]);
    expect(result.warnings[0]!.message).toContain('DEPTH_ZERO_SELF_SIGNED_CERT');
    expect(result.warnings[3]!.message).toMatch(/^7 request/);
    expect(result.generator.saturated).toBe(false);
  });

  it('rate spread leaves out warm-up and short windows', () => {
    const samples = [
      sample({ warmup: true, requestsPerSecond: 5 }),
      sample({ requestsPerSecond: 100 }),
      sample({ requestsPerSecond: 200 }),
      sample({ requestsPerSecond: 9999, intervalSeconds: 0.01 }),
    ];
    expect(rateStats(samples, 1000, 150)).toEqual({ stdev: 50, min: 100, max: 200 });
    // Only short windows: use them rather than nothing.
    expect(rateStats([sample({ requestsPerSecond: 40, intervalSeconds: 0.2 })], 1000, 40)).toEqual({
      stdev: 0,
      min: 40,
      max: 40,
    });
    expect(rateStats([], 1000, 12)).toEqual({ stdev: 0, min: 12, max: 12 });
  });

  it('generator CPU: a short last window folded into the one before, the mean weighted by window', () => {
    const flatOut = [
      sample({ cpuPercent: 99 }),
      sample({ cpuPercent: 97 }),
      sample({ cpuPercent: 40 }),
      sample({ cpuPercent: 300, intervalSeconds: 0.01 }),
      sample({ cpuPercent: 10, warmup: true }),
    ];
    const cpu = cpuFacts(flatOut, 1000);
    // Every CPU-second over every measured second; the 10 ms window is not a max of 300%.
    expect(cpu.mean).toBeCloseTo((99 + 97 + 40 + 3) / 3.01, 10);
    expect(cpu.max).toBe(99);
    // A run of one full window and a short last one busier than it: one window of both, so the
    // mean is never above the max (it was "25% on average, max 24%" before f9bcf0f).
    const short = cpuFacts(
      [sample({ cpuPercent: 24 }), sample({ cpuPercent: 40, intervalSeconds: 0.06 })],
      1000,
    );
    expect(short.mean).toBeCloseTo((24 + 40 * 0.06) / 1.06, 10);
    expect(short.max).toBe(short.mean);
    expect(short.saturated).toBe(false);
    // Only short windows (a run shorter than a tick): they are all there is.
    expect(cpuFacts([sample({ cpuPercent: 50, intervalSeconds: 0.2 })], 1000).mean).toBe(50);
    expect(cpu.saturated).toBe(true);
    expect(
      cpuFacts([sample({ cpuPercent: 95 }), sample({ cpuPercent: 30 }), sample({ cpuPercent: 20 })], 1000)
        .saturated,
    ).toBe(false);
  });

  it('rebuilds totals from samples when the engine cannot report', () => {
    const s = spec();
    const samples = [
      sample({ warmup: true, requests: 50, statusCodes: { '200': 50 } }),
      sample({
        requests: 12,
        statusCodes: { '200': 8, '503': 2 },
        errors: { reset: 2 },
        bytesInPerSecond: 1000,
      }),
      sample({
        requests: 5,
        statusCodes: { '200': 5 },
        errors: { slo: 1 },
        inFlight: 3,
        bytesInPerSecond: 500,
      }),
    ];
    const result = resultFromSamples(s, 'cancelled', null, {
      engine: { name: 'autocannon', version: '9' },
      samples,
    });
    expect(runResultSchema.parse(result)).toEqual(result);
    expect(result.requests).toMatchObject({
      total: 17,
      responses: 15,
      ok: 12,
      non2xx: 2,
      errors: 2,
      sloExceeded: 1,
      inFlightAtEnd: 3,
    });
    expect(result.statusCodes).toEqual({ '200': 13, '503': 2 });
    expect(result.durationSeconds).toBe(2);
    expect(result.throughput.requestsPerSecond).toBe(8.5);
    expect(result.bytes.inTotal).toBe(1500);
    expect(result.latency).toBeNull();
    expect(result.errors.map((e) => [e.kind, e.count])).toEqual([
      ['reset', 2],
      ['slo', 1],
    ]);
  });

  it('a failed result carries the error and no figures', () => {
    const result = failedResult(
      spec(),
      { kind: 'refused', message: 'cannot connect' },
      {
        engine: { name: 'autocannon', version: '9' },
      },
    );
    expect(runResultSchema.parse(result)).toEqual(result);
    expect(result.status).toBe('failed');
    expect(result.error).toEqual({ kind: 'refused', message: 'cannot connect' });
    expect(result.requests.total).toBe(0);
    expect(result.server).toMatchObject({
      hostname: '127.0.0.1',
      port: 8080,
      documentPath: '/index.html?x=1',
    });
    expect(result.warnings).toEqual([]);
  });
});
