import { describe, expect, it } from 'vitest';
import { Recorder } from '../../electron/engine/recording/recorder.ts';
import { emptyOutcome, type RunSpec } from '../../electron/engine/types.ts';
import { vegetaRate, vegetaThroughput } from '../../shared/verdict/run-figures.ts';
import { formatVegetaReport } from '../../shared/format/vegeta.ts';
import { scenarioSchema } from '../../shared/model/scenario.ts';
import { recorderResult } from '../helpers/engine.ts';
import { abStyleResult, amendResult, seed000Result } from '../helpers/run-result.ts';

describe('vegeta report layout', () => {
  it("prints seed 000's nginx run row by row", () => {
    expect(formatVegetaReport(seed000Result()).split('\n')).toEqual([
      'Requests      [total, rate, throughput]         500, 100.20, 100.19',
      "Schedule      [target rate, late, dropped]      100.00, 0, 0  (Trebuchet's row, not vegeta's)",
      'Duration      [total, attack, wait]             4.990335713s, 4.99005168s, 284.033µs',
      'Latencies     [min, mean, 50, 90, 95, 99, max]  161µs, 238.008µs, 226.084µs, 279µs, 304.047µs, 574.479µs, 1.178932ms',
      'Bytes In      [total, mean]                     2500, 5.00',
      'Bytes Out     [total, mean]                     0, 0.00',
      'Success       [ratio]                           100.00%',
      'Status Codes  [code:count]                      200:500',
      'Error Set:',
      '',
    ]);
  });

  it('lists transport errors by first message, then statuses >= 400, with code 0 for no response', () => {
    const lines = formatVegetaReport(abStyleResult()).split('\n');
    // A closed run has no wait phase: total = attack = the measured time.
    expect(lines[1]).toBe('Duration      [total, attack, wait]             21.949s, 21.949s, 0s');
    expect(lines[5]).toBe('Success       [ratio]                           99.90%');
    expect(lines[6]).toBe('Status Codes  [code:count]                      0:10  200:29978  404:7  503:5');
    expect(lines.slice(7)).toEqual([
      'Error Set:',
      'connect ECONNREFUSED 127.0.0.1:8080',
      'read ECONNRESET',
      'response slower than 300 ms',
      '404 Not Found',
      '503 Service Unavailable',
      '',
    ]);
  });

  it("prints a scheduled run's send lateness on a row of its own after the latencies, marked as ours", () => {
    const lateness = { min: 0, mean: 0.3, stdev: 0.2, max: 4.25, percentiles: { '50': 0.254706, '99': 1.5 } };
    const lines = formatVegetaReport({ ...seed000Result(), sendLateness: lateness }).split('\n');
    expect(lines[3]).toMatch(/^Latencies {5}\[min, mean, 50, 90, 95, 99, max\] {2}161µs, /);
    expect(lines[4]).toBe(
      "Lateness      [send 50, 99, max]                254.706µs, 1.5ms, 4.25ms  (Trebuchet's row: the generator's own delay, inside the latencies)",
    );
    expect(lines[5]).toMatch(/^Bytes In /);
    // Results without the figure (a closed run, or saved before it existed) print no such row.
    expect(formatVegetaReport({ ...seed000Result(), sendLateness: null })).not.toContain('Lateness');
    expect(formatVegetaReport(seed000Result())).not.toContain('Lateness');
  });

  it('prints zero latencies when nothing answered', () => {
    const r = { ...seed000Result(), latency: null };
    expect(formatVegetaReport(r).split('\n')[3]).toBe(
      'Latencies     [min, mean, 50, 90, 95, 99, max]  0s, 0s, 0s, 0s, 0s, 0s, 0s',
    );
  });
});

describe('vegeta rate and throughput', () => {
  it('prints late and dropped requests of an open run on a row of its own', () => {
    const r = amendResult(seed000Result(), { requests: { late: 12, dropped: 3 } });
    expect(formatVegetaReport(r).split('\n')[1]).toBe(
      "Schedule      [target rate, late, dropped]      100.00, 12, 3  (Trebuchet's row, not vegeta's)",
    );
  });

  it("prints the open model's warm connections on a row of its own, after Schedule, only when there was a warm phase", () => {
    const r = { ...seed000Result(), warm: { seconds: 0.1124, wanted: 114, ready: 112, roundTripMs: 0.3 } };
    expect(formatVegetaReport(r).split('\n')[2]).toBe(
      "Warm          [connections, open, seconds]      114, 112, 0.112  (Trebuchet's row: opened before the first send, not run time)",
    );
    expect(formatVegetaReport(seed000Result())).not.toContain('Warm');
  });

  it('rate is sent / attack and throughput successes / (attack + wait): rate >= throughput when all succeed', () => {
    const s = scenarioSchema.parse({
      targets: [{ url: 'http://127.0.0.1:8080/test.html' }],
      load: { model: 'open', rate: 100, durationSeconds: 1 },
    });
    const spec: RunSpec = {
      runId: 'r1',
      scenarioName: s.name,
      target: s.targets[0]!,
      load: s.load,
      options: s.options,
      body: null,
      ca: null,
      appVersion: '0.0.0',
    };
    const recorder = new Recorder({ sloMs: null, warmup: false, now: 0 });
    // 100 requests on a 10 ms schedule: the first sent at 0, the last at 990 ms; all answered.
    for (let i = 0; i < 100; i++) {
      recorder.started();
      recorder.sent(0, 80);
      recorder.response(200, 2000, 5, 120);
      recorder.inFlight--;
      recorder.noteDocument('nginx', 5);
    }
    const samples = [recorder.tick(1000, 10)];
    const result = recorderResult({
      spec,
      status: 'completed',
      startedAt: new Date(0),
      endedAt: new Date(1100),
      // The measured time holds the attack, the wait and the engine's own wind-down.
      measuredSeconds: 1.05,
      recorder,
      outcome: emptyOutcome({ attackSeconds: 0.99, waitSeconds: 0.002, dropped: 0 }),
      samples,
      engine: { name: 'native', version: '1' },
      facts: {
        tls: null,
        server: {
          software: 'nginx',
          hostname: '127.0.0.1',
          port: 8080,
          documentPath: '/test.html',
          documentLength: 5,
          httpVersion: '1.1',
        },
      },
    });
    expect(result.throughput.sentRate).toBeCloseTo(100 / 0.99, 9);
    expect(vegetaRate(result)).toBeCloseTo(101.0101, 4);
    expect(vegetaThroughput(result)).toBeCloseTo(100 / 0.992, 9);
    expect(vegetaRate(result)).toBeGreaterThanOrEqual(vegetaThroughput(result));
    expect(formatVegetaReport(result).split('\n')[0]).toBe(
      'Requests      [total, rate, throughput]         100, 101.01, 100.81',
    );
    // The closed model has no attack of its own: the rate runs over the measured time.
    const closed = recorderResult({
      spec: {
        ...spec,
        load: {
          model: 'closed',
          connections: 1,
          pipelining: 1,
          limit: { kind: 'requests', count: 100 },
          rate: null,
        },
      },
      status: 'completed',
      startedAt: new Date(0),
      endedAt: new Date(1100),
      measuredSeconds: 1.25,
      recorder,
      outcome: emptyOutcome(),
      samples,
      engine: { name: 'native', version: '1' },
      facts: { tls: null, server: result.server! },
    });
    expect(closed.throughput.sentRate).toBe(80);
    expect(vegetaRate(closed)).toBe(vegetaThroughput(closed));
  });
});
