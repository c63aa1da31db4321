import http from 'node:http';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startWebHost, type WebHost } from '../../electron/host/server.ts';
import { CONTENT_SECURITY_POLICY } from '../../shared/contract/csp.ts';
import { startTarget, type StartTarget, type TargetRun } from '../../electron/jobs/target-run.ts';
import {
  connectWebSocketApi,
  type SocketLike,
  type WebSocketApi,
} from '../../renderer/api/web-socket-client.ts';
import type { JobEnvelope } from '../../shared/contract/jobs.ts';
import { addSample, type Sample } from '../../shared/model/result.ts';
import { resultWith } from '../helpers/comparison-results.ts';
import { FakeEngine } from '../helpers/fake-engine.ts';
import { ScriptedEngine } from '../helpers/scripted-engine.ts';
import { sampleFixture } from '../helpers/run-result.ts';
import { handlers, startHttpServer, type TestServer } from '../helpers/servers.ts';

let staticDir: string;
let dataDir: string;
let target: TestServer;
/** The engine's target runs, by run id (a run job's targets carry its job id), so a test can await one. */
const targets = new Map<string, TargetRun>();
const watched: StartTarget = (scenario, targetIndex, on, ids) => {
  const run = startTarget(scenario, targetIndex, on, ids);
  targets.set(ids.runId, run);
  return run;
};
let host: WebHost;
const INDEX = '<!doctype html><html><head><title>Trebuchet</title></head><body></body></html>';

beforeAll(async () => {
  staticDir = await mkdtemp(path.join(tmpdir(), 'trebuchet-web-host-'));
  await mkdir(path.join(staticDir, 'assets'));
  await writeFile(path.join(staticDir, 'index.html'), INDEX);
  await writeFile(path.join(staticDir, 'assets', 'app.js'), 'export {};');
  await writeFile(path.join(tmpdir(), 'trebuchet-web-host-outside.txt'), 'outside');
  target = await startHttpServer(handlers.ok('hello'));
  dataDir = await mkdtemp(path.join(tmpdir(), 'trebuchet-web-host-data-'));
  host = await startWebHost({
    staticDir,
    appVersion: 'test',
    startTarget: watched,
    reattachGraceMs: 1500,
    dataDir,
  });
});

afterAll(async () => {
  await host.close();
  await target.close();
  await rm(staticDir, { recursive: true, force: true });
  await rm(dataDir, { recursive: true, force: true });
});

const base = (to: WebHost = host) => `http://127.0.0.1:${to.port}`;
const socketUrl = (token: string | null, client?: string, to: WebHost = host) => {
  const query = new URLSearchParams();
  if (token !== null) query.set('token', token);
  if (client) query.set('client', client);
  return `ws://127.0.0.1:${to.port}/ws?${query.toString()}`;
};

