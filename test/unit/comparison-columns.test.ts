import { describe, expect, it } from 'vitest';
import {
  columnAffected,
  columnText,
  MATRIX_COLUMNS,
  matrixColumns,
} from '../../shared/comparison/columns.ts';
import { matrixCells, type MatrixCell } from '../../shared/comparison/matrix.ts';
import { REPETITION_COLUMNS, repetitionRows } from '../../shared/comparison/repetitions.ts';
import type { CellOutcome } from '../../shared/comparison/cells.ts';
import { aggregateComparison } from '../../shared/comparison/table.ts';
import type { ComparisonPlan } from '../../shared/comparison/plan.ts';
import { DEFAULTS } from '../../shared/model/defaults.ts';
import { MATRIX_COLUMN_IDS, planReport } from '../../shared/comparison/report-settings.ts';
import type { PhaseStats, RunResult } from '../../shared/model/result.ts';
import { resultWith, twoServerPlan } from '../helpers/comparison-results.ts';
import { amendResult } from '../helpers/run-result.ts';

const phase = (mean: number): PhaseStats => ({
  min: 0,
  mean,
  stdev: 0,
  median: mean,
  max: mean,
  percentiles: {},
});

/** A closed run at 10 connections with ab's phases and a chosen time taken. */
function abRun(
  rps: number,
  seconds: number,
  connect: number,
  processing: number,
  waiting: number,
): RunResult {
  const base = resultWith({ rps, p99: 4, total: Math.round(rps * seconds) });
  return amendResult(base, {
    statusCodes: { '200': base.requests.total },
    durationSeconds: seconds,
    phases: { setup: phase(connect), processing: phase(processing), waiting: phase(waiting) },
  });
}

const outcome = (targetIndex: number, repetition: number, result: RunResult, level = 10): CellOutcome => ({
  cellIndex: 0,
  coordinates: { targetIndex, protocol: 'http', level, repetition },
  result,
});

function cellsOf(plan: ComparisonPlan, outcomes: CellOutcome[]): MatrixCell[] {
  return matrixCells(aggregateComparison(plan, outcomes), outcomes);
}

