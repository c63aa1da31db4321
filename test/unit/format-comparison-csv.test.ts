import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import type { CellOutcome } from '../../shared/comparison/cells.ts';
import { aggregateComparison, comparisonPercentileTable } from '../../shared/comparison/table.ts';
import { comparisonPlanSchema } from '../../shared/comparison/plan.ts';
import { comparisonMatrixCsv, percentileTableCsv, summaryCsv } from '../../shared/format/csv.ts';
import { resultWith } from '../helpers/comparison-results.ts';
import { amendResult } from '../helpers/run-result.ts';

const plan = comparisonPlanSchema.parse({
  name: 'two servers',
  targets: [
    { name: '=HYPERLINK("http://evil.example","x")', urls: { http: 'http://127.0.0.1:8081/' } },
    { name: 'apache', urls: { http: 'http://127.0.0.1:8082/' } },
  ],
  load: { model: 'closed', connections: 10, limit: { kind: 'duration', seconds: 1 } },
  levels: [10, 100],
  repetitions: 2,
});

function outcome(
  targetIndex: number,
  level: number,
  repetition: number,
  rps: number,
  p99: number,
): CellOutcome {
  return {
    cellIndex: 0,
    coordinates: { targetIndex, protocol: 'http', level, repetition },
    result: resultWith({ rps, p50: p99 / 4, p95: p99 / 2, p99, total: 100, ok: 98 }),
  };
}

const outcomes = [
  outcome(0, 10, 0, 1000, 4),
  outcome(0, 10, 1, 1200, 6),
  outcome(1, 10, 0, 800, 8),
  outcome(1, 10, 1, 800, 8),
  outcome(0, 100, 0, 3000, 20),
  // apache at 100 has one repetition only: no stdev.
  outcome(1, 100, 0, 2000, 40),
];

describe('comparison matrix CSV', () => {
  const table = aggregateComparison(plan, outcomes);
  const rows = parse<Record<string, string>>(comparisonMatrixCsv(table, outcomes), { columns: true });

  it('has one row per cell with units in the headers, and the spread across repetitions', () => {
    expect(rows).toHaveLength(4);
    expect(Object.keys(rows[0]!).slice(0, 9)).toEqual([
      'target',
      'connections',
      'protocol',
      'repetitions planned',
      'repetitions counted',
      'repetitions left out',
      'rate mean (req/s)',
      'rate stdev (req/s)',
      'rate min (req/s)',
    ]);
    const first = rows[0]!;
    expect(Number(first['rate mean (req/s)'])).toBe(1100);
    expect(Number(first['rate stdev (req/s)'])).toBeCloseTo(Math.sqrt(20_000), 6);
    expect(Number(first['rate min (req/s)'])).toBe(1000);
    expect(Number(first['rate max (req/s)'])).toBe(1200);
    expect(Number(first['latency p99 mean (ms)'])).toBe(5);
    expect(Number(first['latency p50 mean (ms)'])).toBe(1.25);
    expect(Number(first['failed requests'])).toBe(4);
    expect(Number(first['success (%)'])).toBe(98);
    expect(rows.map((r) => [r['connections'], r['repetitions counted']])).toEqual([
      ['10', '2'],
      ['10', '2'],
      ['100', '1'],
      ['100', '1'],
    ]);
    // One repetition has no spread: the cell is empty, not 0.
    expect(rows[3]!['rate stdev (req/s)']).toBe('');
  });

  it('neutralises a target name that starts a formula', () => {
    expect(rows[0]!['target']).toBe('\'=HYPERLINK("http://evil.example","x")');
    expect(rows[1]!['target']).toBe('apache');
  });

  it('labels rate levels as such for an open-model plan', () => {
    const open = comparisonPlanSchema.parse({
      ...plan,
      load: { model: 'open', rate: 100, durationSeconds: 1 },
      levels: [100, 1000],
    });
    const header = comparisonMatrixCsv(aggregateComparison(open, []), []).split('\r\n')[0]!;
    expect(header.startsWith('target,rate level (req/s),protocol,')).toBe(true);
  });
});