function get(
  urlPath: string,
  headers: http.OutgoingHttpHeaders = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${base()}${urlPath}`, { headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
  });
}

/** The HTTP status of a WebSocket upgrade: 101 when accepted. */
function upgradeStatus(url: string, origin?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, origin ? { origin } : {});
    ws.on('open', () => {
      ws.close();
      resolve(101);
    });
    ws.on('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      res.resume();
      ws.terminate();
    });
    ws.on('error', (error) => reject(error));
  });
}

/**
 * A browser hands each WebSocket message to the page in a task of its own, so a reply's
 * continuation (subscribing to the run it started) runs before the next message; `ws` by
 * default emits the messages of one read in a row. The tests' sockets do as a browser does.
 */
const AS_A_BROWSER = { allowSynchronousEvents: false } as const;

/** The messages ({ kind: 'reply' | 'job', ... }) each test connection received, in wire order. */
const received = new WeakMap<WebSocketApi, { kind: string; envelope?: JobEnvelope }[]>();

async function connect(client?: string, to: WebHost = host): Promise<WebSocketApi> {
  const kinds: { kind: string; envelope?: JobEnvelope }[] = [];
  const conn = await connectWebSocketApi({
    url: socketUrl(to.token, client, to),
    reconnectDelayMs: 50,
    createSocket: (url, on) => {
      const ws = new WebSocket(url, { origin: base(to), ...AS_A_BROWSER });
      ws.on('open', () => on.open());
      ws.on('message', (data: Buffer) => {
        kinds.push(JSON.parse(data.toString('utf8')) as { kind: string; envelope?: JobEnvelope });
        on.message(data.toString('utf8'));
      });
      ws.on('close', () => on.close());
      ws.on('error', () => undefined);
      return ws;
    },
  });
  received.set(conn, kinds);
  return conn;
}

type Done = Extract<JobEnvelope['event'], { type: 'done' }>;

function untilDone(events: JobEnvelope[], jobId: string, timeoutMs = 60_000): Promise<Done> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const poll = setInterval(() => {
      const done = events.find((e) => e.event.type === 'done' && e.jobId === jobId)?.event;
      if (done?.type === 'done') {
        clearInterval(poll);
        resolve(done);
      } else if (Date.now() - started > timeoutMs) {
        clearInterval(poll);
        reject(new Error(`job ${jobId} did not finish in ${timeoutMs} ms`));
      }
    }, 20);
  });
}

/** The engine samples of a job's events, as [part, seq]. */
const samplesOf = (events: JobEnvelope[]): [number, number][] =>
  events.flatMap(({ event: e }) =>
    e.type === 'sample' && e.source === 'engine' ? [[e.part, e.sample.seq]] : [],
  );

const typeOf = ({ event: e }: JobEnvelope): string => (e.type === 'progress' ? e.progress.type : e.type);

describe('web host: page and token', () => {
  it('prints a loopback URL carrying a random token', () => {
    expect(host.url).toBe(`http://127.0.0.1:${host.port}/?token=${host.token}`);
    expect(host.token).toMatch(/^[A-Za-z0-9_-]{32}$/);
  });

  it('serves the page only with the token, with a strict CSP', async () => {
    expect((await get('/')).status).toBe(401);
    expect((await get('/?token=wrong-token-wrong-token-wrong-tok')).status).toBe(401);
    expect((await get('/index.html')).status).toBe(401);
    const page = await get(`/?token=${host.token}`);
    expect(page.status).toBe(200);
    expect(page.body).toBe(INDEX);
    expect(page.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
  });

  it('serves assets, but nothing outside the folder and nothing to a foreign Host', async () => {
    const asset = await get('/assets/app.js');
    expect(asset.status).toBe(200);
    expect(asset.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect((await get('/../trebuchet-web-host-outside.txt')).status).toBe(404);
    expect((await get('/%2e%2e/trebuchet-web-host-outside.txt')).status).toBe(404);
    expect((await get(`/?token=${host.token}`, { host: `evil.example:${host.port}` })).status).toBe(403);
  });

  it('refuses to bind a non-loopback address unless forced', async () => {
    await expect(startWebHost({ host: '0.0.0.0', staticDir, appVersion: 'test' })).rejects.toThrow(
      /refusing to listen on 0\.0\.0\.0: .*loopback/,
    );
  });
});

