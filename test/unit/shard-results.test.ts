import { describe, expect, it } from 'vitest';
import { REPORT_PERCENTILES } from '../../shared/defaults.ts';
import {
  bucketCountsSchema,
  EMPTY_BUCKETS,
  mergeBuckets,
  type ShardReport,
} from '../../shared/shard-merge.ts';
import {
  decodeHistogram,
  encodeHistogram,
  latencyStats,
  newHistogram,
  recordedStats,
  ValueRecorder,
} from '../../electron/engine/histogram.ts';
import { mergedTotals, mergeHistograms } from '../../electron/engine/shard-results.ts';

/** Latencies (us) spread over many buckets: 1 us to 2 s, a heavy tail. */
function values(n: number, seed: number): number[] {
  let x = seed;
  return Array.from({ length: n }, () => {
    x = (x * 1_103_515_245 + 12_345) % 2 ** 31;
    const u = x / 2 ** 31;
    return Math.max(1, Math.round(u ** 6 * 2_000_000));
  });
}

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
    tls: null,
    httpVersion: '1.1',
    attackSeconds: null,
    waitSeconds: null,
    warnings: [],
  };
}

describe('merging shard histograms', () => {
  it('adds encoded histograms into the one histogram of all their values', () => {
    const parts = [values(5000, 1), values(3000, 2), values(1, 3), []];
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
    const parts = [values(2000, 7), values(700, 8)];
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
