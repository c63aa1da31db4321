import { describe, expect, it } from 'vitest';
import { METRICS } from '../../shared/metrics/catalog.ts';
import { labelValue, MAX_LABEL_CHARS, partLabels, shardJob } from '../../shared/metrics/labels.ts';
import { PartFeed, requestsByStatus } from '../../shared/metrics/part-feed.ts';
import { promSamples, remoteWriteSeries } from '../../shared/metrics/prometheus-series.ts';
import { HISTOGRAM_BOUNDS_SECONDS, MetricStore, type MetricSeries } from '../../shared/metrics/series.ts';
import { scenarioSchema, type Scenario } from '../../shared/model/scenario.ts';
import { WINDOW_BUCKETS } from '../../shared/figures/window-buckets.ts';
import { machineSample } from '../helpers/machine-results.ts';
import { runResultFixture, sampleFixture } from '../helpers/run-result.ts';

const scenario = (
  load: unknown = { model: 'closed', connections: 8, limit: { kind: 'requests', count: 100 } },
): Scenario =>
  scenarioSchema.parse({ name: 's', targets: [{ name: 'nginx', url: 'http://127.0.0.1:8080/' }], load });

/** The store's value of one series, by metric name and its own labels (beside the part's). */
function valueOf(store: MetricStore, name: string, own: Record<string, string> = {}): number | undefined {
  const s = store
    .snapshot()
    .series.find(
      (x) =>
        x.def.name === name &&
        Object.entries(own).every(([k, v]) => x.labels[k] === v) &&
        x.kind === 'scalar',
    );
  return s?.kind === 'scalar' ? s.value : undefined;
}

const histogramOf = (
  store: MetricStore,
  name: string,
): Extract<MetricSeries, { kind: 'histogram' }> | undefined =>
  store
    .snapshot()
    .series.find(
      (x): x is Extract<MetricSeries, { kind: 'histogram' }> => x.def.name === name && x.kind === 'histogram',
    );