describe('web host: WebSocket', () => {
  it('accepts the token from its own origin and rejects a missing token or a foreign Origin', async () => {
    expect(await upgradeStatus(socketUrl(null), base())).toBe(401);
    expect(await upgradeStatus(socketUrl('x'.repeat(32)), base())).toBe(401);
    expect(await upgradeStatus(socketUrl(host.token), 'http://evil.example')).toBe(403);
    expect(await upgradeStatus(socketUrl(host.token), `http://127.0.0.1:${host.port + 1}`)).toBe(403);
    expect(await upgradeStatus(socketUrl(host.token), base())).toBe(101);
    expect(await upgradeStatus(socketUrl(host.token), `http://localhost:${host.port}`)).toBe(403);
  });

  it('answers app.info and names the bad field of an invalid command', async () => {
    const conn = await connect();
    try {
      await expect(conn.api.app.info()).resolves.toEqual({
        appVersion: 'test',
        host: 'web',
        platform: process.platform,
        dataDir,
        // Started without --files-dir: it reads no file of its machine.
        filesDir: null,
        problems: [],
        // Started without --port: a restart on the port it chose is said, but this page's
        // token would not be kept, so the page cannot come back by itself.
        restart: { command: `trebuchet serve --port ${host.port} --data-dir ${dataDir}`, samePage: false },
      });
      await expect(
        conn.api.jobs.start({
          kind: 'run',
          plan: { targets: [{ url: 'not a url' }], load: { model: 'open', rate: -1 } },
        }),
      ).rejects.toThrow(
        /plan\.targets\.0\.url: URL is not valid.*plan\.load\.rate: rate must be at least 0\.1/,
      );
      await expect(conn.api.jobs.stop({ jobId: 'run-unknown' })).resolves.toEqual({ stopped: false });
    } finally {
      conn.close();
    }
  });

  it('runs 200 requests against a local server and streams samples and the result', async () => {
    const conn = await connect();
    try {
      const events: JobEnvelope[] = [];
      const requestsBefore = target.requests;
      const { jobId } = await conn.api.jobs.start({
        kind: 'run',
        plan: {
          name: 'two hundred',
          targets: [{ url: target.url }],
          load: { model: 'closed', connections: 4, limit: { kind: 'requests', count: 200 } },
          options: { sampleIntervalMs: 100 },
        },
      });
      // Subscribed once the reply is in: the job's first event comes after it.
      conn.api.onJobEvent(jobId, (e) => events.push(e));
      const done = await untilDone(events, jobId);

      // No event of the job went out before its start reply.
      const messages = received.get(conn) ?? [];
      expect(messages[0]!.kind).toBe('reply');
      expect(messages.slice(1).every((m) => m.kind === 'job')).toBe(true);
      expect(messages.length - 1).toBe(events.length);
      expect(events[0]!.event).toEqual({ type: 'progress', progress: { type: 'started', targetCount: 1 } });
      expect(events.every((e) => e.jobId === jobId && e.kind === 'run')).toBe(true);
      expect(events.map((e) => e.n)).toEqual(events.map((_, i) => i));
      expect(done.status).toBe('completed');
      const sent = events.find((e) => e.event.type === 'result')!.event;
      const result = sent.type === 'result' && 'requests' in sent.result ? sent.result : null;
      expect(result!.requests.total).toBe(200);
      expect(result!.requests.ok).toBe(200);
      expect(result!.statusCodes).toEqual({ '200': 200 });
      expect(result!.throughput.requestsPerSecond).toBeGreaterThan(0);
      expect(result!.latency?.max).toBeGreaterThan(0);
      expect(target.requests - requestsBefore).toBeGreaterThanOrEqual(200);
      const samples = events.flatMap(({ event: e }) =>
        e.type === 'sample' && e.source === 'engine' ? [e.sample] : [],
      );
      expect(samples.length).toBeGreaterThan(0);
      // Over the run's windows: a sample under the last one's seq (the final fold) replaces it.
      const windows: Sample[] = [];
      for (const sample of samples) addSample(windows, sample);
      const sampled = windows.reduce((sum, w) => sum + w.requests, 0);
      expect(sampled).toBeLessThanOrEqual(200);
      expect(events.filter((e) => e.event.type === 'result')).toHaveLength(1);
    } finally {
      conn.close();
    }
  });

  it('sends each engine sample to the page once: live, never again in a result or at the end', async () => {
    const conn = await connect();
    try {
      const events: JobEnvelope[] = [];
      const { jobId } = await conn.api.jobs.start({
        kind: 'run',
        plan: {
          targets: [{ url: target.url }, { url: target.url }],
          // Long enough for several 100 ms windows per target (300 requests took under 100 ms).
          load: { model: 'closed', connections: 2, limit: { kind: 'duration', seconds: 0.5 } },
          options: { sampleIntervalMs: 100 },
        },
      });
      conn.api.onJobEvent(jobId, (e) => events.push(e));
      const done = await untilDone(events, jobId);
      // Every Sample on the wire, wherever it is in a message: found by the fields only a Sample has.
      const onWire: string[] = [];
      const walk = (value: unknown): void => {
        if (Array.isArray(value)) return value.forEach(walk);
        if (value === null || typeof value !== 'object') return;
        const o = value as Record<string, unknown>;
        if (typeof o.seq === 'number' && 'totalRequests' in o && 'inFlight' in o)
          onWire.push(JSON.stringify(o));
        Object.values(o).forEach(walk);
      };
      for (const m of received.get(conn) ?? []) walk(m);
      const live = events.flatMap(({ event: e }) =>
        e.type === 'sample' && e.source === 'engine' ? [JSON.stringify(e.sample)] : [],
      );
      expect(live.length).toBeGreaterThan(2);
      // Each crossed once: as many samples on the wire as live sample events, no two alike.
      expect(onWire).toEqual(live);
      expect(new Set(onWire).size).toBe(onWire.length);
      // What history keeps has them all: each part's series, one per tick, as the page joins it.
      const record = await conn.api.history.get({ id: done.historyId! });
      const kept = record.kind === 'run' ? record.results.map((r) => r.samples.map((x) => x.seq)) : [];
      const series = [0, 1].map((part) => {
        const windows: Sample[] = [];
        for (const { event: e } of events)
          if (e.type === 'sample' && e.source === 'engine' && e.part === part) addSample(windows, e.sample);
        return windows.map((x) => x.seq);
      });
      expect(kept).toEqual(series);
      expect(kept.every((seqs) => seqs.length > 0)).toBe(true);
    } finally {
      conn.close();
    }
  });

  it('stops a run half-way and keeps its partial result', async () => {
    const conn = await connect();
    try {
      const events: JobEnvelope[] = [];
      const { jobId } = await conn.api.jobs.start({
        kind: 'run',
        plan: {
          targets: [{ url: target.url }],
          load: { model: 'closed', connections: 2, limit: { kind: 'duration', seconds: 60 } },
          options: { sampleIntervalMs: 100 },
        },
      });
      conn.api.onJobEvent(jobId, (e) => events.push(e));
      await waitFor(() =>
        events.some(
          ({ event: e }) => e.type === 'sample' && e.source === 'engine' && e.sample.totalRequests > 0,
        ),
      );
      await expect(conn.api.jobs.stop({ jobId })).resolves.toEqual({ stopped: true });
      const done = await untilDone(events, jobId);
      expect(done.status).toBe('cancelled');
      const result = events.find((e) => e.event.type === 'result')?.event;
      expect(result?.type === 'result' && 'status' in result.result && result.result.status).toBe(
        'cancelled',
      );
      expect(
        result?.type === 'result' && 'requests' in result.result && result.result.requests.total,
      ).toBeGreaterThan(0);
    } finally {
      conn.close();
    }
  });

  it('keeps a run alive across a reload (same client id) and stops it when the page is gone', async () => {
    const client = 'reload-test-client';
    const first = await connect(client);
    const { jobId } = await first.api.jobs.start({
      kind: 'run',
      plan: {
        targets: [{ url: target.url }],
        load: { model: 'closed', connections: 1, limit: { kind: 'duration', seconds: 60 } },
        options: { sampleIntervalMs: 100 },
      },
    });
    first.close();

    // The reloaded page (same client id) gets the job's events and may stop it.
    const second = await connect(client);
    const events: JobEnvelope[] = [];
    second.api.onJobEvent(jobId, (e) => events.push(e));
    await waitFor(() => events.some((e) => e.event.type === 'sample' && e.jobId === jobId));
    // Another tab cannot stop it, nor see it.
    const stranger = await connect('another-tab-client');
    await expect(stranger.api.jobs.stop({ jobId })).resolves.toEqual({ stopped: false });
    expect((await stranger.api.jobs.active()).jobs).toEqual([]);
    stranger.close();
    expect((await second.api.jobs.active()).jobs.map((j) => j.jobId)).toEqual([jobId]);

    // Gone for good: after the grace period the job is stopped and keeps what it measured.
    second.close();
    const result = await targets.get(jobId)!.done;
    expect(result?.status).toBe('cancelled');
    expect(result?.requests.total).toBeGreaterThan(0);
    const third = await connect(client);
    try {
      await expect.poll(async () => (await third.api.jobs.active()).jobs, { timeout: 10_000 }).toEqual([]);
    } finally {
      third.close();
    }
  });
});