describe('matrix columns', () => {
  const plan = twoServerPlan();

  it('has a column for every id, each with a label and a format', () => {
    expect(Object.keys(MATRIX_COLUMNS).sort()).toEqual([...MATRIX_COLUMN_IDS].sort());
    for (const id of MATRIX_COLUMN_IDS) {
      expect(MATRIX_COLUMNS[id].id).toBe(id);
      expect(MATRIX_COLUMNS[id].format(null)).toBe('–');
    }
    expect(planReport(plan).columns).toEqual(DEFAULTS.comparison.columns);
  });

  it("gives each cell its runs' engine workers: 1 for a result saved before workers existed", () => {
    const cpu = { cpuPercentMean: 40, cpuPercentMax: 50, saturated: false };
    const split = amendResult(abRun(1000, 3, 1, 4, 3), { generator: { workers: [cpu, cpu] } });
    const [nginx, apache] = cellsOf(plan, [
      outcome(0, 0, split),
      outcome(0, 1, split),
      outcome(1, 0, abRun(500, 4, 2, 8, 7)),
    ]);
    expect([nginx!, apache!].map((c) => columnText(MATRIX_COLUMNS.workers, c))).toEqual(['2', '1']);
  });

  it("gives each cell today's figures and ab's: time taken, time per request, Connect / Processing / Waiting", () => {
    const [nginx, apache] = cellsOf(plan, [
      outcome(0, 0, abRun(1000, 3, 1, 4, 3)),
      outcome(0, 1, abRun(1250, 2, 3, 6, 5)),
      outcome(1, 0, abRun(500, 4, 2, 8, 7)),
    ]);
    const row = (cell: MatrixCell, ids: (typeof MATRIX_COLUMN_IDS)[number][]) =>
      matrixColumns(ids).map((c) => columnText(c, cell));
    expect(
      row(nginx!, [
        'runs',
        'rps',
        'rpsStdev',
        'rpsMin',
        'rpsMax',
        'requests',
        'timeTaken',
        'timePerRequest',
        'timePerRequestAcross',
        'connectMean',
        'processingMean',
        'waitingMean',
        'latencyMax',
        'late',
        'dropped',
        'sloFailures',
        'verdict',
      ]),
    ).toEqual([
      '2/2',
      '1,125.00',
      '176.78',
      '1,000.00',
      '1,250.00',
      '5,500',
      '2.500',
      // ab: concurrency x 1000 / req/s, per run (10 ms and 8 ms), then the mean.
      '9.000',
      '0.900',
      '2.000',
      '5.000',
      '4.000',
      '8.000',
      '–',
      '–',
      '–',
      'clean',
    ]);
    expect(row(apache!, ['runs', 'rpsStdev', 'connectMean', 'processingMean', 'waitingMean'])).toEqual([
      '1/2',
      '–',
      '2.000',
      '8.000',
      '7.000',
    ]);
  });

  it('sums late and dropped over an open cell and marks the figures its caveat affects', () => {
    const open = twoServerPlan({
      load: { model: 'open', durationSeconds: 5 },
      levels: [10_000],
      repetitions: 1,
    });
    const dropped = amendResult(resultWith({ rps: 4530, total: 25_413 }), {
      load: { model: 'open', rate: 10_000, durationSeconds: 5, maxInFlight: 10_000 },
      requests: { late: 25_396, dropped: 24_587 },
      statusCodes: { '200': 25_413 },
    });
    const [cell] = cellsOf(open, [outcome(0, 0, dropped, 10_000)]);
    expect(matrixColumns(['late', 'dropped', 'verdict']).map((c) => columnText(c, cell!))).toEqual([
      '25,396',
      '24,587',
      'rate not reached',
    ]);
    expect(cell!.verdict.state).toBe('rate-not-reached');
    const affected = (id: (typeof MATRIX_COLUMN_IDS)[number]) => columnAffected(MATRIX_COLUMNS[id], cell!);
    expect([
      affected('rps'),
      affected('p99'),
      affected('late'),
      affected('success'),
      affected('runs'),
    ]).toEqual([true, true, false, false, false]);
  });

  it('counts SLO failures and the error rate when the plan sets an SLO (seed 003)', () => {
    const slo = amendResult(resultWith({ rps: 261, total: 15_660, ok: 10_430 }), {
      options: { sloMs: 300 },
      requests: { sloExceeded: 5230, non2xx: 0 },
      statusCodes: { '200': 15_660 },
    });
    const [cell] = cellsOf(plan, [outcome(0, 0, slo)]);
    expect(
      matrixColumns(['sloFailures', 'errorRate', 'success', 'failed']).map((c) => columnText(c, cell!)),
    ).toEqual(['5,230', '33.40%', '66.60%', '5,230']);
    expect(cell!.verdict.state).toBe('failures');
    expect(columnAffected(MATRIX_COLUMNS.success, cell!)).toBe(true);
    expect(columnAffected(MATRIX_COLUMNS.rps, cell!)).toBe(false);
  });

  it('shows nothing for a cell without runs', () => {
    const [cell] = cellsOf(plan, []);
    expect(columnText(MATRIX_COLUMNS.rps, cell!)).toBe('–');
    expect(columnText(MATRIX_COLUMNS.requests, cell!)).toBe('–');
    expect(columnText(MATRIX_COLUMNS.verdict, cell!)).toBe('–');
  });
});

describe('per-repetition table (seed 002)', () => {
  it("lists each run's time taken, req/s and time per request, cell by cell", () => {
    const plan = twoServerPlan({ repetitions: 2 });
    const run = (rps: number, seconds: number) =>
      amendResult(resultWith({ rps, total: 30_000 }), {
        durationSeconds: seconds,
        load: {
          model: 'closed',
          connections: 30,
          pipelining: 1,
          limit: { kind: 'requests', count: 30_000 },
          rate: null,
        },
      });
    const table = aggregateComparison(plan, []);
    const outcomes = [
      outcome(1, 1, run(2296.78, 13.062)),
      outcome(0, 0, run(776.81, 38.619)),
      outcome(1, 0, run(1478.25, 20.294)),
      outcome(0, 1, run(1170.95, 25.62)),
    ];
    const rows = repetitionRows(table, outcomes);
    expect(rows.map((r) => `${r.target} ${r.repetition}`)).toEqual([
      'nginx 1',
      'nginx 2',
      'apache 1',
      'apache 2',
    ]);
    expect(
      rows.map((r) =>
        REPETITION_COLUMNS.filter((c) => ['timeTaken', 'rps', 'timePerRequestAcross'].includes(c.id)).map(
          (c) => c.format(c.value(r)),
        ),
      ),
    ).toEqual([
      ['38.619', '776.81', '1.287'],
      ['25.620', '1,170.95', '0.854'],
      ['20.294', '1,478.25', '0.676'],
      ['13.062', '2,296.78', '0.435'],
    ]);
    expect(rows[0]!.levelText).toBe('c=10');
  });
});
