import http from 'node:http';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startWebHost, type WebHost } from '../../electron/host/server.ts';
import { CONTENT_SECURITY_POLICY } from '../../shared/contract/csp.ts';
import type { JobHandle } from '../../electron/engine/job-table.ts';
import { RunManager } from '../../electron/engine/manager.ts';
import {
  connectWebSocketApi,
  type SocketLike,
  type WebSocketApi,
} from '../../renderer/api/web-socket-client.ts';
import type { ComparisonEvent, RunEvent } from '../../shared/contract/api.ts';
import { addSample, type RunResult, type Sample } from '../../shared/model/result.ts';
import type { Scenario } from '../../shared/model/scenario.ts';
import { FakeRunService } from '../helpers/fake-run-service.ts';
import { sampleFixture } from '../helpers/run-result.ts';
import { handlers, startHttpServer, type TestServer } from '../helpers/servers.ts';

let staticDir: string;
let dataDir: string;
let target: TestServer;
/** The engine, keeping the handle of every run it starts so a test can await one by its id. */
class WatchedRunManager extends RunManager {
  readonly runs = new Map<string, JobHandle<RunEvent, RunResult[]>>();
  override start(scenario: Scenario): JobHandle<RunEvent, RunResult[]> {
    const run = super.start(scenario);
    this.runs.set(run.id, run);
    return run;
  }
}

let manager: WatchedRunManager;
let host: WebHost;
const INDEX = '<!doctype html><html><head><title>Trebuchet</title></head><body></body></html>';

beforeAll(async () => {
  staticDir = await mkdtemp(path.join(tmpdir(), 'trebuchet-web-host-'));
  await mkdir(path.join(staticDir, 'assets'));
  await writeFile(path.join(staticDir, 'index.html'), INDEX);
  await writeFile(path.join(staticDir, 'assets', 'app.js'), 'export {};');
  await writeFile(path.join(tmpdir(), 'trebuchet-web-host-outside.txt'), 'outside');
  target = await startHttpServer(handlers.ok('hello'));
  manager = new WatchedRunManager({ appVersion: 'test' });
  dataDir = await mkdtemp(path.join(tmpdir(), 'trebuchet-web-host-data-'));
  host = await startWebHost({ staticDir, appVersion: 'test', manager, reattachGraceMs: 1500, dataDir });
});

afterAll(async () => {
  await host.close();
  await target.close();
  await rm(staticDir, { recursive: true, force: true });
  await rm(dataDir, { recursive: true, force: true });
});

