import { describe, expect, it } from 'vitest';
import { aggregateComparison, type CellOutcome } from '../../shared/comparison.ts';
import { formatComparisonTable } from '../../shared/format/comparison-text.ts';
import { resultWith, twoServerPlan } from '../helpers/comparison-results.ts';

const plan = twoServerPlan();

function outcome(targetIndex: number, repetition: number, rps: number, p99: number, ok = 100): CellOutcome {
  return {
    cellIndex: 0,
    coordinates: { targetIndex, protocol: 'http', level: 10, repetition },
    result: resultWith({ rps, p50: p99 / 4, p95: p99 / 2, p99, total: 100, ok }),
  };
}

describe('comparison as text', () => {
  it('prints the matrix (means over repetitions, req/s spread), failures and the percentile table', () => {
    const failed: CellOutcome = {
      cellIndex: 3,
      coordinates: { targetIndex: 1, protocol: 'http', level: 10, repetition: 1 },
      result: resultWith({ rps: 0, status: 'failed', noLatency: true }),
    };
    const table = aggregateComparison(plan, [
      outcome(0, 0, 1000, 4),
      outcome(0, 1, 1200, 6, 98),
      outcome(1, 0, 800, 8),
      failed,
    ]);
    expect(formatComparisonTable(table).split('\n')).toEqual([
      'nginx vs apache',
      '2 target(s) x 1 protocol(s) x 1 level(s) x 2 repetition(s); figures are means over the counted runs, latencies in ms',
      '',
      'target  protocol  level  runs    req/s  ± stdev      min      max  p50 ms  p95 ms  p99 ms  failed  success',
      'nginx   http      c=10    2/2  1100.00   141.42  1000.00  1200.00   1.250   2.500   5.000       2   99.00%',
      'apache  http      c=10    1/2   800.00        -   800.00   800.00   2.000   4.000   8.000       0  100.00%',
      '',
      'Runs that failed:',
      '  apache · http · c=10: connection refused',
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

  it('leaves figures of a cell without runs as "-" and skips the percentile table of one target', () => {
    const one = twoServerPlan({ targets: [plan.targets[0]!] });
    const text = formatComparisonTable(aggregateComparison(one, []));
    expect(text.split('\n')[4]).toBe(
      'nginx   http      c=10    0/2      -        -    -    -       -       -       -       -        -',
    );
    expect(text).not.toContain('Latency percentiles');
  });
});