describe("a part's samples as metrics", () => {
  it('adds each measured window\'s counts: requests by status (no response: "error"), errors by kind, bytes, late, CPU', () => {
    const store = new MetricStore(() => 1000);
    const feed = new PartFeed(store, { job: 'run-1' }, scenario().load);
    feed.sample(
      sampleFixture({
        seq: 0,
        requests: 105,
        statusCodes: { '200': 90, '503': 10 },
        errors: { timeout: 5, slo: 3 },
        bytesInPerSecond: 1234.5 / 0.5,
        intervalSeconds: 0.5,
        late: 2,
        cpuPercent: 40,
      }),
    );
    feed.sample(
      sampleFixture({
        seq: 1,
        requests: 50,
        statusCodes: { '200': 50 },
        errors: {},
        bytesInPerSecond: 0,
        cpuPercent: 10,
      }),
    );
    expect(valueOf(store, 'trebuchet_requests_total', { status: '200' })).toBe(140);
    expect(valueOf(store, 'trebuchet_requests_total', { status: '503' })).toBe(10);
    expect(valueOf(store, 'trebuchet_requests_total', { status: 'error' })).toBe(5);
    expect(valueOf(store, 'trebuchet_errors_total', { kind: 'timeout' })).toBe(5);
    expect(valueOf(store, 'trebuchet_errors_total', { kind: 'slo' })).toBe(3);
    expect(valueOf(store, 'trebuchet_received_bytes_total')).toBe(1235);
    expect(valueOf(store, 'trebuchet_late_requests_total')).toBe(2);
    expect(valueOf(store, 'trebuchet_generator_cpu_seconds_total')).toBeCloseTo(0.4 * 0.5 + 0.1 * 1, 12);
    // Gauges: the last tick's.
    expect(valueOf(store, 'trebuchet_requests_in_flight')).toBe(10);
    expect(valueOf(store, 'trebuchet_connections')).toBe(8);
  });

  it("leaves warm-up windows out of the counters (the report's totals leave them out too), not out of the gauges", () => {
    const store = new MetricStore(() => 0);
    const feed = new PartFeed(store, {}, scenario().load);
    feed.sample(
      sampleFixture({ seq: 0, warmup: true, requests: 77, statusCodes: { '200': 77 }, inFlight: 3 }),
    );
    expect(valueOf(store, 'trebuchet_requests_total', { status: '200' })).toBeUndefined();
    expect(valueOf(store, 'trebuchet_requests_in_flight')).toBe(3);
    feed.sample(sampleFixture({ seq: 1, requests: 5, statusCodes: { '200': 5 } }));
    expect(valueOf(store, 'trebuchet_requests_total', { status: '200' })).toBe(5);
  });

  it("takes back what a replaced sample added (the engine's final fold at the same seq), buckets included", () => {
    const store = new MetricStore(() => 0);
    const feed = new PartFeed(store, {}, scenario().load);
    const window = (seq: number, statusCodes: Record<string, number>, counts: number[], sumMs: number) =>
      sampleFixture({
        seq,
        requests: Object.values(statusCodes).reduce((a, b) => a + b, 0),
        statusCodes,
        latencyBuckets: { counts, sumMs },
      });
    feed.sample(window(0, { '200': 10 }, [0, 4, 6], 30));
    feed.sample(window(1, { '200': 20 }, [0, 0, 20], 60));
    // The last window folded into the one before: seq 1 again, both windows' counts.
    feed.sample(window(1, { '200': 22, '500': 1 }, [1, 0, 22], 75));
    expect(valueOf(store, 'trebuchet_requests_total', { status: '200' })).toBe(32);
    expect(valueOf(store, 'trebuchet_requests_total', { status: '500' })).toBe(1);
    const h = histogramOf(store, 'trebuchet_request_duration_seconds')!;
    expect(h.counts.slice(0, 3)).toEqual([1, 4, 28]);
    expect(h.counts).toHaveLength(WINDOW_BUCKETS);
    expect(h.count).toBe(33);
    expect(h.sum).toBeCloseTo(0.105, 12);
  });

  it("reads the server's CPU-seconds (measured readings; a replaced reading taken back) and its memory", () => {
    const store = new MetricStore(() => 0);
    const feed = new PartFeed(store, {}, scenario().load);
    const reading = { elapsedSeconds: 1, intervalSeconds: 1 };
    feed.reading({ ...reading, seq: 0, warmup: true, cpuSeconds: 9 });
    feed.reading({ ...reading, seq: 1, warmup: false, cpuSeconds: 0.25, rssBytes: 1000 });
    feed.reading({ ...reading, seq: 2, warmup: false, cpuSeconds: 0.5, rssBytes: 3000 });
    feed.reading({ ...reading, seq: 2, warmup: false, cpuSeconds: 0.75, rssBytes: 2000 });
    expect(valueOf(store, 'trebuchet_server_cpu_seconds_total')).toBe(1);
    expect(valueOf(store, 'trebuchet_server_resident_memory_bytes')).toBe(2000);
  });

  it("reads the machine's busy share as a ratio of its cores, the last reading's; a gap leaves it", () => {
    const store = new MetricStore(() => 0);
    const feed = new PartFeed(store, { job: 'j' }, scenario().load);
    expect(valueOf(store, 'trebuchet_machine_cpu_busy_ratio')).toBeUndefined();
    feed.machine(machineSample({ seq: 1, cpuBusyPercent: 40 }));
    feed.machine(machineSample({ seq: 2, cpuBusyPercent: 97.5 }));
    expect(valueOf(store, 'trebuchet_machine_cpu_busy_ratio')).toBe(0.975);
    feed.machine(machineSample({ seq: 3, cpuBusyPercent: 0, gap: 'no /proc/stat' }));
    expect(valueOf(store, 'trebuchet_machine_cpu_busy_ratio')).toBe(0.975);
    const [series] = store.snapshot().series.filter((x) => x.def === METRICS.machineCpu);
    expect(series?.labels).toEqual({ job: 'j' });
  });

  it('counts a list\'s per-URL rows from the result, the "every other" row as url="other"', () => {
    const store = new MetricStore(() => 0);
    const feed = new PartFeed(store, { job: 'j' }, scenario().load);
    const row = (request: { method: string; url: string } | null, requests: number, ok: number) => ({
      request,
      requests,
      statusCodes: { '200': ok },
      errors: {},
      bytesIn: 0,
      latency: null,
    });
    feed.result(
      runResultFixture({
        urls: { rows: [row({ method: 'GET', url: 'http://h/a' }, 10, 9), row(null, 4, 4)], folded: 3 },
      }),
    );
    expect(valueOf(store, 'trebuchet_url_requests_total', { url: 'GET http://h/a', status: '200' })).toBe(9);
    expect(valueOf(store, 'trebuchet_url_requests_total', { url: 'GET http://h/a', status: 'error' })).toBe(
      1,
    );
    expect(valueOf(store, 'trebuchet_url_requests_total', { url: 'other', status: '200' })).toBe(4);
  });

  it('splits a count by status: codes as given, the rest of the requests as "error"', () => {
    expect(requestsByStatus({ requests: 12, statusCodes: { '200': 10, '404': 0 } })).toEqual([
      ['200', 10],
      ['error', 2],
    ]);
  });
});

