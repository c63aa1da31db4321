import { describe, expect, it } from 'vitest';
import { REPORT_PERCENTILES } from '../../shared/model/defaults.ts';
import { mergeBuckets } from '../../shared/shards/merge.ts';
import { bucketCountsSchema, type ShardReport } from '../../shared/model/shard-facts.ts';
import { EMPTY_BUCKETS } from '../helpers/buckets.ts';
import { latencyValues } from '../helpers/shard-results.ts';
import {
  decodeHistogram,
  encodeHistogram,
  latencyStats,
  newHistogram,
  recordedStats,
  ValueRecorder,
} from '../../electron/engine/recording/histogram.ts';
import { mergedStages, mergedTotals, mergeHistograms } from '../../electron/engine/shards/results.ts';
import { StageHistograms } from '../../electron/engine/native/stage-histograms.ts';
import { shardReportSchema } from '../../shared/model/shard-facts.ts';
import type { Stage } from '../../shared/model/stages.ts';

/** A shard's report of these latencies (200s, nothing else). */
function reportOf(vs: number[]): ShardReport {
  const h = newHistogram();
  for (const v of vs) h.recordValue(v);
  const n = vs.length;
  return {
    counts: {
      requests: {
        total: n,
        responses: n,
        ok: n,
        non2xx: 0,
        errors: 0,
        sloExceeded: 0,
        lengthMismatch: 0,
        unsolicited: 0,
        inFlightAtEnd: 0,
        late: 0,
      },
      sent: n,
      dropped: 0,
      bytes: { inTotal: 0, inBody: 0, outBody: 0, outTotal: 0 },
      statusCodes: n > 0 ? { '200': n } : {},
      errors: [],
      serverSoftware: null,
      documentLength: null,
    },
    histogram: n > 0 ? encodeHistogram(h) : null,
    latencyRange: n > 0 ? { minNonZero: h.minNonZeroValue, max: h.maxValue } : null,
    lateness: EMPTY_BUCKETS,
    corrected: null,
    phases: null,
    stages: null,
    tls: null,
    httpVersion: '1.1',
    attackSeconds: null,
    waitSeconds: null,
    warnings: [],
  };
}

describe('merging shard histograms', () => {
  it('adds encoded histograms into the one histogram of all their values', () => {
    const parts = [latencyValues(5000, 1), latencyValues(3000, 2), latencyValues(1, 3), []];
    const one = newHistogram();
    for (const v of parts.flat()) one.recordValue(v);
    const reports = parts.map(reportOf);
    const merged = mergeHistograms(reports.map((r) => r.histogram));
    expect(merged.totalCount).toBe(8001);
    // Bucket for bucket the same histogram, as a saved result holds it (encoded).
    expect(encodeHistogram(merged)).toBe(encodeHistogram(decodeHistogram(encodeHistogram(one))));
    // And the run's figures are those of the one histogram, its exact extremes included.
    const totals = mergedTotals(reports, 1);
    expect(totals.latency).toEqual(latencyStats(one, REPORT_PERCENTILES));
    expect(totals.requests.total).toBe(8001);
  });

  it("moves a recorder's values as buckets: the receiving recorder gives the same figures", () => {
    const all = new ValueRecorder();
    const parts = [latencyValues(2000, 7), latencyValues(700, 8)];
    const shards = parts.map((vs) => {
      const r = new ValueRecorder();
      for (const v of vs) {
        r.record(v);
        all.record(v);
      }
      return r.buckets();
    });
    const merged = new ValueRecorder();
    merged.addBuckets(mergeBuckets(shards));
    expect(merged.count).toBe(2700);
    expect(recordedStats(merged, REPORT_PERCENTILES)).toEqual(recordedStats(all, REPORT_PERCENTILES));
  });

  it('sends fractional values as they were recorded (autocannon records fractions of a us)', () => {
    const r = new ValueRecorder();
    for (const v of [1.5, 20.25, 3000.75]) r.record(v);
    const sent = bucketCountsSchema.parse(r.buckets());
    expect([sent.minNonZero, sent.max]).toEqual([1.5, 3000.75]);
    expect(sent.counts.reduce((a, c) => a + c, 0)).toBe(3);
  });
});

describe('merging the stage rows of a staged load split across shards', () => {
  const plan: Stage[] = [
    { durationSeconds: 2, target: 200 },
    { durationSeconds: 3, target: 200 },
    { durationSeconds: 1, target: 0 },
  ];

  /** Feeds a stage recorder responses written at `at` ms (plan clock), some non-2xx, some failures. */
  function feed(h: StageHistograms, vs: number[], seed: number): void {
    vs.forEach((v, i) => {
      const at = ((i * 7919 + seed * 104_729) % 6000) + 0.5;
      if (i % 97 === 0) h.failed(at);
      else h.response(i % 13 === 0 ? 503 : 200, v, at);
    });
  }

  it('adds each stage’s counts and histograms: the rows are those of one recorder fed every value', () => {
    for (const model of ['open', 'closed'] as const) {
      const parts = [latencyValues(4000, 11), latencyValues(2500, 12), latencyValues(3, 13)];
      const one = new StageHistograms(plan, model);
      one.begin(0);
      const reports = parts.map((vs, k) => {
        feed(one, vs, k);
        // A shard's plan is its share; its rows count its own requests against the same stage times.
        const shard = new StageHistograms(
          plan.map((s) => ({ ...s, target: s.target / parts.length })),
          model,
        );
        shard.begin(0);
        feed(shard, vs, k);
        return shardReportSchema.parse({ ...reportOf([]), stages: shard.counts() });
      });
      const merged = mergedStages(reports, plan, model);
      expect(merged).toEqual(one.results());
      // Summed over the shards, stage by stage; a stage's rate is its requests over its time.
      const rows = reports.map((r) => r.stages!);
      merged.forEach((row, i) => {
        expect(row.requests).toBe(rows.reduce((a, r) => a + r[i]!.requests, 0));
        expect(row.errors).toBe(rows.reduce((a, r) => a + r[i]!.errors, 0));
        expect(row.non2xx).toBe(rows.reduce((a, r) => a + r[i]!.non2xx, 0));
        expect(row.requestsPerSecond).toBeCloseTo(row.requests / plan[i]!.durationSeconds, 9);
      });
      expect(merged.reduce((a, r) => a + r.requests, 0)).toBe(6503);
      // The open model's planned requests are the whole plan's, not a shard's share.
      expect(merged.map((r) => r.planned)).toEqual(model === 'open' ? [200, 600, 100] : [null, null, null]);
    }
  });

  it('gives a stage no shard answered in no latency, and zero counts', () => {
    const shard = new StageHistograms(plan, 'open');
    shard.begin(0);
    shard.response(200, 1500, 100);
    const merged = mergedStages([{ ...reportOf([]), stages: shard.counts() }], plan, 'open');
    expect(merged.map((r) => [r.requests, r.latency === null])).toEqual([
      [1, false],
      [0, true],
      [0, true],
    ]);
  });
});
