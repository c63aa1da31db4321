/**
 * "Re-run the marked cells" (issue 32): the runs of a saved comparison measured on a busy
 * machine are the marked ones; a re-run measures only those again, hands on the saved others
 * as they were, and the comparison comes back whole.
 */
import { describe, expect, it } from 'vitest';
import { comparisonRunner } from '../../electron/jobs/comparison.ts';
import { jobStartSchema } from '../../shared/contract/jobs.ts';
import { comparisonPlanSchema } from '../../shared/comparison/plan.ts';
import { busyCells, keptOutcomes } from '../../shared/comparison/rerun.ts';
import { aggregateComparison } from '../../shared/comparison/table.ts';
import type { CellOutcome } from '../../shared/comparison/cells.ts';
import type { HistoryRecord } from '../../shared/records/history.ts';
import { cellVerdict, verdictWord } from '../../shared/verdict/verdict.ts';
import { resultWith } from '../helpers/comparison-results.ts';
import { FakeEngine } from '../helpers/fake-engine.ts';
import { runWith } from '../helpers/jobs.ts';
import { machineFacts } from '../helpers/machine-results.ts';
import { sampleFixture } from '../helpers/run-result.ts';

const plan = comparisonPlanSchema.parse({
  targets: [
    { name: 'a', urls: { http: 'http://127.0.0.1:1/' } },
    { name: 'b', urls: { http: 'http://127.0.0.1:2/' } },
  ],
  load: { model: 'open', durationSeconds: 1 },
  levels: [10, 20],
  repetitions: 1,
});

const busyMachine = machineFacts({
  cpuBusyPercent: 100,
  cpuIdlePercent: 0,
  otherCpuPercent: 150,
  otherProcesses: [{ name: 'yes', pid: 4242, cpuPercent: 75 }],
});

/** The saved comparison: cells 1 and 3 ran beside `yes`. */
function saved(): HistoryRecord {
  const outcomes: CellOutcome[] = [0, 1, 2, 3].map((i) => ({
    cellIndex: i,
    coordinates: { targetIndex: i % 2, protocol: 'http', level: i < 2 ? 10 : 20, repetition: 0 },
    result: {
      ...resultWith({ rps: 100 + i }),
      samples: [sampleFixture({ seq: 1 }), sampleFixture({ seq: 2 })],
      ...(i % 2 === 1 ? { machine: busyMachine } : {}),
    },
  }));
  return {
    format: 'trebuchet-run',
    version: 3,
    id: 'saved-1',
    name: 'a vs b',
    createdAt: '2026-01-05T10:00:00.000Z',
    appVersion: '9.9.9',
    status: 'completed',
    generator: null,
    kind: 'comparison',
    plan,
    outcomes,
  };
}

describe('re-running the cells measured on a busy machine', () => {
  it('marks the runs whose machine was busy', () => {
    const record = saved();
    if (record.kind !== 'comparison') throw new Error('a comparison');
    expect(busyCells(record.outcomes)).toEqual([1, 3]);
    expect(record.outcomes.map((o) => verdictWord(cellVerdict([o.result])))).toEqual([
      'clean',
      'machine busy',
      'clean',
      'machine busy',
    ]);
  });

  it('measures only the marked cells, hands on the others as saved (samples first), and the matrix is whole', async () => {
    const engine = new FakeEngine({
      answer: (s) => resultWith({ rps: 500, url: s.targets[0]!.url }),
    });
    const { events, results, status } = await runWith(comparisonRunner, plan, engine, {
      context: {
        readHistory: () => Promise.resolve(saved()),
        rerun: { historyId: 'saved-1', cells: [1, 3] },
      },
    });
    expect(status).toBe('completed');
    expect(engine.started.map((s) => s.targets[0]!.url)).toEqual([
      'http://127.0.0.1:2/',
      'http://127.0.0.1:2/',
    ]);
    expect(results.map((o) => [o.cellIndex, o.result.throughput.requestsPerSecond])).toEqual([
      [0, 100],
      [2, 102],
      [1, 500],
      [3, 500],
    ]);
    // The kept runs' samples go out before their results, as a measured run's do.
    expect(
      events
        .filter((e) => e.type === 'sample' || e.type === 'result')
        .slice(0, 3)
        .map((e) => `${e.type} ${e.type === 'sample' || e.type === 'result' ? e.part : ''}`),
    ).toEqual(['sample 0', 'sample 0', 'result 0']);
    expect(busyCells(results)).toEqual([]);
    expect(aggregateComparison(plan, results).cells.every((c) => c.figures.rps !== null)).toBe(true);
  });

  it('refuses a saved comparison of another matrix, a record that is not a comparison, and a cell not in the plan', async () => {
    const other = comparisonPlanSchema.parse({ ...plan, levels: [10] });
    const record = saved();
    if (record.kind !== 'comparison') throw new Error('a comparison');
    expect(keptOutcomes(other, record, [1])).toEqual({
      ok: false,
      message: "the saved comparison's matrix is not this plan's: run it whole instead",
    });
    expect(keptOutcomes(plan, record, [9])).toEqual({
      ok: false,
      message: "cell 9 is not in the plan's 4 cells",
    });
    const engine = new FakeEngine({ answer: () => resultWith({ rps: 1 }) });
    const run = await runWith(comparisonRunner, plan, engine, {
      context: {
        readHistory: () => Promise.reject(new Error('no such run')),
        rerun: { historyId: 'gone', cells: [1] },
      },
    });
    expect(run.status).toBe('failed');
    expect(run.events.filter((e) => e.type === 'error')).toEqual([
      { type: 'error', part: null, message: 'the saved comparison gone could not be read: no such run' },
    ]);
    expect(engine.started).toEqual([]);
  });

  it('is what jobs.start takes beside a comparison plan, and only beside one', () => {
    expect(
      jobStartSchema.safeParse({ kind: 'comparison', plan, rerun: { historyId: 'x', cells: [0] } }).success,
    ).toBe(true);
    expect(
      jobStartSchema.safeParse({ kind: 'comparison', plan, rerun: { historyId: 'x', cells: [] } }).success,
    ).toBe(false);
    expect(
      jobStartSchema.safeParse({ kind: 'capacity', plan, rerun: { historyId: 'x', cells: [0] } }).success,
    ).toBe(false);
  });
});
