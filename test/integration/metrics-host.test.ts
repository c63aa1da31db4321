/**
 * Live metrics out from a host (the web host's and the desktop app's services): every job's
 * parts read into the metrics, where the app's setting says (or `trebuchet serve --out`, which
 * replaces it), asked at each job's start; the scrape endpoint read as Prometheus would. The
 * engine is faked at the part (test/helpers/fake-engine.ts), the endpoints are real sockets.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHostServices, type HostServices } from '../../electron/host/services.ts';
import { openStores, type Stores } from '../../electron/stores/index.ts';
import type { JobEnvelope } from '../../shared/contract/jobs.ts';
import type { MetricsOut } from '../../shared/metrics/outs.ts';
import type { RunResult, Sample } from '../../shared/model/result.ts';
import { scenarioSchema } from '../../shared/model/scenario.ts';
import { endAfterEach } from '../helpers/cleanup.ts';
import { resultWith, twoServerPlan } from '../helpers/comparison-results.ts';
import { FakeEngine } from '../helpers/fake-engine.ts';
import { sampleFixture } from '../helpers/run-result.ts';
import { freePort, refusedPort, startHttpServer } from '../helpers/servers.ts';

const end = endAfterEach();

let dataDir: string;
let stores: Stores;
let engine: FakeEngine;
let services: HostServices | null;

beforeEach(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'trebuchet-metrics-host-'));
  stores = await openStores({ dataDir });
  engine = new FakeEngine();
  services = null;
});

afterEach(async () => {
  await services?.close();
  await rm(dataDir, { recursive: true, force: true });
});

function host(metrics?: MetricsOut): HostServices {
  services = createHostServices({
    stores,
    appVersion: '9.8.7',
    startTarget: engine.start,
    checkTarget: () => Promise.resolve({ ok: true }),
    ...(metrics ? { metrics } : {}),
  });
  return services;
}

/** A family's series from a scrape, as [labels, value]. */
async function scrape(port: number, name: string): Promise<[Record<string, string>, number][]> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  const family = parsePrometheusTextFormat(text).find((f) => f.name === name);
  return (family?.metrics ?? []).map((m) => [m.labels ?? {}, Number(m.value)]);
}

const oneTarget = scenarioSchema.parse({ targets: [{ url: 'http://127.0.0.1:8080/' }] });
const plan = twoServerPlan({ levels: [10, 20], repetitions: 1 });

/** Starts a job for page-a and returns what page-a is sent. */
function start(s: HostServices, job: Parameters<HostServices['jobs']['start']>[0]): JobEnvelope[] {
  const seen: JobEnvelope[] = [];
  s.attach('page-a', (e) => seen.push(e));
  s.jobs.start(job, 'page-a').begin();
  return seen;
}

/** The first part's result page-a was sent, once the job is done. */
async function resultSent(seen: JobEnvelope[]): Promise<RunResult> {
  await expect.poll(() => seen.some((e) => e.event.type === 'done')).toBe(true);
  const event = seen.find((e) => e.event.type === 'result')?.event;
  if (event?.type !== 'result') throw new Error('no result was sent');
  return event.result as RunResult;
}

/** Plays part `i` of the fake engine: begun, one sample, its result. */
async function playPart(i: number, sample: Sample, result: RunResult): Promise<void> {
  // The hub's modules load at the first job that sends metrics (seconds through vitest's transform).
  await expect.poll(() => engine.started.length, { timeout: 20_000 }).toBeGreaterThan(i);
  engine.begin(i);
  engine.sample(i, sample);
  engine.finish(i, result);
}

