import { describe, expect, it } from 'vitest';
import { aggregateComparison, type CellOutcome } from '../../shared/comparison.ts';
import { shownAt } from '../../renderer/views/Compare/percentileAt.ts';
import { resultWith, twoServerPlan } from '../helpers/comparison-results.ts';

function outcome(
  targetIndex: number,
  protocol: 'http' | 'https',
  level: number,
  repetition = 0,
): CellOutcome {
  return {
    cellIndex: 0,
    coordinates: { targetIndex, protocol, level, repetition },
    result: resultWith({ rps: 100 }),
  };
}

describe('the level the percentile table shows', () => {
  const plan = twoServerPlan({
    targets: [
      { name: 'nginx', urls: { http: 'http://127.0.0.1:8081/', https: 'https://127.0.0.1:8441/' } },
      { name: 'apache', urls: { http: 'http://127.0.0.1:8082/', https: 'https://127.0.0.1:8442/' } },
    ],
    protocols: ['http', 'https'],
    levels: [100, 10],
    repetitions: 2,
  });

  it('starts on the first cells to run, then follows the last protocol and level with results', () => {
    expect(shownAt(aggregateComparison(plan, []), null)).toEqual({ protocol: 'http', level: 100 });
    const first = [outcome(0, 'http', 100)];
    expect(shownAt(aggregateComparison(plan, first), null)).toEqual({ protocol: 'http', level: 100 });
    const https = [...first, outcome(1, 'http', 100), outcome(0, 'https', 100)];
    expect(shownAt(aggregateComparison(plan, https), null)).toEqual({ protocol: 'https', level: 100 });
    const round1 = [...https, outcome(1, 'https', 100), outcome(0, 'http', 10), outcome(0, 'https', 10)];
    expect(shownAt(aggregateComparison(plan, round1), null)).toEqual({ protocol: 'https', level: 10 });
    // The second round starts over at the first level: the table stays where round 1 ended.
    const round2 = [...round1, outcome(0, 'http', 100, 1)];
    expect(shownAt(aggregateComparison(plan, round2), null)).toEqual({ protocol: 'https', level: 10 });
  });

  it("keeps the person's pick", () => {
    const table = aggregateComparison(plan, [outcome(0, 'https', 10)]);
    expect(shownAt(table, { protocol: 'http', level: 100 })).toEqual({ protocol: 'http', level: 100 });
  });
});