const base = () => `http://127.0.0.1:${host.port}`;
const socketUrl = (token: string | null, client?: string) => {
  const query = new URLSearchParams();
  if (token !== null) query.set('token', token);
  if (client) query.set('client', client);
  return `ws://127.0.0.1:${host.port}/ws?${query.toString()}`;
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

/** The kinds of message ('reply', 'event') each test connection received, in wire order. */
const received = new WeakMap<WebSocketApi, string[]>();

async function connect(client?: string): Promise<WebSocketApi> {
  const kinds: string[] = [];
  const conn = await connectWebSocketApi({
    url: socketUrl(host.token, client),
    reconnectDelayMs: 50,
    createSocket: (url, on) => {
      const ws = new WebSocket(url, { origin: base(), ...AS_A_BROWSER });
      ws.on('open', () => on.open());
      ws.on('message', (data: Buffer) => {
        kinds.push((JSON.parse(data.toString('utf8')) as { kind: string }).kind);
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

function untilDone(
  events: RunEvent[],
  runId: string,
  timeoutMs = 60_000,
): Promise<Extract<RunEvent, { type: 'done' }>> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const poll = setInterval(() => {
      const done = events.find(
        (e): e is Extract<RunEvent, { type: 'done' }> => e.type === 'done' && e.runId === runId,
      );
      if (done) {
        clearInterval(poll);
        resolve(done);
      } else if (Date.now() - started > timeoutMs) {
        clearInterval(poll);
        reject(new Error(`run ${runId} did not finish in ${timeoutMs} ms`));
      }
    }, 20);
  });
}

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
        problems: [],
      });
      await expect(
        conn.api.run.start({
          scenario: { targets: [{ url: 'not a url' }], load: { model: 'open', rate: -1 } },
        }),
      ).rejects.toThrow(
        /scenario\.targets\.0\.url: URL is not valid.*scenario\.load\.rate: rate must be at least 0\.1/,
      );
      await expect(conn.api.run.stop({ runId: 'run-unknown' })).resolves.toEqual({ stopped: false });
    } finally {
      conn.close();
    }
  });

  it('runs 200 requests against a local server and streams samples and the result', async () => {
    const conn = await connect();
    try {
      const events: RunEvent[] = [];
      const requestsBefore = target.requests;
      const { runId } = await conn.api.run.start({
        scenario: {
          name: 'two hundred',
          targets: [{ url: target.url }],
          load: { model: 'closed', connections: 4, limit: { kind: 'requests', count: 200 } },
          options: { sampleIntervalMs: 100 },
        },
      });
      // Subscribed once the reply is in: the run's first event comes after it.
      conn.api.onRunEvent(runId, (e) => events.push(e));
      const done = await untilDone(events, runId);

      // No event of the run went out before its start reply.
      const kinds = received.get(conn) ?? [];
      expect(kinds[0]).toBe('reply');
      expect(kinds.slice(1).every((kind) => kind === 'event')).toBe(true);
      expect(kinds.length - 1).toBe(events.length);
      expect(events[0]).toEqual({ type: 'started', runId, targetCount: 1 });
      expect(events.every((e) => e.runId === runId)).toBe(true);
      expect(done.status).toBe('completed');
      const result = done.results[0]!;
      expect(result.requests.total).toBe(200);
      expect(result.requests.ok).toBe(200);
      expect(result.statusCodes).toEqual({ '200': 200 });
      expect(result.throughput.requestsPerSecond).toBeGreaterThan(0);
      expect(result.latency?.max).toBeGreaterThan(0);
      expect(target.requests - requestsBefore).toBeGreaterThanOrEqual(200);
      const samples = events.filter((e) => e.type === 'sample');
      expect(samples.length).toBeGreaterThan(0);
      // Over the run's windows: a sample under the last one's seq (the final fold) replaces it.
      const windows: Sample[] = [];
      for (const e of samples) if (e.type === 'sample') addSample(windows, e.sample);
      const sampled = windows.reduce((sum, w) => sum + w.requests, 0);
      expect(sampled).toBeLessThanOrEqual(200);
      expect(events.filter((e) => e.type === 'target-done')).toHaveLength(1);
    } finally {
      conn.close();
    }
  });

  it('stops a run half-way and keeps its partial result', async () => {
    const conn = await connect();
    try {
      const events: RunEvent[] = [];
      const { runId } = await conn.api.run.start({
        scenario: {
          targets: [{ url: target.url }],
          load: { model: 'closed', connections: 2, limit: { kind: 'duration', seconds: 60 } },
          options: { sampleIntervalMs: 100 },
        },
      });
      conn.api.onRunEvent(runId, (e) => events.push(e));
      await waitFor(() => events.some((e) => e.type === 'sample' && e.sample.totalRequests > 0));
      await expect(conn.api.run.stop({ runId })).resolves.toEqual({ stopped: true });
      const done = await untilDone(events, runId);
      expect(done.status).toBe('cancelled');
      expect(done.results[0]?.status).toBe('cancelled');
      expect(done.results[0]?.requests.total).toBeGreaterThan(0);
    } finally {
      conn.close();
    }
  });

  it('keeps a run alive across a reload (same client id) and stops it when the page is gone', async () => {
    const client = 'reload-test-client';
    const first = await connect(client);
    const { runId } = await first.api.run.start({
      scenario: {
        targets: [{ url: target.url }],
        load: { model: 'closed', connections: 1, limit: { kind: 'duration', seconds: 60 } },
        options: { sampleIntervalMs: 100 },
      },
    });
    first.close();

    // The reloaded page (same client id) gets the run's events and may stop it.
    const second = await connect(client);
    const events: RunEvent[] = [];
    second.api.onRunEvent(runId, (e) => events.push(e));
    await waitFor(() => events.some((e) => e.type === 'sample' && e.runId === runId));
    // Another tab cannot stop it.
    const stranger = await connect('another-tab-client');
    await expect(stranger.api.run.stop({ runId })).resolves.toEqual({ stopped: false });
    stranger.close();
    expect(manager.activeRunIds()).toContain(runId);

    // Gone for good: after the grace period the run is stopped and keeps what it measured.
    second.close();
    const results = await manager.runs.get(runId)!.done;
    expect(results[0]?.status).toBe('cancelled');
    expect(results[0]?.requests.total).toBeGreaterThan(0);
    expect(manager.activeRunIds()).not.toContain(runId);
  });
});

