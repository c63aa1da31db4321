import { describe, expect, it } from 'vitest';
import type { CellOutcome } from '../../shared/comparison/cells.ts';
import {
  formatComparisonMatrix,
  formatComparisonReport,
  formatPreflightFailures,
} from '../../shared/format/comparison-text.ts';
import { cellLabel } from '../../shared/comparison/plan.ts';
import { resultWith, twoServerPlan } from '../helpers/comparison-results.ts';
import { amendResult } from '../helpers/run-result.ts';

const plan = twoServerPlan();

function outcome(targetIndex: number, repetition: number, rps: number, p99: number, ok = 100): CellOutcome {
  const result = resultWith({ rps, p50: p99 / 4, p95: p99 / 2, p99, total: 100, ok });
  return {
    cellIndex: 0,
    coordinates: { targetIndex, protocol: 'http', level: 10, repetition },
    result: amendResult(result, {
      statusCodes: ok === 100 ? { '200': 100 } : { '200': ok, '503': 100 - ok },
    }),
  };
}

const failed: CellOutcome = {
  cellIndex: 3,
  coordinates: { targetIndex: 1, protocol: 'http', level: 10, repetition: 1 },
  result: resultWith({ rps: 0, status: 'failed', noLatency: true }),
};

describe('comparison as text', () => {
  it('prints the matrix with verdict marks, every caveat, failures, each run and the percentile table', () => {
    const text = formatComparisonMatrix(plan, [
      outcome(0, 0, 1000, 4),
      outcome(0, 1, 1200, 6, 98),
      outcome(1, 0, 800, 8),
      failed,
    ]);
    expect(text.split('\n')).toEqual([
      'nginx vs apache',
      '2 target(s) x 1 protocol(s) x 1 level(s) x 2 repetition(s); figures are means over the counted runs, counts are summed',
      '',
      '   target  protocol  level  runs     req/s  ± stdev       min       max  p50 ms  p95 ms  p99 ms  failed  success  CPU-s/10k req  verdict',
      '   nginx   http      c=10    2/2  1,100.00   141.42  1,000.00  1,200.00   1.250   2.500   5.000       2   99.00%              –  clean · non-2xx 1.0%',
      '   apache  http      c=10    1/2    800.00        –    800.00    800.00   2.000   4.000   8.000       0  100.00%              –  clean · 1 failed',
      '',
      'Verdicts (! not the server’s figures, ~ stopped early, - a note):',
      '- nginx · http · c=10: 2 of 200 requests over 2 runs (1.0%) had an error status: 503 Service Unavailable 2.',
      '- apache · http · c=10: 1 of 2 runs failed (connection refused) and is left out of the figures.',
      '',
      'Runs that failed:',
      '  apache · http · c=10: connection refused',
      '',
      'Each run',
      'target  protocol  level  run  status     time taken s     req/s  time/req ms  time/req all ms  p99 ms  verdict',
      'nginx   http      c=10   #1   completed         3.000  1,000.00       10.000            1.000   4.000  clean',
      'nginx   http      c=10   #2   completed         3.000  1,200.00        8.333            0.833   6.000  failures · non-2xx 2.0%',
      'apache  http      c=10   #1   completed         3.000    800.00       12.500            1.250   8.000  clean',
      'apache  http      c=10   #2   failed            3.000      0.00            –                –       –  not measured · failed',
      '',
      'Latency percentiles (ms), http at c=10',
      '         nginx  apache',
      '50%      1.250   2.000',
      '66%      1.250   2.000',
      '75%      1.250   2.000',
      '80%      1.250   2.000',
      '90%      2.500   4.000',
      '95%      2.500   4.000',
      '98%      5.000   8.000',
      '99%      5.000   8.000',
      '99.9%    5.000   8.000',
      '99.99%   5.000   8.000',
      '100%    10.000  16.000',
      '',
    ]);
  });

  it('marks a cell whose figures are not the server’s and shows the columns the plan names', () => {
    const open = twoServerPlan({
      load: { model: 'open', durationSeconds: 5 },
      levels: [10_000],
      repetitions: 1,
      report: { format: 'vegeta', columns: ['rps', 'late', 'dropped', 'verdict'] },
    });
    const apache = amendResult(resultWith({ rps: 4530, total: 25_413 }), {
      load: { model: 'open', rate: 10_000, durationSeconds: 5, maxInFlight: 10_000 },
      requests: { late: 25_396, dropped: 24_587 },
      statusCodes: { '200': 25_413 },
    });
    const o: CellOutcome = {
      cellIndex: 1,
      coordinates: { targetIndex: 1, protocol: 'http', level: 10_000, repetition: 0 },
      result: apache,
    };
    const lines = formatComparisonMatrix(open, [o]).split('\n');
    expect(lines.slice(3, 9)).toEqual([
      '   target  protocol  level           req/s    late  dropped  verdict',
      '   nginx   http      10000 req/s         –       –        –  –',
      '!  apache  http      10000 req/s  4,530.00  25,396   24,587  rate not reached',
      '',
      'Verdicts (! not the server’s figures, ~ stopped early, - a note):',
      '! apache · http · 10000 req/s: The rate was not reached at 10,000 req/s: of 50,000 scheduled requests, 24,587 (49.2%) were never sent and 25,396 (50.8%) went out late.',
    ]);
  });

  it('prints each cell in the layout the plan is named after, then the matrix', () => {
    const ab = twoServerPlan({ repetitions: 1, report: { format: 'ab', columns: ['rps', 'verdict'] } });
    const outcomes = [outcome(0, 0, 1000, 4), outcome(1, 0, 800, 8)];
    const text = formatComparisonReport(ab, outcomes);
    expect(text.startsWith('== nginx · http · c=10 · #1 ==\nServer Software:        test\n')).toBe(true);
    expect(text).toContain('\n== apache · http · c=10 · #1 ==\nServer Software:');
    expect(text.match(/Verdict: clean: the figures are the server’s\./g)).toHaveLength(2);
    expect(text).toContain('\nnginx vs apache\n');
    // Another layout when asked for.
    expect(formatComparisonReport(ab, outcomes, { layout: 'vegeta' })).toContain(
      '== nginx · http · c=10 · #1 ==\nRequests      [total, rate, throughput]',
    );
    expect(cellLabel(ab, outcomes[1]!.coordinates)).toBe('apache · http · c=10 · #1');
  });

  it('leaves figures of a cell without runs as "–" and skips the percentile table of one target', () => {
    const one = twoServerPlan({ targets: [plan.targets[0]!] });
    const text = formatComparisonMatrix(one, []);
    expect(text.split('\n')[4]).toBe(
      '   nginx   http      c=10    0/2      –        –    –    –       –       –       –       –        –              –  –',
    );
    expect(text).not.toContain('Latency percentiles');
    expect(text).not.toContain('Verdicts');
  });

  it('says why a comparison did not start, with the fixes', () => {
    const text = formatPreflightFailures([
      {
        url: 'https://127.0.0.1:4431/test.html',
        protocol: 'http1.1',
        targets: ['Apache'],
        kind: 'tls',
        message:
          'certificate is self-signed (DEPTH_ZERO_SELF_SIGNED_CERT) for https://127.0.0.1:4431/test.html',
        fixes: ['turn-off-verification', 'choose-ca-file'],
      },
    ]);
    expect(text.split('\n')).toEqual([
      'The comparison did not start: 1 URL(s) failed the check before any load.',
      '  https://127.0.0.1:4431/test.html (HTTP/1.1; Apache): certificate is self-signed (DEPTH_ZERO_SELF_SIGNED_CERT) for https://127.0.0.1:4431/test.html',
      '    fix: Turn off certificate verification',
      "    fix: Pick the CA file that signed the server's certificate",
      '',
    ]);
  });
});
