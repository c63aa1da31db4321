/**
 * Live metrics out (issue 39, docs/metrics.md) through the real `trebuchet` command, against
 * Debian's Prometheus started here on loopback (remote write receiver on, a temp storage dir,
 * a free port, stopped after), an OTLP/HTTP receiver of the test's own (the exporter's JSON
 * encoding, test/helpers/otlp-receiver.ts), and endpoints that refuse or never answer.
 */
import http from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capacityStepSchema } from '../../shared/capacity/plan.ts';
import { cellOutcomeSchema } from '../../shared/comparison/cells.ts';
import { HISTOGRAM_BOUNDS_SECONDS } from '../../shared/metrics/series.ts';
import { runResultSchema, type RunResult } from '../../shared/model/result.ts';
import { bucketOf, WINDOW_BUCKET_BOUNDS_MS } from '../../shared/figures/window-buckets.ts';
import { endAfterAll, endAfterEach } from '../helpers/cleanup.ts';
import { runCli, startCli } from '../helpers/cli.ts';
import { attributesOf, startOtlpReceiver } from '../helpers/otlp-receiver.ts';
import { startPrometheus, type TestPrometheus } from '../helpers/prometheus.ts';
import {
  freePort,
  refusedPort,
  startHttpServer,
  startRawServer,
  type TestServer,
} from '../helpers/servers.ts';

const endAll = endAfterAll();
const end = endAfterEach();

/**
 * A server whose answers vary by request number, the same every run: 404 and 500 among the
 * 200s, 30 % of answers 2-14 ms late (latency across several buckets, and past a 10 ms SLO),
 * and every 211th answer 2 s late (past MIXED_TIMEOUT: a transport error, a timeout).
 */
function mixedServer(): Promise<TestServer> {
  let n = 0;
  return startHttpServer((_req, res) => {
    const i = n++;
    const status = i % 17 === 3 ? 404 : i % 29 === 5 ? 500 : 200;
    const delay = i % 211 === 50 ? 2000 : i % 10 < 3 ? 2 + (i % 7) * 2 : 0;
    setTimeout(() => {
      res.writeHead(status, { 'content-length': 2 });
      res.end('ok');
    }, delay);
  });
}

/**
 * The --timeout the mixed server's 2 s answers miss; its others, and the pre-flight's first
 * request on a loaded machine, come far within it.
 */
const MIXED_TIMEOUT = '1s';

const readResults = (file: string): RunResult[] => {
  const json: unknown = JSON.parse(readFileSync(file, 'utf8'));
  return (Array.isArray(json) ? json : [json]).map((r) => runResultSchema.parse(r));
};

/** A label matcher's value, escaped for PromQL. */
const q = (value: string): string => JSON.stringify(value);

const DASHBOARD = join(import.meta.dirname, '../../resources/grafana/trebuchet.json');

