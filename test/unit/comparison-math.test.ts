import { describe, expect, it } from 'vitest';
import { expandPlan, type CellOutcome } from '../../shared/comparison/cells.ts';
import { tCritical95, welchTest } from '../../shared/comparison/noise.ts';
import { statOf, summarizeRepetitions } from '../../shared/comparison/stats.ts';
import {
  aggregateComparison,
  cellAt,
  comparisonPercentileTable,
  percentileTable,
  scalingSeries,
} from '../../shared/comparison/table.ts';
import { comparisonPlanSchema } from '../../shared/comparison/plan.ts';
import { resultWith } from '../helpers/comparison-results.ts';
import { AB_PERCENTILE_LABELS } from '../helpers/run-result.ts';

describe('statOf', () => {
  it('gives mean, sample stdev, min and max', () => {
    const s = statOf([10, 12, 14])!;
    expect(s).toEqual({ n: 3, mean: 12, stdev: 2, min: 10, max: 14 });
    expect(statOf([5])).toEqual({ n: 1, mean: 5, stdev: null, min: 5, max: 5 });
    expect(statOf([])).toBeNull();
  });
});

describe('summarizeRepetitions', () => {
  it('averages completed runs and sets failed and cancelled ones apart', () => {
    const s = summarizeRepetitions([
      resultWith({ rps: 1000, p50: 1, p95: 4, p99: 8, total: 1000, ok: 990 }),
      resultWith({ rps: 1200, p50: 3, p95: 6, p99: 12, total: 1200, ok: 1200 }),
      resultWith({ rps: 0, status: 'failed', total: 0 }),
      resultWith({ rps: 50, status: 'cancelled' }),
    ]);
    expect(s.runs).toBe(2);
    expect(s.skipped).toBe(2);
    expect(s.failures).toEqual(['connection refused']);
    expect(s.figures.rps).toEqual({ n: 2, mean: 1100, stdev: Math.sqrt(20_000), min: 1000, max: 1200 });
    expect(s.figures.p50!.mean).toBe(2);
    expect(s.figures.p95!.mean).toBe(5);
    expect(s.figures.p99!.mean).toBe(10);
    expect(s.figures.failed).toMatchObject({ mean: 5, min: 0, max: 10 });
    expect(s.figures.successRatio!.mean).toBeCloseTo((0.99 + 1) / 2, 12);
    expect(s.requests).toBe(2200);
    expect(s.failedRequests).toBe(10);
    expect(s.non2xx).toBe(10);
    expect(s.errors).toEqual({});
    expect(s.percentiles['99']).toBe(10);
    expect(s.percentiles['100']).toBe(20);
    const withCancelled = summarizeRepetitions([resultWith({ rps: 50, status: 'cancelled' })], {
      includeCancelled: true,
    });
    expect(withCancelled.runs).toBe(1);
    expect(withCancelled.figures.rps!.mean).toBe(50);
  });

  it('adds up the error set by kind', () => {
    const s = summarizeRepetitions([
      resultWith({
        rps: 1,
        total: 10,
        ok: 5,
        errors: [
          { kind: 'refused', count: 3, message: 'ECONNREFUSED' },
          { kind: 'timeout', count: 2, message: 'timed out' },
        ],
      }),
      resultWith({
        rps: 1,
        total: 10,
        ok: 9,
        errors: [{ kind: 'refused', count: 1, message: 'ECONNREFUSED' }],
      }),
    ]);
    expect(s.errors).toEqual({ refused: 4, timeout: 2 });
    expect(s.failedRequests).toBe(6);
    expect(s.figures.failed).toMatchObject({ mean: 3, min: 1, max: 5 });
  });

  it('leaves latency figures empty when no run has a response', () => {
    const s = summarizeRepetitions([resultWith({ rps: 0, noLatency: true, total: 10, ok: 0 })]);
    expect(s.figures.p99).toBeNull();
    expect(s.figures.rps!.mean).toBe(0);
    expect(s.figures.successRatio!.mean).toBe(0);
  });
});

