import { describe, expect, it } from 'vitest';
import { formatJmeterReport } from '../../shared/format/jmeter.ts';
import type { RunResult } from '../../shared/model/result.ts';
import { abStyleResult, amendResult, seed000Result } from '../helpers/run-result.ts';

describe('JMeter Aggregate and Summary Report', () => {
  it("prints seed 003's columns, Error % counting SLO misses like a Duration Assertion", () => {
    // 30 of 30000 failed (10 transport errors, 8 SLO misses, 12 non-2xx): 0.10%. Received
    // KB/sec is ab's transfer rate (468.50); Sent is 2000000 B / 21.949 s / 1024.
    expect(formatJmeterReport(abStyleResult()).split('\n')).toEqual([
      'Aggregate Report',
      'Label           # Samples  Average  Median  90% Line  95% Line  99% Line    Min    Max  Error %  Throughput  Received KB/sec  Sent KB/sec',
      '127.0.0.1:8080      30000    0.238   0.226     0.279     0.304     0.574  0.161  1.179    0.10%  1366.8/sec           468.50        88.98',
      'TOTAL               30000    0.238   0.226     0.279     0.304     0.574  0.161  1.179    0.10%  1366.8/sec           468.50        88.98',
      '',
      'Summary Report',
      'Label           # Samples  Average    Min    Max  Std. Dev.  Error %  Throughput  Received KB/sec  Sent KB/sec  Avg. Bytes',
      '127.0.0.1:8080      30000    0.238  0.161  1.179      0.071    0.10%  1366.8/sec           468.50        88.98       351.0',
      'TOTAL               30000    0.238  0.161  1.179      0.071    0.10%  1366.8/sec           468.50        88.98       351.0',
      '',
      "Times in ms at µs resolution (JMeter prints whole ms); Error %: responses slower than 300 ms count as errors (JMeter's Duration Assertion).",
      '',
    ]);
  });

  it('writes rates below 1/s per minute, times of a run without responses as "-", and says when no SLO was set', () => {
    const r = amendResult(seed000Result(), {
      target: { name: 'nginx' },
      durationSeconds: 120,
      requests: { total: 60, responses: 0, ok: 0, errors: 60 },
      successRatio: 0,
      throughput: { requestsPerSecond: 0.5 },
      bytes: { inTotal: 0, inBody: 0, outBody: 0, outTotal: 6144 },
      latency: null,
    });
    const lines = formatJmeterReport(r).split('\n');
    expect(lines.slice(1, 3)).toEqual([
      'Label  # Samples  Average  Median  90% Line  95% Line  99% Line  Min  Max  Error %  Throughput  Received KB/sec  Sent KB/sec',
      'nginx         60        -       -         -         -         -    -    -  100.00%    30.0/min             0.00         0.05',
    ]);
    expect(lines.at(-2)).toBe(
      'Times in ms at µs resolution (JMeter prints whole ms); Error %: no SLO was set.',
    );
    const failed: RunResult = {
      ...r,
      status: 'failed',
      error: { kind: 'dns', message: 'getaddrinfo ENOTFOUND nginx.test' },
    };
    expect(formatJmeterReport(failed).split('\n').at(-2)).toBe(
      'The run failed: getaddrinfo ENOTFOUND nginx.test',
    );
  });
});