describe('web host: taking up runs after a reload', () => {
  it('hands the reloaded page its run with the samples so far, then the rest of its events', async () => {
    const client = 'reattach-run-client';
    const first = await connect(client);
    const firstEvents: RunEvent[] = [];
    const { runId } = await first.api.run.start({
      scenario: {
        name: 'reattached',
        targets: [{ url: target.url }],
        load: { model: 'closed', connections: 2, limit: { kind: 'duration', seconds: 3 } },
        options: { sampleIntervalMs: 100 },
      },
    });
    first.api.onRunEvent(runId, (e) => firstEvents.push(e));
    await waitFor(() => firstEvents.filter((e) => e.type === 'sample').length >= 3);
    first.close();

    const second = await connect(client);
    const events: RunEvent[] = [];
    // Followed before the answer, unlike a page (which follows from the answer on): the test sees both.
    second.api.onRunEvent(runId, (e) => events.push(e));
    try {
      const { runs } = await second.api.run.active();
      expect(runs.map((r) => r.runId)).toEqual([runId]);
      const active = runs[0]!;
      expect(active.scenario.name).toBe('reattached');
      expect(active.events.slice(0, 2).map((e) => e.type)).toEqual(['started', 'target-started']);
      const replayed = active.events.flatMap((e) => (e.type === 'sample' ? [e.sample.seq] : []));
      // Every sample so far, one per tick, in order, from the first one on.
      expect(replayed.length).toBeGreaterThanOrEqual(3);
      expect(replayed).toEqual(replayed.map((_, i) => replayed[0]! + i));
      expect(replayed[0]).toBe(0);
      expect(active.targetElapsedSeconds).toBeGreaterThan(0.2);
      expect(active.targetElapsedSeconds).toBeLessThan(3.5);

      // The rest arrives live, then the result. Samples sent between the reconnect and the
      // answer are in both (a page ignores them until it has the answer); none is missing.
      const done = await untilDone(events, runId);
      const live = events.flatMap((e) => (e.type === 'sample' ? [e.sample.seq] : []));
      expect(live.length).toBeGreaterThan(0);
      expect(live.at(-1)).toBeGreaterThan(replayed.at(-1)!);
      expect(done.status).toBe('completed');
      expect(done.results[0]!.requests.total).toBeGreaterThan(0);
      const seen = [...new Set([...replayed, ...live])].sort((a, b) => a - b);
      expect(done.results[0]!.samples.map((s) => s.seq)).toEqual(seen);
      expect((await second.api.run.active()).runs).toEqual([]);
    } finally {
      second.close();
    }
  });

  it('hands the reloaded page its comparison with the finished cells, then its end', async () => {
    const client = 'reattach-compare-client';
    const first = await connect(client);
    const firstEvents: ComparisonEvent[] = [];
    const { comparisonId } = await first.api.compare.start({
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
    first.api.onComparisonEvent(comparisonId, (e) => firstEvents.push(e));
    await waitFor(() => firstEvents.some((e) => e.type === 'cell-done'));
    first.close();

    const second = await connect(client);
    const events: ComparisonEvent[] = [];
    second.api.onComparisonEvent(comparisonId, (e) => events.push(e));
    try {
      const { comparisons } = await second.api.compare.active();
      expect(comparisons.map((c) => c.comparisonId)).toEqual([comparisonId]);
      const active = comparisons[0]!;
      expect(active.plan.name).toBe('reattached comparison');
      const types = active.events.map((e) => e.type);
      // The pre-flight of its one URL came before the first cell.
      expect(types.slice(0, 4)).toEqual(['started', 'preflight', 'cell-started', 'cell-done']);
      expect(types.filter((t) => t === 'cell-sample').length).toBeLessThanOrEqual(1);
      const cellDone = active.events.find((e) => e.type === 'cell-done');
      expect(cellDone?.type === 'cell-done' && cellDone.outcome.result.requests.total).toBeGreaterThan(0);

      await waitFor(() => events.some((e) => e.type === 'done'));
      const done = events.find((e) => e.type === 'done');
      expect(done?.type === 'done' && done.status).toBe('completed');
      expect(done?.type === 'done' && done.outcomes).toHaveLength(2);
    } finally {
      second.close();
    }
  });
});

describe('web host: a dropped connection', () => {
  it("passes on the events sent while the page was reconnecting, the run's 'done' included", async () => {
    const engine = new FakeRunService();
    const engineDataDir = await mkdtemp(path.join(tmpdir(), 'trebuchet-web-host-gap-'));
    const gapHost = await startWebHost({
      staticDir,
      appVersion: 'test',
      manager: engine,
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
    const events: RunEvent[] = [];
    try {
      const { runId } = await conn.api.run.start({ scenario: { targets: [{ url: target.url }] } });
      conn.api.onRunEvent(runId, (e) => events.push(e));
      engine.emit({ type: 'started', runId, targetCount: 1 });
      await waitFor(() => events.length === 1);

      // The connection drops (closed cleanly, so the host knows before the page does).
      sockets[0]!.close();
      await waitFor(() => !conn.connected);
      const sample: RunEvent = { type: 'sample', runId, targetIndex: 0, sample: sampleFixture() };
      engine.emit(sample);
      engine.emit({ type: 'done', runId, status: 'completed', results: [] });
      letReconnect();

      const done = await untilDone(events, runId, 10_000);
      expect(events).toEqual([{ type: 'started', runId, targetCount: 1 }, sample, done]);
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