describe('aggregateComparison', () => {
  const plan = comparisonPlanSchema.parse({
    name: 'two servers',
    targets: [
      { name: 'a', urls: { http: 'http://127.0.0.1:1/' } },
      { name: 'b', urls: { http: 'http://127.0.0.1:2/' } },
    ],
    load: { model: 'closed' },
    levels: [100, 10],
    repetitions: 2,
  });
  const rps: Record<string, [number, number]> = {
    '0|10': [100, 110],
    '1|10': [200, 220],
    '0|100': [300, 330],
    '1|100': [500, 500],
  };
  const p99: Record<string, [number, number]> = {
    '0|10': [5, 7],
    '1|10': [2, 4],
    '0|100': [50, 70],
    '1|100': [20, 40],
  };
  const outcomes: CellOutcome[] = expandPlan(plan).map((cell) => {
    const { targetIndex, level, repetition } = cell.coordinates;
    const k = `${targetIndex}|${level}`;
    return {
      cellIndex: cell.index,
      coordinates: cell.coordinates,
      result: resultWith({
        rps: rps[k]![repetition]!,
        p50: level / 10 + targetIndex,
        p99: p99[k]![repetition]!,
      }),
    };
  });
  const table = aggregateComparison(plan, outcomes);

  it('makes one cell per target and level, each over its repetitions', () => {
    expect(outcomes).toHaveLength(8);
    expect(table.cells).toHaveLength(4);
    expect(table.levelKind).toBe('connections');
    expect(table.cells.map((c) => `${c.target}@${c.level}`)).toEqual(['a@100', 'b@100', 'a@10', 'b@10']);
    const a10 = cellAt(table, { targetIndex: 0, protocol: 'http', level: 10 })!;
    expect(a10.runs).toBe(2);
    expect(a10.planned).toBe(2);
    expect(a10.figures.rps!.mean).toBe(105);
    expect(a10.figures.rps!.stdev).toBeCloseTo(7.0711, 4);
    expect(a10.figures.rps!.min).toBe(100);
    expect(a10.figures.rps!.max).toBe(110);
    expect(a10.figures.p99!.mean).toBe(6);
    const b100 = cellAt(table, { targetIndex: 1, protocol: 'http', level: 100 })!;
    expect(b100.figures.rps).toEqual({ n: 2, mean: 500, stdev: 0, min: 500, max: 500 });
  });

  it('keeps cells without results in the table', () => {
    const partial = aggregateComparison(plan, outcomes.slice(0, 3));
    expect(partial.cells).toHaveLength(4);
    const empty = cellAt(partial, { targetIndex: 1, protocol: 'http', level: 10 })!;
    expect(empty.runs).toBe(0);
    expect(empty.figures.rps).toBeNull();
    expect(cellAt(partial, { targetIndex: 0, protocol: 'http', level: 100 })!.runs).toBe(1);
  });

  it('builds the seed-001 percentile table, one column per server', () => {
    const pt = comparisonPercentileTable(table, { protocol: 'http', level: 10 });
    expect(pt.columns).toEqual(['a', 'b']);
    expect(pt.rows.map((r) => r.label)).toEqual(AB_PERCENTILE_LABELS);
    expect(pt.rows[0]!.values).toEqual([1, 2]);
    expect(pt.rows.find((r) => r.percentile === 99)!.values).toEqual([6, 3]);
    expect(pt.rows.find((r) => r.percentile === 100)!.values).toEqual([12, 6]);
    // From plain runs too: one column per entry.
    const plain = percentileTable([
      { label: 'apache', results: [resultWith({ rps: 1, p50: 35, p99: 1052 })] },
      { label: 'nginx', results: [] },
    ]);
    expect(plain.rows.find((r) => r.percentile === 99)!.values).toEqual([1052, null]);
  });

  it('gives scaling series in ascending level order', () => {
    const series = scalingSeries(table);
    expect(series.map((s) => s.label)).toEqual(['a', 'b']);
    expect(series[0]!.points.map((p) => p.level)).toEqual([10, 100]);
    expect(series[0]!.points.map((p) => p.rps)).toEqual([105, 315]);
    expect(series[1]!.points.map((p) => p.p99)).toEqual([3, 30]);
    expect(series[1]!.points[1]!.rpsStdev).toBe(0);
  });
});

describe('tCritical95', () => {
  it('matches the t table, interpolating between rows', () => {
    expect(tCritical95(1)).toBe(12.706);
    expect(tCritical95(4)).toBe(2.776);
    expect(tCritical95(10)).toBe(2.228);
    expect(tCritical95(11)).toBeCloseTo(2.201, 2);
    expect(tCritical95(45)).toBeCloseTo(2.014, 2);
    expect(tCritical95(1e9)).toBeCloseTo(1.96, 3);
    expect(tCritical95(0.5)).toBe(12.706);
  });
});

describe('welchTest (two-sided, 95 %)', () => {
  const spread = (values: number[]) => {
    const s = statOf(values)!;
    return { ...s, stdev: s.stdev! };
  };
  it('calls a clear difference larger than the noise', () => {
    const w = welchTest(spread([100, 102, 98]), spread([110, 112, 108]));
    expect(w.t).toBeCloseTo(6.1237, 3);
    expect(w.df).toBeCloseTo(4, 6);
    expect(w.critical).toBe(2.776);
    expect(w.different).toBe(true);
  });

  it('calls a small difference with a wide spread noise', () => {
    const w = welchTest(spread([100, 120, 80]), spread([105, 125, 85]));
    expect(Math.abs(w.t)).toBeLessThan(w.critical);
    expect(w.different).toBe(false);
  });

  it('treats runs without spread exactly', () => {
    expect(welchTest(spread([1, 1]), spread([1, 1])).different).toBe(false);
    const worse = welchTest(spread([1, 1]), spread([0.9, 0.9]));
    expect(worse.different).toBe(true);
    expect(worse.t).toBe(-Infinity);
  });
});