describe('web host: taking up jobs after a reload', () => {
  it('hands the reloaded page its run with the samples so far, then the rest of its events', async () => {
    // A scripted engine that holds the run after its third sample until the test resumes it:
    // the reload falls within the run however slow the machine (a real 3 s run could end
    // before a stalled test reconnects). The host's replay is what is tested, not the engine.
    const engine = new ScriptedEngine({ msPerSample: 100, pauseAfter: 3 });
    const runDataDir = await mkdtemp(path.join(tmpdir(), 'trebuchet-web-host-reattach-'));
    const runHost = await startWebHost({
      staticDir,
      appVersion: 'test',
      startTarget: engine.start,
      reattachGraceMs: 1500,
      dataDir: runDataDir,
    });
    const client = 'reattach-run-client';
    const first = await connect(client, runHost);
    const firstEvents: JobEnvelope[] = [];
    const asked = performance.now();
    const { jobId } = await first.api.jobs.start({
      kind: 'run',
      plan: {
        name: 'reattached',
        targets: [{ url: target.url }],
        load: { model: 'closed', connections: 2, limit: { kind: 'duration', seconds: 3 } },
        options: { sampleIntervalMs: 100 },
      },
    });
    first.api.onJobEvent(jobId, (e) => firstEvents.push(e));
    await waitFor(() => samplesOf(firstEvents).length >= 3);
    first.close();

    const second = await connect(client, runHost);
    const events: JobEnvelope[] = [];
    // Followed before the answer, unlike a page (which follows from the answer on): the test sees both.
    second.api.onJobEvent(jobId, (e) => events.push(e));
    try {
      const { jobs } = await second.api.jobs.active();
      const answered = performance.now();
      expect(jobs.map((j) => j.jobId)).toEqual([jobId]);
      const active = jobs[0]!;
      expect(active.kind === 'run' && active.plan.name).toBe('reattached');
      expect(active.events.slice(0, 2).map(typeOf)).toEqual(['started', 'part-started']);
      const replayed = samplesOf(active.events).map(([, seq]) => seq);
      // Every sample so far, one per tick, in order, from the first one on: the 3 before the hold.
      expect(replayed).toEqual([0, 1, 2]);
      // The part's time so far: at least its 3 samples 100 ms apart (a timer fires up to 2 ms
      // early), at most the time since the test asked for the job.
      expect(active.partElapsedSeconds).toBeGreaterThan(0.3 - 3 * 0.002);
      expect(active.partElapsedSeconds).toBeLessThanOrEqual((answered - asked) / 1000);

      // The rest arrives live, then the result. Samples sent between the reconnect and the
      // answer are in both (a page applies each event once, by its n); none is missing.
      engine.resume();
      const done = await untilDone(events, jobId);
      const live = samplesOf(events).map(([, seq]) => seq);
      expect(live.length).toBeGreaterThan(0);
      expect(live.at(-1)).toBeGreaterThan(replayed.at(-1)!);
      expect(done.status).toBe('completed');
      const lastN = active.events.at(-1)!.n;
      const after = events.filter((e) => e.n > lastN);
      expect(after.map((e) => e.n)).toEqual(after.map((_, i) => lastN + 1 + i));
      const seen = [...new Set([...replayed, ...live])].sort((a, b) => a - b);
      const record = await second.api.history.get({ id: done.historyId! });
      expect(record.kind === 'run' && record.results[0]!.samples.map((s) => s.seq)).toEqual(seen);
      expect((await second.api.jobs.active()).jobs).toEqual([]);
    } finally {
      second.close();
      await runHost.close();
      await rm(runDataDir, { recursive: true, force: true });
    }
  });

  it('hands the reloaded page its comparison with the finished cells, then its end', async () => {
    const client = 'reattach-compare-client';
    const first = await connect(client);
    const firstEvents: JobEnvelope[] = [];
    const { jobId } = await first.api.jobs.start({
      kind: 'comparison',
      plan: {
        name: 'reattached comparison',
        targets: [{ name: 'local', urls: { http: target.url } }],
        load: { model: 'closed', connections: 2, limit: { kind: 'duration', seconds: 1 } },
        levels: [1, 2],
        repetitions: 1,
        pauseSeconds: 0,
        options: { sampleIntervalMs: 100 },
      },
    });
    first.api.onJobEvent(jobId, (e) => firstEvents.push(e));
    await waitFor(() => firstEvents.some((e) => e.event.type === 'result'));
    first.close();

    const second = await connect(client);
    const events: JobEnvelope[] = [];
    second.api.onJobEvent(jobId, (e) => events.push(e));
    try {
      const { jobs } = await second.api.jobs.active({ kind: 'comparison' });
      expect(jobs.map((j) => j.jobId)).toEqual([jobId]);
      const active = jobs[0]!;
      expect(active.kind === 'comparison' && active.plan.name).toBe('reattached comparison');
      const types = active.events.map(typeOf).filter((t) => t !== 'sample');
      // The pre-flight of its one URL came before the first cell.
      expect(types.slice(0, 4)).toEqual(['started', 'preflight', 'part-started', 'result']);
      // The first cell's samples came with it, so the page can join them to its result.
      expect(samplesOf(active.events).filter(([part]) => part === 0).length).toBeGreaterThan(0);
      const cellDone = active.events.find((e) => e.event.type === 'result')?.event;
      expect(
        cellDone?.type === 'result' &&
          'cellIndex' in cellDone.result &&
          cellDone.result.result.requests.total,
      ).toBeGreaterThan(0);

      const done = await untilDone(events, jobId);
      expect(done.status).toBe('completed');
      const record = await second.api.history.get({ id: done.historyId! });
      expect(record.kind === 'comparison' && record.outcomes).toHaveLength(2);
    } finally {
      second.close();
    }
  });
});

