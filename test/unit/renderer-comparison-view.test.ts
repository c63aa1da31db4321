import { describe, expect, it } from 'vitest';
import type { CellOutcome } from '../../shared/comparison/cells.ts';
import { aggregateComparison } from '../../shared/comparison/table.ts';
import { cellsWithCaveats, matrixCells } from '../../shared/comparison/matrix.ts';
import { columnMarks, columnSeries, markedCells } from '../../shared/comparison/column-series.ts';
import { cellLabel } from '../../shared/comparison/plan.ts';
import { MATRIX_COLUMN_IDS } from '../../shared/comparison/report-settings.ts';
import {
  columnChoices,
  firstRunOf,
  gridFigures,
  openedRun,
  toggleColumn,
} from '../../renderer/views/Compare/matrixView.ts';
import { shownAt } from '../../renderer/views/Compare/percentileAt.ts';
import { checkPlanDraft, draftFromPlan, withPreflightFix } from '../../renderer/views/Compare/planDraft.ts';
import { resultWith, twoServerPlan } from '../helpers/comparison-results.ts';
import { amendResult } from '../helpers/run-result.ts';

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

describe('the matrix on screen', () => {
  const plan = twoServerPlan({ levels: [10, 100], repetitions: 2 });
  const at = (
    targetIndex: number,
    level: number,
    repetition: number,
    cellIndex: number,
    result = resultWith({ rps: 100 }),
  ): CellOutcome => ({
    cellIndex,
    coordinates: { targetIndex, protocol: 'http', level, repetition },
    result,
  });

  it("says whose CPU the progress grid shows: the server's, not the generator's (issue 37)", () => {
    const running = { coordinates: { targetIndex: 0, protocol: 'http' as const, level: 10, repetition: 0 } };
    expect(gridFigures(undefined, { ...running, status: 'running', rps: 1200, cpu: 49.6 })).toEqual({
      rps: 'now 1,200 req/s',
      cpu: '49.6% server CPU',
    });
    expect(gridFigures(undefined, { ...running, status: 'running', rps: null, cpu: null }).cpu).toBeNull();
  });

  it('turns columns on before the verdict and off, and lists every column of the registry', () => {
    expect(toggleColumn(['rps', 'p99', 'verdict'], 'late', true)).toEqual(['rps', 'p99', 'late', 'verdict']);
    expect(toggleColumn(['rps', 'p99'], 'late', true)).toEqual(['rps', 'p99', 'late']);
    // In its registry place among those shown, not at the far right.
    expect(toggleColumn(['rps', 'p99', 'verdict'], 'p50', true)).toEqual(['rps', 'p50', 'p99', 'verdict']);
    expect(toggleColumn(['p99', 'verdict'], 'runs', true)).toEqual(['runs', 'p99', 'verdict']);
    expect(toggleColumn(['rps', 'p99', 'verdict'], 'p99', false)).toEqual(['rps', 'verdict']);
    const choices = columnChoices(['rps']);
    expect(choices.map((c) => c.id)).toEqual([...MATRIX_COLUMN_IDS]);
    expect(choices.filter((c) => c.on).map((c) => c.id)).toEqual(['rps']);
  });

  it('names a cell and opens a run with the other repetitions of its cell, in order', () => {
    // One name everywhere (screen, text, CSV, HTML): the protocol always said.
    expect(cellLabel(plan, { targetIndex: 1, protocol: 'http', level: 100 })).toBe('apache · http · c=100');
    expect(cellLabel(plan, { targetIndex: 0, protocol: 'http', level: 10, repetition: 1 })).toBe(
      'nginx · http · c=10 · #2',
    );
    const outcomes = [at(0, 10, 1, 4), at(1, 10, 0, 1), at(0, 10, 0, 0)];
    const run = openedRun(outcomes, 4);
    expect(run?.outcome.cellIndex).toBe(4);
    expect(run?.siblings.map((o) => o.cellIndex)).toEqual([0, 4]);
    expect(openedRun(outcomes, 7)).toBeNull();
    const cells = matrixCells(aggregateComparison(plan, outcomes), outcomes);
    expect(cells.map(firstRunOf)).toEqual([0, 1, null, null]);
  });

  it('flags the cells whose throughput or latency a caveat makes not the server’s', () => {
    const bound = amendResult(resultWith({ rps: 100 }), {
      generator: { saturated: true, cpuPercentMean: 99, cpuPercentMax: 100 },
    });
    const slo = amendResult(resultWith({ rps: 100, total: 1000, ok: 500 }), {
      options: { sloMs: 300 },
      requests: { non2xx: 0, sloExceeded: 500 },
    });
    const outcomes = [
      at(0, 10, 0, 0, bound),
      at(1, 10, 0, 1, slo),
      at(0, 100, 0, 2, resultWith({ rps: 100, total: 1000, ok: 990 })),
    ];
    const table = aggregateComparison(plan, outcomes);
    const cells = matrixCells(table, outcomes);
    expect([...markedCells(columnSeries(table, cells, 'rps'))]).toEqual(['0|http|10']);
    expect([...markedCells(columnSeries(table, cells, 'p99'))]).toEqual(['0|http|10']);
    // The SLO failures are a caveat on success, listed under the matrix after the client-bound
    // cell; last, a clean cell's note (its ten 503s).
    expect(cellsWithCaveats(cells).map((c) => [c.key, c.verdict.state])).toEqual([
      ['0|http|10', 'client-bound'],
      ['1|http|10', 'failures'],
      ['0|http|100', 'clean'],
    ]);
    expect(columnMarks(columnSeries(table, cells, 'rps'))).toBe(1);
  });
});

describe('pre-flight fixes', () => {
  it('turns verification off, or compares https instead of h2; a CA file is left to the person', () => {
    const d = draftFromPlan(
      twoServerPlan({
        targets: [
          { name: 'nginx', urls: { http: 'http://127.0.0.1:8081/', https: 'https://127.0.0.1:8441/' } },
          { name: 'apache', urls: { http: 'http://127.0.0.1:8082/', https: 'https://127.0.0.1:8442/' } },
        ],
        protocols: ['http', 'h2'],
      }),
    );
    expect(withPreflightFix(d, 'turn-off-verification').tls).toEqual({ ...d.tls, verify: false });
    expect(withPreflightFix(d, 'use-http1').protocols).toEqual(['http', 'https']);
    expect(withPreflightFix(d, 'choose-ca-file')).toBe(d);
    const fixed = checkPlanDraft(withPreflightFix(d, 'use-http1'));
    expect(fixed.ok && fixed.plan.protocols).toEqual(['http', 'https']);
  });
});