describe("a host's metrics out", () => {
  it("follows the app's setting, asked at each job's start: a comparison's cells served with their level", async () => {
    const s = host();
    const port = await freePort();
    stores.settings.setUi({ metrics: { push: [], listen: { host: '127.0.0.1', port } } });
    const seen = start(s, { kind: 'comparison', plan });
    await playPart(
      0,
      sampleFixture({ seq: 0, requests: 120, statusCodes: { '200': 120 } }),
      resultWith({ rps: 1 }),
    );
    await playPart(
      1,
      sampleFixture({ seq: 0, requests: 80, statusCodes: { '200': 79, '500': 1 } }),
      resultWith({ rps: 1 }),
    );
    const series = await scrape(port, 'trebuchet_requests_total');
    const cmp = series.filter(([l]) => l.job_kind === 'comparison');
    expect(cmp.map(([l, v]) => [l.target, l.level, l.status, v]).sort()).toEqual([
      ['apache', '10', '200', 79],
      ['apache', '10', '500', 1],
      ['nginx', '10', '200', 120],
    ]);
    expect(cmp[0]![0].job).toMatch(/^cmp-/);
    // The page got its samples as before: the metrics read them after it.
    await expect.poll(() => seen.filter((e) => e.event.type === 'sample').length).toBe(2);
  });

  it('reads nothing while the setting sends nothing, and a changed setting from the next job on', async () => {
    const s = host();
    start(s, { kind: 'run', plan: scenarioSchema.parse({ targets: [{ url: 'http://127.0.0.1:8080/' }] }) });
    // Without metrics the part starts at once, as it would without them.
    expect(engine.started).toHaveLength(1);
    await playPart(0, sampleFixture({ seq: 0 }), resultWith({ rps: 1 }));
    const port = await freePort();
    stores.settings.setUi({ metrics: { push: [], listen: { host: '127.0.0.1', port } } });
    start(s, {
      kind: 'run',
      plan: scenarioSchema.parse({ targets: [{ name: 'second', url: 'http://127.0.0.1:8080/' }] }),
    });
    await playPart(
      1,
      sampleFixture({ seq: 0, requests: 7, statusCodes: { '200': 7 } }),
      resultWith({ rps: 1 }),
    );
    const series = await scrape(port, 'trebuchet_requests_total');
    expect(series.map(([l, v]) => [l.target, v])).toEqual([['second', 7]]);
  });

  it('with `serve --out`, replaces the setting, and a part whose metrics did not arrive says so in its result', async () => {
    const dead = await refusedPort();
    const s = host({
      push: [{ kind: 'prometheus-rw', url: `http://127.0.0.1:${dead}/api/v1/write` }],
      listen: null,
    });
    stores.settings.setUi({ metrics: { push: [], listen: { host: '127.0.0.1', port: await freePort() } } });
    const seen = start(s, {
      kind: 'run',
      plan: oneTarget,
    });
    await playPart(0, sampleFixture({ seq: 0 }), resultWith({ rps: 1 }));
    const result = await resultSent(seen);
    const warnings = result.warnings.filter((w) => w.code === 'metrics-not-delivered');
    expect(warnings.map((w) => w.message)).toEqual([
      expect.stringMatching(
        new RegExp(
          `^Live metrics to prometheus-rw http://127\\.0\\.0\\.1:${dead}/api/v1/write: 2 of 2 snapshots`,
        ),
      ),
    ]);
  });

  it("serves from the host's start when metrics are asked for already (serve's flags, a kept setting)", async () => {
    const port = await freePort();
    host({ push: [], listen: { host: '127.0.0.1', port } });
    // No job yet: the endpoint answers, with nothing to say.
    await expect
      .poll(
        () =>
          fetch(`http://127.0.0.1:${port}/metrics`).then(
            (r) => r.status,
            () => 0,
          ),
        { timeout: 20_000 },
      )
      .toBe(200);
    expect(await scrape(port, 'trebuchet_requests_total')).toEqual([]);
  });

  it('says in the result when its address cannot be listened on, and the run goes on', async () => {
    const taken = end(await startHttpServer((_req, res) => res.end('ok')));
    const s = host({ push: [], listen: { host: '127.0.0.1', port: taken.port } });
    const seen = start(s, {
      kind: 'run',
      plan: oneTarget,
    });
    await playPart(0, sampleFixture({ seq: 0 }), resultWith({ rps: 1 }));
    const result = await resultSent(seen);
    expect(result.status).toBe('completed');
    expect(result.warnings.map((w) => w.message)).toContainEqual(
      expect.stringMatching(
        new RegExp(`^Live metrics were not served at 127\\.0\\.0\\.1:${taken.port} \\(.*EADDRINUSE`),
      ),
    );
  });

  it('keeps a run whole when a sample cannot be read into metrics: the result says so', async () => {
    const s = host({ push: [], listen: { host: '127.0.0.1', port: await freePort() } });
    const seen = start(s, {
      kind: 'run',
      plan: oneTarget,
    });
    // A sample the engine would never make (no errors map): the reading throws, the run does not.
    const broken = { ...sampleFixture({ seq: 0 }), errors: null } as unknown as Sample;
    await playPart(0, broken, resultWith({ rps: 1 }));
    const result = await resultSent(seen);
    expect(seen.filter((e) => e.event.type === 'sample')).toHaveLength(1);
    expect(result.warnings.map((w) => w.message)).toContainEqual(
      expect.stringMatching(/^Live metrics could not be made: .*null/),
    );
  });
});
