import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startWebHost, type WebHost } from '../../electron/host/server.ts';
import { connectWebSocketApi, type WebSocketApi } from '../../renderer/api/web-socket-client.ts';
import type { ComparisonEvent, RunEvent } from '../../shared/api.ts';
import { handlers, startHttpServer, type TestServer } from '../helpers/servers.ts';

/*
 * The preset and history stores behind the real web host and engine, reached as the page
 * reaches them (the WebSocket API): they survive a restart of the host on the same data
 * directory, and a broken store file leaves the host running with the file kept aside.
 */

let staticDir: string;
let dataDir: string;
let nginx: TestServer;
let apache: TestServer;
const hosts: WebHost[] = [];
const connections: WebSocketApi[] = [];

beforeAll(async () => {
  staticDir = await mkdtemp(path.join(tmpdir(), 'trebuchet-stores-static-'));
  await writeFile(path.join(staticDir, 'index.html'), '<!doctype html><title>t</title>');
  dataDir = await mkdtemp(path.join(tmpdir(), 'trebuchet-stores-data-'));
  nginx = await startHttpServer(handlers.ok('nginx says hi', { server: 'nginx-ish' }));
  apache = await startHttpServer(handlers.ok('apache says hi', { server: 'apache-ish' }));
});

afterEach(async () => {
  for (const c of connections.splice(0)) c.close();
  for (const h of hosts.splice(0)) await h.close();
});

afterAll(async () => {
  await nginx.close();
  await apache.close();
  await rm(staticDir, { recursive: true, force: true });
  await rm(dataDir, { recursive: true, force: true });
});

async function startHost(): Promise<WebHost> {
  const host = await startWebHost({ staticDir, appVersion: '3.1.4', dataDir });
  hosts.push(host);
  return host;
}

async function connect(host: WebHost): Promise<WebSocketApi> {
  const conn = await connectWebSocketApi({
    url: `ws://127.0.0.1:${host.port}/ws?token=${host.token}`,
    createSocket: (url, on) => {
      // As a browser: one message per task (see web-host.test.ts).
      const ws = new WebSocket(url, {
        origin: `http://127.0.0.1:${host.port}`,
        allowSynchronousEvents: false,
      });
      ws.on('open', () => on.open());
      ws.on('message', (data: Buffer) => on.message(data.toString('utf8')));
      ws.on('close', () => on.close());
      ws.on('error', () => undefined);
      return ws;
    },
  });
  connections.push(conn);
  return conn;
}

async function restart(): Promise<WebSocketApi> {
  for (const c of connections.splice(0)) c.close();
  for (const h of hosts.splice(0)) await h.close();
  return connect(await startHost());
}

function waitFor<E>(events: E[], match: (e: E) => boolean, timeoutMs = 60_000): Promise<E> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const poll = setInterval(() => {
      const found = events.find(match);
      if (found !== undefined) {
        clearInterval(poll);
        resolve(found);
      } else if (Date.now() - started > timeoutMs) {
        clearInterval(poll);
        reject(new Error(`no matching event in ${timeoutMs} ms`));
      }
    }, 20);
  });
}

const shortLoad = { model: 'closed', connections: 2, limit: { kind: 'duration', seconds: 0.5 } } as const;

