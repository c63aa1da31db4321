import * as hdr from 'hdr-histogram-js';
import { describe, expect, it } from 'vitest';
import { REPORT_PERCENTILES } from '../../shared/model/defaults.ts';
import { runResultSchema } from '../../shared/model/result.ts';
import { urlRowPlan } from '../../shared/model/url-table.ts';
import { mergeUrlCounts } from '../../shared/shards/merge.ts';
import { latencyStats, newHistogram } from '../../electron/engine/recording/histogram.ts';
import { mergeShardResults } from '../../electron/engine/shards/merged-result.ts';
import { mergeReports } from '../../electron/engine/shards/results.ts';
import { UrlRecorder, urlTable } from '../../electron/engine/recording/url-recorder.ts';
import { latencyValues, shardReportOf, shardResultFixture } from '../helpers/shard-results.ts';

const get = (path: string, method = 'GET') => ({ method, url: `http://127.0.0.1:8080${path}` });
/** A list as http_load users write one: /a twice to weigh it, and a POST beside a GET. */
const LIST = [get('/a'), get('/b'), get('/a'), get('/c', 'POST'), get('/c')];

/** A recorder fed values[k] as the answer to send k (round-robin over LIST), every 97th an error. */
function recorded(values: readonly number[], from = 0): UrlRecorder {
  const r = new UrlRecorder(LIST);
  values.forEach((v, k) => {
    const request = (from + k) % LIST.length;
    if ((from + k) % 97 === 0) r.failed(request, 'timeout');
    else
      r.response(request, (from + k) % 13 === 0 ? 503 : 200, v, 100 + request * 1000, 200 + request * 1000);
  });
  return r;
}

describe('the rows of a list (urlRowPlan)', () => {
  it('is one row per distinct METHOD URL in order of first appearance: a URL listed twice is one row, its POST another', () => {
    const plan = urlRowPlan(LIST);
    expect(plan.rows).toEqual([get('/a'), get('/b'), get('/c', 'POST'), get('/c')]);
    expect(plan.rowOf).toEqual([0, 1, 0, 2, 3]);
    expect(plan.folded).toBe(0);
  });

  it('keeps max rows at most: past max-1, one last row (request null) counts every other and says how many', () => {
    const list = Array.from({ length: 2500 }, (_, i) => get(`/p${i % 1200}`));
    const plan = urlRowPlan(list);
    expect(plan.rows).toHaveLength(1000);
    expect(plan.rows[998]).toEqual(get('/p998'));
    expect(plan.rows[999]).toBeNull();
    expect(plan.folded).toBe(201);
    expect(plan.rowOf[1000]).toBe(999);
    expect(plan.rowOf[1200]).toBe(0);
    expect(urlRowPlan(list.slice(0, 1000), 1000).rows).toHaveLength(1000);
    expect(urlRowPlan(list.slice(0, 1000), 1000).folded).toBe(0);
  });

  it('counts a folded request in the last row, and the table stays that size however many requests', () => {
    const list = Array.from({ length: 5 }, (_, i) => get(`/p${i}`));
    const r = new UrlRecorder(list.concat(Array.from({ length: 3000 }, (_, i) => get(`/q${i}`))));
    for (let k = 0; k < 3005; k++) r.response(k, 200, 1000, 5, 10);
    const table = urlTable(r.counts());
    expect(table.rows).toHaveLength(1000);
    expect(table.folded).toBe(3005 - 999);
    expect(table.rows[999]).toMatchObject({
      request: null,
      requests: 3005 - 999,
      bytesIn: (3005 - 999) * 10,
    });
    expect(table.rows.reduce((a, row) => a + row.requests, 0)).toBe(3005);
  });
});

describe("a row's latency buckets", () => {
  it('stay few however the latencies spread: at most about 3,300 from 1 us to an hour, exact below 256 us', () => {
    const r = new UrlRecorder([get('/a')]);
    for (let k = 0; k < 200_000; k++)
      r.response(0, 200, Math.round(Math.exp((k / 200_000) * Math.log(3.6e9))), 1, 1);
    r.response(0, 200, 3.6e9, 1, 1);
    const buckets = r.counts().rows[0]!.latency;
    expect(buckets.counts.reduce((a, n) => a + n, 0)).toBe(200_001);
    expect(buckets.indexes.length).toBeGreaterThan(3000);
    expect(buckets.indexes.length).toBeLessThan(3300);
    expect(buckets.max).toBe(3.6e9);
    const low = new UrlRecorder([get('/a')]);
    for (let v = 1; v < 256; v++) low.response(0, 200, v, 1, 1);
    expect(urlTable(low.counts()).rows[0]!.latency).toEqual({ p50: 0.128, p99: 0.253, max: 0.255 });
    // A bucket's highest value above the row's max (1,000-1,003 us holds 1,000 and 1,001): capped at the max.
    const top = new UrlRecorder([get('/a')]);
    top.response(0, 200, 1000, 1, 1);
    top.response(0, 200, 1001, 1, 1);
    expect(urlTable(top.counts()).rows[0]!.latency).toEqual({ p50: 1.001, p99: 1.001, max: 1.001 });
  });
});