describe("a part's labels", () => {
  it("names the job, its kind, the target, the protocol; a level for a comparison's or search's parts; a shard when placed", () => {
    expect(partLabels({ job: 'run-1', kind: 'run' }, scenario(), 0)).toEqual({
      job: 'run-1',
      job_kind: 'run',
      target: 'nginx',
      protocol: 'http1.1',
    });
    expect(partLabels({ job: 'cmp-1', kind: 'comparison' }, scenario(), 0).level).toBe('8');
    expect(
      partLabels({ job: 'cap-1', kind: 'capacity' }, scenario({ model: 'open', rate: 250 }), 0).level,
    ).toBe('250');
    // The second shard (index 1) is `--shard 2/N`: labelled as the flag counts.
    expect(partLabels({ job: 'p', kind: 'run', shard: 1 }, scenario(), 0).shard).toBe('2');
    expect(shardJob('abcd', Date.UTC(2026, 0, 2, 3, 4, 5))).toBe('plan-abcd-2026-01-02T03:04:05.000Z');
    // Pods started by their Job's go share the Job's name instead of a time.
    expect(shardJob('abcd', 'trebuchet-abcd')).toBe('plan-abcd-trebuchet-abcd');
  });

  it('cuts a long value (a long name or URL) to a bounded length', () => {
    const long = 'x'.repeat(5000);
    expect(labelValue(long)).toHaveLength(MAX_LABEL_CHARS);
    expect(labelValue(long).endsWith('…')).toBe(true);
    expect(labelValue('short')).toBe('short');
  });
});

describe("series in Prometheus's model", () => {
  it('writes a histogram as cumulative _bucket series (le="+Inf" last), _sum and _count', () => {
    const store = new MetricStore(() => 5);
    store.addBuckets(METRICS.duration, { job: 'j' }, { counts: [2, 0, 3], sumMs: 40 }, 1);
    const samples = promSamples(store.snapshot().series[0]!);
    const buckets = samples.filter((s) => s.name.endsWith('_bucket'));
    expect(buckets).toHaveLength(HISTOGRAM_BOUNDS_SECONDS.length + 1);
    expect(buckets.slice(0, 4).map((s) => [s.labels.le, s.value])).toEqual([
      ['0.00005', 2],
      ['0.00007', 2],
      ['0.0001', 5],
      ['0.00015', 5],
    ]);
    expect(buckets.at(-1)).toMatchObject({ labels: { le: '+Inf', job: 'j' }, value: 5 });
    expect(samples.slice(-2).map((s) => [s.name, s.value])).toEqual([
      ['trebuchet_request_duration_seconds_sum', 0.04],
      ['trebuchet_request_duration_seconds_count', 5],
    ]);
  });

  it('gives remote write one series per name and labels, __name__ first then sorted, samples in time order, each snapshot later', () => {
    let now = 100;
    const store = new MetricStore(() => now);
    store.add(METRICS.requests, { target: 't', job: 'j', status: '200' }, 3);
    const first = store.snapshot();
    store.add(METRICS.requests, { target: 't', job: 'j', status: '200' }, 4);
    const second = store.snapshot(); // the same ms: one later
    now = 50; // a clock that stepped back: still later
    const third = store.snapshot();
    const series = remoteWriteSeries([first, second, third]);
    expect(series).toHaveLength(1);
    expect(Object.keys(series[0]!.labels)).toEqual(['__name__', 'job', 'status', 'target']);
    expect(series[0]!.samples).toEqual([
      { value: 3, timestamp: 100 },
      { value: 7, timestamp: 101 },
      { value: 7, timestamp: 102 },
    ]);
  });
});