let dir: string;
let prometheus: TestPrometheus;
/** The address Prometheus scrapes every second (a `--metrics-listen` run binds it). */
let scrapePort: number;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'trebuchet-metrics-'));
  scrapePort = await freePort();
  prometheus = endAll(await startPrometheus({ scrape: `127.0.0.1:${scrapePort}` }));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('--out prometheus-rw', () => {
  it("sends a run whose totals in Prometheus are the report's, exactly, and whose histogram gives its percentiles within a bucket", async () => {
    const server = end(await mixedServer());
    const json = join(dir, 'mixed.json');
    const r = await runCli([
      ...[
        'run',
        '-n',
        '5000',
        '-c',
        '10',
        '--slo',
        '10',
        '--timeout',
        MIXED_TIMEOUT,
        '--allow-error-status',
        '-q',
      ],
      ...['--out', `prometheus-rw=${prometheus.writeUrl}`, '--json', json, server.url],
    ]);
    expect(r.stderr).not.toMatch(/not delivered/);
    const [result] = readResults(json);
    expect(result!.warnings.filter((w) => w.code === 'metrics-not-delivered')).toEqual([]);
    const job = `job=${q(result!.runId)}`;
    const last = (metric: string) => `last_over_time(${metric}{${job}}[10m])`;

    // The issue's own check: every request, once.
    expect(await prometheus.scalar(`sum(${last('trebuchet_requests_total')})`)).toBe(5000);
    expect(result!.requests.total).toBe(5000);
    const byStatus = await prometheus.query(`sum by (status) (${last('trebuchet_requests_total')})`);
    const expected: Record<string, number> = { ...result!.statusCodes };
    if (result!.requests.errors > 0) expected.error = result!.requests.errors;
    expect(Object.fromEntries(byStatus.map((s) => [s.metric.status, s.value]))).toEqual(expected);
    // The server's mix shows: 404s, 500s, timeouts and answers past the SLO.
    expect(Object.keys(expected).sort()).toEqual(['200', '404', '500', 'error']);
    const byKind = await prometheus.query(`sum by (kind) (${last('trebuchet_errors_total')})`);
    expect(Object.fromEntries(byKind.map((s) => [s.metric.kind, s.value]))).toEqual(
      Object.fromEntries(result!.errors.map((e) => [e.kind, e.count])),
    );
    expect(result!.errors.find((e) => e.kind === 'slo')?.count).toBeGreaterThan(0);

    // The histogram holds every response; each percentile lies in the report's percentile's bucket.
    expect(await prometheus.scalar(`sum(${last('trebuchet_request_duration_seconds_count')})`)).toBe(
      result!.requests.responses,
    );
    for (const p of ['50', '90', '99']) {
      const fromPrometheus =
        1000 *
        (await prometheus.scalar(
          `histogram_quantile(${Number(p) / 100}, sum by (le) (${last('trebuchet_request_duration_seconds_bucket')}))`,
        ));
      const reported = result!.latency!.percentiles[p]!;
      const k = bucketOf(reported);
      const [lo, hi] = [WINDOW_BUCKET_BOUNDS_MS[k - 1] ?? 0, WINDOW_BUCKET_BOUNDS_MS[k]!];
      // The bucket's width, and hdr's 0.1 % at its edge (a value is bucketed by its hdr bucket's lowest value).
      expect(
        Math.abs(fromPrometheus - reported),
        `p${p}: ${fromPrometheus} vs ${reported}`,
      ).toBeLessThanOrEqual(hi - lo + reported * 0.001);
    }
    // The labels a part carries: no level (a run's targets have none), no shard.
    const [series] = await prometheus.query(`${last('trebuchet_requests_total')}`);
    expect(Object.keys(series!.metric).sort()).toEqual([
      '__name__',
      'job',
      'job_kind',
      'protocol',
      'status',
      'target',
    ]);
    expect(series!.metric).toMatchObject({
      job_kind: 'run',
      protocol: 'http1.1',
      target: `127.0.0.1:${server.port}`,
    });
  });

  it("labels a comparison's cells by level; repetitions of a cell add up in one series", async () => {
    const server = end(await startHttpServer((_req, res) => res.end('ok')));
    const json = join(dir, 'comparison.json');
    const r = await runCli([
      ...['run', '--preset', 'seed-004', '--target', `lighttpd=${server.url}`, '-n', '300'],
      ...['--levels', '2,4', '--repetitions', '2', '--pause', '0', '-q', '--json', json],
      ...['--out', `prometheus-rw=${prometheus.writeUrl}`],
    ]);
    expect(r.code).toBe(0);
    const saved = JSON.parse(readFileSync(json, 'utf8')) as { outcomes: unknown[] };
    const outcomes = saved.outcomes.map((o) => cellOutcomeSchema.parse(o));
    expect(outcomes.map((o) => o.result.requests.total)).toEqual([300, 300, 300, 300]);
    // The only comparison this Prometheus got: one job, a series per level (and status).
    const byLevel = await prometheus.query(
      'sum by (job, level, target) (last_over_time(trebuchet_requests_total{job_kind="comparison"}[10m]))',
    );
    expect(new Set(byLevel.map((s) => s.metric.job)).size).toBe(1);
    expect(byLevel[0]!.metric.job).toMatch(/^cmp-/);
    expect(byLevel.map((s) => [s.metric.level, s.metric.target, s.value]).sort()).toEqual([
      ['2', 'lighttpd', 600],
      ['4', 'lighttpd', 600],
    ]);
  });

  it("labels a capacity search's steps by their rate", async () => {
    const server = end(await startHttpServer((_req, res) => res.end('ok')));
    const json = join(dir, 'capacity.json');
    const r = await runCli([
      ...['capacity', server.url, '--p99', '1000', '--start-rate', '50', '--max-rate', '50'],
      ...[
        '--step',
        '0.5',
        '--warmup',
        '0',
        '-q',
        '--json',
        json,
        '--out',
        `prometheus-rw=${prometheus.writeUrl}`,
      ],
    ]);
    expect(r.code, r.stderr).toBe(0);
    const saved = JSON.parse(readFileSync(json, 'utf8')) as { steps: unknown[] };
    const steps = saved.steps.map((s) => capacityStepSchema.parse(s));
    expect(steps.map((s) => s.rate)).toEqual([50]);
    const byLevel = await prometheus.query(
      'sum by (job, level) (last_over_time(trebuchet_requests_total{job_kind="capacity"}[10m]))',
    );
    expect(byLevel.map((s) => [s.metric.level, s.value])).toEqual([['50', steps[0]!.result.requests.total]]);
    expect(byLevel[0]!.metric.job).toMatch(/^cap-/);
  });

  it("sends each machine's shard (--shard i/N) with its index, under one job, summing to the plan", async () => {
    const server = end(await startHttpServer((_req, res) => res.end('ok')));
    const startAt = new Date(Date.now() + 4000).toISOString();
    const files = [0, 1].map((i) => join(dir, `shard-${i}.json`));
    const runs = await Promise.all(
      [0, 1].map((i) =>
        runCli([
          ...['run', '-n', '4000', '-c', '4', '--shard', `${i + 1}/2`, '--start-at', startAt, '-q'],
          ...['--out', `prometheus-rw=${prometheus.writeUrl}`, '--json', files[i]!, server.url],
        ]),
      ),
    );
    expect(runs.map((r) => r.code)).toEqual([0, 0]);
    const results = files.map((f) => readResults(f)[0]!);
    const planJob = `plan-${results[0]!.shard!.planId}-${startAt}`;
    const byShard = await prometheus.query(
      `sum by (shard) (last_over_time(trebuchet_requests_total{job=${q(planJob)}}[10m]))`,
    );
    expect(byShard.map((s) => [s.metric.shard, s.value]).sort()).toEqual(
      // Labelled as the flag counts: shard="1" is --shard 1/2.
      results.map((res, i) => [String(i + 1), res.requests.total]),
    );
    expect(
      await prometheus.scalar(`sum(last_over_time(trebuchet_requests_total{job=${q(planJob)}}[10m]))`),
    ).toBe(4000);
  });
});