describe('web host: a dropped connection', () => {
  it("catches up on the events sent while the page was reconnecting, the job's 'done' included", async () => {
    const engine = new FakeEngine();
    const engineDataDir = await mkdtemp(path.join(tmpdir(), 'trebuchet-web-host-gap-'));
    const gapHost = await startWebHost({
      staticDir,
      appVersion: 'test',
      startTarget: engine.start,
      dataDir: engineDataDir,
    });
    // The page's sockets: the first opens at once, the reconnect waits until the test lets it.
    const sockets: WebSocket[] = [];
    let letReconnect: () => void = () => undefined;
    const reconnectAllowed = new Promise<void>((resolve) => (letReconnect = resolve));
    const conn = await connectWebSocketApi({
      url: `ws://127.0.0.1:${gapHost.port}/ws?token=${gapHost.token}&client=dropped-connection`,
      reconnectDelayMs: 10,
      createSocket: (url, on) => {
        const open = () => {
          const ws = new WebSocket(url, { origin: `http://127.0.0.1:${gapHost.port}`, ...AS_A_BROWSER });
          ws.on('open', () => on.open());
          ws.on('message', (data: Buffer) => on.message(data.toString('utf8')));
          ws.on('close', () => on.close());
          ws.on('error', () => undefined);
          sockets.push(ws);
          return ws;
        };
        return sockets.length === 0 ? open() : heldSocket(reconnectAllowed, open);
      },
    });
    const events: JobEnvelope[] = [];
    try {
      const { jobId } = await conn.api.jobs.start({ kind: 'run', plan: { targets: [{ url: target.url }] } });
      conn.api.onJobEvent(jobId, (e) => events.push(e));
      await waitFor(() => events.length === 1);

      // The connection drops (closed cleanly, so the host knows before the page does).
      sockets[0]!.close();
      await waitFor(() => !conn.connected);
      engine.begin(0);
      const sample = sampleFixture();
      engine.sample(0, sample);
      engine.finish(0, resultWith({ rps: 5 }));
      letReconnect();

      const done = await untilDone(events, jobId, 10_000);
      expect(events.map(typeOf)).toEqual(['started', 'part-started', 'sample', 'result', 'done']);
      expect(events.map((e) => e.n)).toEqual([0, 1, 2, 3, 4]);
      expect(events[2]!.event).toEqual({ type: 'sample', part: 0, source: 'engine', sample });
      expect(done.historyId).toMatch(/\S/);
      expect(sockets).toHaveLength(2);
    } finally {
      conn.close();
      await gapHost.close();
      await rm(engineDataDir, { recursive: true, force: true });
    }
  });
});

/** A socket that opens only once gate resolves: a reconnect held back by the test. */
function heldSocket(gate: Promise<void>, open: () => WebSocket): SocketLike {
  let ws: WebSocket | null = null;
  void gate.then(() => (ws = open()));
  return {
    get readyState() {
      return ws?.readyState ?? WebSocket.CONNECTING;
    },
    send: (data) => ws?.send(data),
    close: (code, reason) => ws?.close(code, reason),
  };
}

function waitFor(check: () => boolean, timeoutMs = 30_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const poll = setInterval(() => {
      if (check()) {
        clearInterval(poll);
        resolve();
      } else if (Date.now() - started > timeoutMs) {
        clearInterval(poll);
        reject(new Error(`condition not met in ${timeoutMs} ms`));
      }
    }, 20);
  });
}