describe('late, dropped, SLO failures, phases and the verdict in both CSVs', () => {
  // Seed 000's Apache cell at 10000 req/s: half the schedule dropped, the other half late.
  const open = comparisonPlanSchema.parse({
    ...plan,
    load: { model: 'open', rate: 100, durationSeconds: 5 },
    levels: [10_000],
    repetitions: 1,
  });
  const dropped = amendResult(resultWith({ rps: 4530, total: 25_413 }), {
    load: { model: 'open', rate: 10_000, durationSeconds: 5, maxInFlight: 10_000 },
    requests: { late: 25_396, dropped: 24_587, sloExceeded: 0 },
    statusCodes: { '200': 25_413 },
    phases: {
      setup: { min: 0, mean: 1.5, stdev: 0, median: 1, max: 3, percentiles: {} },
      processing: { min: 0, mean: 2.25, stdev: 0, median: 2, max: 4, percentiles: {} },
      waiting: { min: 0, mean: 2, stdev: 0, median: 2, max: 4, percentiles: {} },
    },
  });
  const cell: CellOutcome = {
    cellIndex: 0,
    coordinates: { targetIndex: 1, protocol: 'http', level: 10_000, repetition: 0 },
    result: dropped,
  };

  it('Matrix CSV: a cell that dropped requests says so in its late, dropped and verdict columns', () => {
    const [, apache] = parse<Record<string, string>>(
      comparisonMatrixCsv(aggregateComparison(open, [cell]), [cell]),
      { columns: true },
    );
    expect(apache).toMatchObject({
      target: 'apache',
      late: '25396',
      dropped: '24587',
      'slo failures': '',
      'connect mean (ms)': '1.5',
      'processing mean (ms)': '2.25',
      'waiting mean (ms)': '2',
      verdict: 'rate-not-reached',
      caveats: 'rate not reached',
      'verdict message':
        'The rate was not reached at 10,000 req/s: of 50,000 scheduled requests, 24,587 (49.2%) were never sent and 25,396 (50.8%) went out late.',
    });
  });

  it('Runs summary CSV: each run with its late, dropped, SLO failures, phase means and verdict', () => {
    const slow = amendResult(resultWith({ rps: 100, total: 1000, ok: 400 }), {
      options: { sloMs: 300 },
      requests: { sloExceeded: 600, non2xx: 0 },
      statusCodes: { '200': 1000 },
    });
    const [a, b] = parse<Record<string, string>>(
      summaryCsv([
        { label: 'apache · 10000 req/s', result: dropped },
        { label: 'slow', result: slow },
      ]),
      { columns: true },
    );
    expect(a).toMatchObject({
      late: '25396',
      dropped: '24587',
      'connect mean (ms)': '1.5',
      verdict: 'rate-not-reached',
    });
    expect(b).toMatchObject({
      late: '',
      dropped: '',
      'slo exceeded': '600',
      verdict: 'failures',
      caveats: 'SLO 60.0%',
      'verdict message':
        '600 of 1,000 requests (60.0%) were slower than the 300 ms SLO and count as failures.',
    });
  });
});

describe('percentile table CSV', () => {
  it('has one latency column per server and one row per percentile', () => {
    const table = aggregateComparison(plan, outcomes);
    const csv = percentileTableCsv(comparisonPercentileTable(table, { protocol: 'http', level: 10 }));
    const rows = parse(csv);
    expect(rows[0]).toEqual([
      'percentile (%)',
      '\'=HYPERLINK("http://evil.example","x") latency (ms)',
      'apache latency (ms)',
    ]);
    const p99 = rows.find((r) => r[0] === '99');
    expect(p99?.slice(1).map(Number)).toEqual([5, 8]);
    expect(rows).toHaveLength(12);
  });
});