describe('stores through the web host', () => {
  let runHistoryId = '';
  let runRps = 0;
  let presetId = '';

  it('saves a preset and a run, and both survive a restart on the same data directory', async () => {
    let conn = await connect(await startHost());
    const saved = await conn.api.presets.save({
      preset: {
        name: 'my nginx',
        kind: 'scenario',
        scenario: { name: 'nginx run', targets: [{ name: 'nginx', url: nginx.url }], load: shortLoad },
      },
    });
    if (!saved.ok) throw new Error(saved.message);
    presetId = saved.preset.id;

    const events: RunEvent[] = [];
    const { runId } = await conn.api.run.start({
      scenario: { name: 'nginx run', targets: [{ name: 'nginx', url: nginx.url }], load: shortLoad },
    });
    conn.api.onRunEvent(runId, (e) => events.push(e));
    const done = await waitFor(events, (e) => e.type === 'done' && e.runId === runId);
    if (done.type !== 'done' || done.historyId === undefined) throw new Error('the run was not saved');
    expect(done.status).toBe('completed');
    runHistoryId = done.historyId;
    runRps = done.results[0]!.throughput.requestsPerSecond;
    expect(runRps).toBeGreaterThan(0);

    conn = await restart();
    const presets = await conn.api.presets.list();
    expect(presets.presets.filter((p) => p.source === 'user').map((p) => [p.id, p.name])).toEqual([
      [presetId, 'my nginx'],
    ]);
    const runs = await conn.api.history.list();
    expect(runs.runs.map((r) => [r.id, r.name, r.status, r.appVersion])).toEqual([
      [runHistoryId, 'nginx run', 'completed', '3.1.4'],
    ]);
    const record = await conn.api.history.get({ id: runHistoryId });
    if (record.kind !== 'scenario') throw new Error('expected a plain run');
    expect(record.results[0]!.throughput.requestsPerSecond).toBe(runRps);
    expect(record.results[0]!.histogram).toEqual(done.results[0]!.histogram);
    expect(record.results[0]!.samples.length).toBe(done.results[0]!.samples.length);
    expect(record.generator?.appVersion).toBe('3.1.4');
  });

  it('runs a comparison of two servers and keeps it in history as one record', async () => {
    const conn = await connect(await startHost());
    const events: ComparisonEvent[] = [];
    const { comparisonId } = await conn.api.compare.start({
      plan: {
        name: 'nginx vs apache',
        targets: [
          { name: 'nginx', urls: { http: nginx.url } },
          { name: 'apache', urls: { http: apache.url } },
        ],
        load: shortLoad,
        levels: [1, 2],
        repetitions: 1,
      },
    });
    conn.api.onComparisonEvent(comparisonId, (e) => events.push(e));
    const done = await waitFor(events, (e) => e.type === 'done');
    if (done.type !== 'done' || done.historyId === undefined) throw new Error('the comparison was not saved');
    expect(done.comparisonId).toBe(comparisonId);
    expect(done.status).toBe('completed');
    expect(events[0]).toEqual({ type: 'started', comparisonId, cellCount: 4 });
    expect(events.filter((e) => e.type === 'cell-done')).toHaveLength(4);
    const record = await conn.api.history.get({ id: done.historyId });
    if (record.kind !== 'comparison') throw new Error('expected a comparison');
    expect(record.outcomes.map((o) => [o.coordinates.targetIndex, o.coordinates.level])).toEqual([
      [0, 1],
      [1, 1],
      [0, 2],
      [1, 2],
    ]);
    expect(record.outcomes.map((o) => o.result.server?.software)).toEqual([
      'nginx-ish',
      'apache-ish',
      'nginx-ish',
      'apache-ish',
    ]);
    // The cells' own runs are part of the comparison, not separate history entries.
    const kinds = (await conn.api.history.list()).runs.map((r) => r.kind).sort();
    expect(kinds).toEqual(['comparison', 'scenario']);
  });

  it('keeps running with a truncated presets file and a tampered run file, both kept aside and reported', async () => {
    const presetsFile = path.join(dataDir, 'presets.json');
    const text = await readFile(presetsFile, 'utf8');
    await writeFile(presetsFile, text.slice(0, Math.floor(text.length / 2)));
    const runFile = path.join(dataDir, 'history', `${runHistoryId}.run.json`);
    const record = JSON.parse(await readFile(runFile, 'utf8')) as { status: string };
    record.status = 'exploded';
    await writeFile(runFile, JSON.stringify(record));

    const conn = await connect(await startHost());
    const info = await conn.api.app.info();
    expect(info.dataDir).toBe(dataDir);
    expect(info.problems).toHaveLength(1);
    const presetProblem = info.problems![0]!;
    expect(presetProblem).toMatchObject({ store: 'presets', file: presetsFile });
    expect(presetProblem.message).toContain('not valid JSON');
    expect(presetProblem.keptAs).toMatch(/presets\.broken-.*\.json$/);
    expect(await readFile(presetProblem.keptAs!, 'utf8')).toBe(text.slice(0, Math.floor(text.length / 2)));
    // The app starts with the built-ins only, and saving works again.
    const list = await conn.api.presets.list();
    expect(list.presets.every((p) => p.source === 'built-in')).toBe(true);
    const again = await conn.api.presets.save({
      preset: { name: 'after the crash', kind: 'scenario', scenario: { targets: [{ url: nginx.url }] } },
    });
    expect(again.ok).toBe(true);

    // The run index still lists the tampered run; opening it finds the damage.
    await expect(conn.api.history.get({ id: runHistoryId })).rejects.toThrow(/status/);
    const runs = await conn.api.history.list();
    expect(runs.runs.map((r) => r.kind)).toEqual(['comparison']);
    const historyProblem = runs.problems.find((p) => p.store === 'history');
    expect(historyProblem?.keptAs).toMatch(new RegExp(`${runHistoryId}\\.run\\.broken-.*\\.json$`));
    expect(existsSync(historyProblem!.keptAs!)).toBe(true);
    expect(existsSync(runFile)).toBe(false);
    const files = await readdir(path.join(dataDir, 'history'));
    expect(files.filter((f) => f.includes('.broken-'))).toHaveLength(1);
    // Still serving.
    expect((await conn.api.app.info()).appVersion).toBe('3.1.4');
  });
});