describe('the Grafana dashboard', () => {
  it("runs each of its queries in Prometheus on a run's series: every one parses, the core ones have data", async () => {
    const server = end(await mixedServer());
    const json = join(dir, 'dashboard.json');
    // The machine read (the tier leaves it unread), so its panel has this run's readings too.
    const r = await runCli(
      [
        ...['run', '-d', '3s', '-c', '4', '--timeout', MIXED_TIMEOUT, '--allow-error-status', '-q'],
        ...['--out', `prometheus-rw=${prometheus.writeUrl}`, '--json', json, server.url],
      ],
      { env: { TREBUCHET_MACHINE: 'on' } },
    );
    expect(r.code).toBe(0);
    const [result] = readResults(json);
    const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as {
      panels: { title: string; targets?: { expr: string }[] }[];
    };
    // Grafana's variables as it would fill them: this job, every target, a 10 m range.
    const filled = (expr: string) =>
      expr
        .replaceAll('$job', result!.runId)
        .replaceAll('$target', '.+')
        .replaceAll('$__rate_interval', '1m')
        .replaceAll('$__range', '10m');
    const empty: string[] = [];
    for (const panel of dashboard.panels) {
      for (const t of panel.targets ?? []) {
        const series = await prometheus.query(filled(t.expr));
        if (series.length === 0) empty.push(panel.title);
      }
    }
    // A closed run without a schedule or a list has no send lateness; every other panel shows this run.
    expect(empty).toEqual(['Send lateness p99']);
  });
});