describe('per-URL counts merged across workers and machines', () => {
  const values = latencyValues(6000, 7);

  it("two workers' counts merged are one recorder's fed every request: counts added, histograms merged", () => {
    const merged = mergeUrlCounts([
      recorded(values.slice(0, 2500)).counts(),
      recorded(values.slice(2500), 2500).counts(),
    ]);
    const one = recorded(values).counts();
    expect(merged).toEqual(one);
    const table = urlTable(merged!);
    // Each row's percentiles are those of one HdrHistogram of its values at 2 significant
    // digits (the rows' compact layout), not an average of the workers'; its max is exact.
    const aValues = values.filter((_, k) => k % 97 !== 0 && (k % 5 === 0 || k % 5 === 2));
    const h = hdr.build({
      lowestDiscernibleValue: 1,
      highestTrackableValue: 3_600_000_000,
      numberOfSignificantValueDigits: 2,
    });
    for (const v of aValues) h.recordValue(v);
    const max = Math.max(...aValues);
    expect(table.rows[0]!.latency).toEqual({
      p50: Math.min(h.getValueAtPercentile(50), max) / 1000,
      p99: Math.min(h.getValueAtPercentile(99), max) / 1000,
      max: max / 1000,
    });
    // Within 1/128 of the 3-digit figure the run's own histogram gives.
    const fine = newHistogram();
    for (const v of aValues) fine.recordValue(v);
    const p99 = latencyStats(fine, REPORT_PERCENTILES)!.percentiles['99']!;
    expect(Math.abs(table.rows[0]!.latency!.p99 - p99) / p99).toBeLessThan(1 / 128);
    expect(table.rows[0]!.requests).toBe(values.filter((_, k) => k % 5 === 0 || k % 5 === 2).length);
    // The rows add up to what the workers finished; errors and statuses by row.
    expect(table.rows.reduce((a, r) => a + r.requests, 0)).toBe(6000);
    const errors = table.rows.reduce((a, r) => a + (r.errors.timeout ?? 0), 0);
    expect(errors).toBe(Math.ceil(6000 / 97));
    const s503 = table.rows.reduce((a, r) => a + (r.statusCodes['503'] ?? 0), 0);
    expect(s503).toBe(values.filter((_, k) => k % 97 !== 0 && k % 13 === 0).length);
    expect(table.rows[1]!.bytesIn / (table.rows[1]!.requests - (table.rows[1]!.errors.timeout ?? 0))).toBe(
      1200,
    );
  });

  it('keeps the "every other" row last whatever order the parts list their rows in, and none without a list', () => {
    const a = {
      rows: [
        {
          request: null,
          requests: 1,
          statusCodes: { 200: 1 },
          errors: {},
          bytesIn: 5,
          latency: { indexes: [3], counts: [1], minNonZero: 3, max: 3 },
        },
      ],
      folded: 4,
    };
    const b = recorded([10, 20]).counts();
    const merged = mergeUrlCounts([a, b])!;
    expect(merged.rows.map((r) => r.request?.url ?? null)).toEqual([
      ...b.rows.map((r) => r.request!.url),
      null,
    ]);
    expect(merged.folded).toBe(4);
    expect(mergeUrlCounts([undefined, null])).toBeNull();
  });

  it('merges a machine’s workers (mergeReports) and the machines’ shard files (trebuchet merge) exactly; a result without a list has no table', () => {
    const parts = [values.slice(0, 3000), values.slice(3000, 4500), values.slice(4500)];
    let from = 0;
    const shards = parts.map((vs, i) => {
      const s = shardResultFixture(i, 3, vs, 2);
      s.shard.report.urls = recorded(vs, from).counts();
      from += vs.length;
      return s;
    });
    // One machine's two workers as its shard's one report.
    const machine = mergeReports([
      { ...shardReportOf(parts[0]!.slice(0, 1000)), urls: recorded(parts[0]!.slice(0, 1000)).counts() },
      { ...shardReportOf(parts[0]!.slice(1000)), urls: recorded(parts[0]!.slice(1000), 1000).counts() },
    ]);
    expect(machine.urls).toEqual(shards[0]!.shard.report.urls);
    const merged = runResultSchema.parse(mergeShardResults(shards));
    expect(merged.urls).toEqual(urlTable(recorded(values).counts()));
    const plain = runResultSchema.parse(
      mergeShardResults(parts.map((vs, i) => shardResultFixture(i, 3, vs, 2))),
    );
    expect(plain.urls).toBeUndefined();
  });
});