describe('--metrics-listen', () => {
  it('serves trebuchet_requests_total while a run goes on, and Prometheus scrapes it', async () => {
    const server = end(await startHttpServer((_req, res) => setTimeout(() => res.end('ok'), 2)));
    const json = join(dir, 'listen.json');
    const cli = end(
      startCli([
        ...['run', '-d', '4s', '--warmup', '1s', '-c', '2', '--metrics-listen', `127.0.0.1:${scrapePort}`],
        ...['-q', '--json', json, server.url],
      ]),
    );
    await cli.waitForStderr(/serving live metrics at http:\/\/127\.0\.0\.1:\d+\/metrics/);
    // Scraped as Prometheus would, until the measured requests show (the run is 5 s long).
    let seen = 0;
    let text = '';
    while (seen === 0 && cli.child.exitCode === null) {
      const res = await fetch(`http://127.0.0.1:${scrapePort}/metrics`);
      expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
      text = await res.text();
      const family = parsePrometheusTextFormat(text).find((f) => f.name === 'trebuchet_requests_total');
      seen = family ? family.metrics.reduce((sum, m) => sum + Number(m.value), 0) : 0;
      if (seen === 0) await new Promise((r) => setTimeout(r, 200));
    }
    // Read while the command still ran.
    expect(seen).toBeGreaterThan(0);
    expect(cli.child.exitCode).toBeNull();
    expect(text).toMatch(/^# TYPE trebuchet_request_duration_seconds histogram$/m);
    expect(text).toMatch(/^trebuchet_request_duration_seconds_bucket\{.*le="\+Inf".*\} \d+$/m);
    const r = await cli.done;
    expect(r.code).toBe(0);
    const [result] = readResults(json);
    expect(seen).toBeLessThanOrEqual(result!.requests.total);
    // Prometheus's own scrapes (every second) found the series too, with Trebuchet's job label.
    const scraped = await prometheus.scalar(
      `max(max_over_time(trebuchet_requests_total{job=${q(result!.runId)}}[10m]))`,
    );
    expect(scraped).toBeGreaterThan(0);
    expect(scraped).toBeLessThanOrEqual(result!.requests.total);
  });

  it('refuses an address it cannot listen on before any load, naming the flag', async () => {
    const taken = end(await startHttpServer((_req, res) => res.end('ok')));
    const r = await runCli(['run', '-n', '10', '--metrics-listen', `127.0.0.1:${taken.port}`, taken.url]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--metrics-listen: cannot listen: .*EADDRINUSE/);
    expect(taken.requests).toBe(0);
  });
});

describe('--out otlp', () => {
  it("exports with the official OTLP/HTTP exporter (JSON encoding): the last points hold the run's totals and histogram", async () => {
    const receiver = end(await startOtlpReceiver());
    const server = end(await mixedServer());
    const json = join(dir, 'otlp.json');
    const r = await runCli([
      ...['run', '-n', '3000', '-c', '6', '--timeout', MIXED_TIMEOUT, '--allow-error-status', '-q'],
      ...['--out', `otlp=${receiver.url}`],
      ...['--json', json, server.url],
    ]);
    expect(r.code).toBe(0);
    expect(receiver.refused).toEqual([]);
    const [result] = readResults(json);
    expect(result!.warnings.filter((w) => w.code === 'metrics-not-delivered')).toEqual([]);
    const resource = receiver.requests[0]!.resourceMetrics[0]!.resource;
    expect(attributesOf(resource.attributes)).toMatchObject({ 'service.name': 'trebuchet' });
    const metrics = receiver.requests.flatMap((req) =>
      req.resourceMetrics.flatMap((rm) => rm.scopeMetrics.flatMap((sm) => sm.metrics)),
    );
    // Cumulative sums: each series' latest point is its total.
    const latest = new Map<string, { t: number; value: number }>();
    for (const m of metrics.filter((x) => x.name === 'trebuchet.requests')) {
      expect(m.sum).toMatchObject({ isMonotonic: true, aggregationTemporality: 2 });
      for (const p of m.sum!.dataPoints) {
        const key = JSON.stringify(attributesOf(p.attributes));
        if ((latest.get(key)?.t ?? -1) <= p.timeUnixNano)
          latest.set(key, { t: p.timeUnixNano, value: p.asDouble ?? p.asInt! });
      }
    }
    const byStatus: Record<string, number> = {};
    for (const [key, { value }] of latest) byStatus[(JSON.parse(key) as { status: string }).status] = value;
    expect(byStatus).toEqual({
      ...result!.statusCodes,
      ...(result!.requests.errors > 0 ? { error: result!.requests.errors } : {}),
    });
    const histogram = metrics.filter((m) => m.name === 'trebuchet.request.duration').at(-1)!.histogram!;
    const point = histogram.dataPoints.at(-1)!;
    expect(point.count).toBe(result!.requests.responses);
    expect(point.explicitBounds).toEqual(HISTOGRAM_BOUNDS_SECONDS);
    expect(point.bucketCounts.reduce((a, b) => a + b, 0)).toBe(point.count);
  });
});

describe('an endpoint that is down or slow', () => {
  it('costs a run nothing but a warning: refused', async () => {
    const server = end(await startHttpServer((_req, res) => res.end('ok')));
    const port = await refusedPort();
    const json = join(dir, 'dead.json');
    const r = await runCli([
      ...[
        'run',
        '-n',
        '2000',
        '-c',
        '10',
        '-q',
        '--out',
        `prometheus-rw=http://127.0.0.1:${port}/api/v1/write`,
      ],
      ...['--json', json, server.url],
    ]);
    expect(r.code).toBe(0);
    const [result] = readResults(json);
    expect(result!.status).toBe('completed');
    expect(result!.requests.total).toBe(2000);
    const warnings = result!.warnings.filter((w) => w.code === 'metrics-not-delivered');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.message).toMatch(
      new RegExp(
        `^Live metrics to prometheus-rw http://127\\.0\\.0\\.1:${port}/api/v1/write: (\\d+) of \\1 snapshots were not delivered by the end of this run \\(connect ECONNREFUSED.*\\); the last one, with the totals, was not`,
      ),
    );
  });

  it('costs a run nothing but a warning: accepts and never answers', async () => {
    const silent = end(await startRawServer(() => undefined));
    const server = end(await startHttpServer((_req, res) => res.end('ok')));
    const json = join(dir, 'slow.json');
    const r = await runCli([
      ...['run', '-n', '2000', '-c', '10', '-q', '--out', `prometheus-rw=${silent.url}api/v1/write`],
      ...['--out', `prometheus-rw=${prometheus.writeUrl}`, '--json', json, server.url],
    ]);
    expect(r.code).toBe(0);
    const [result] = readResults(json);
    expect(result!.requests.total).toBe(2000);
    const warnings = result!.warnings.filter((w) => w.code === 'metrics-not-delivered');
    // The silent endpoint is named; the live one beside it got everything.
    expect(warnings.map((w) => w.message)).toEqual([
      expect.stringMatching(
        new RegExp(
          `^Live metrics to prometheus-rw ${silent.url.replace(/[.]/g, '\\.')}api/v1/write: \\d+ of \\d+ snapshots were not delivered`,
        ),
      ),
    ]);
    expect(silent.connections).toBeGreaterThan(0);
    expect(
      await prometheus.scalar(`sum(last_over_time(trebuchet_requests_total{job=${q(result!.runId)}}[10m]))`),
    ).toBe(2000);
  });
});

// The tests' own receiver refuses what is not OTLP JSON: a sanity check of the check.
describe('the OTLP receiver', () => {
  it('refuses a body that is not an OTLP metrics request', async () => {
    const receiver = end(await startOtlpReceiver());
    const res = await new Promise<number>((resolve) => {
      const req = http.request(
        receiver.url,
        { method: 'POST', headers: { 'content-type': 'application/json' } },
        (r) => resolve(r.statusCode ?? 0),
      );
      req.end(JSON.stringify({ resourceMetrics: [{ scopeMetrics: 'no' }] }));
    });
    expect(res).toBe(400);
    expect(receiver.refused).toHaveLength(1);
  });
});
