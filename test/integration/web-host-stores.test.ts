import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startWebHost, type WebHost } from '../../electron/host/server.ts';
import type { WebSocketApi } from '../../renderer/api/web-socket-client.ts';
import type { JobEnvelope } from '../../shared/contract/jobs.ts';
import { handlers, startHttpServer, type TestServer } from '../helpers/servers.ts';
import { connectToHost } from '../helpers/web-host-client.ts';
import { startHostProcess } from '../helpers/web-host-process.ts';

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
  const conn = await connectToHost(host.port, host.token);
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
        kind: 'run',
        scenario: { name: 'nginx run', targets: [{ name: 'nginx', url: nginx.url }], load: shortLoad },
      },
    });
    if (!saved.ok) throw new Error(saved.message);
    presetId = saved.preset.id;

    const events: JobEnvelope[] = [];
    const { jobId } = await conn.api.jobs.start({
      kind: 'run',
      plan: { name: 'nginx run', targets: [{ name: 'nginx', url: nginx.url }], load: shortLoad },
    });
    conn.api.onJobEvent(jobId, (e) => events.push(e));
    const done = (await waitFor(events, (e) => e.event.type === 'done' && e.jobId === jobId)).event;
    if (done.type !== 'done' || done.historyId === undefined) throw new Error('the run was not saved');
    expect(done.status).toBe('completed');
    runHistoryId = done.historyId;
    const sent = events.find((e) => e.event.type === 'result')!.event;
    if (sent.type !== 'result' || !('histogram' in sent.result)) throw new Error('no result');
    runRps = sent.result.throughput.requestsPerSecond;
    expect(runRps).toBeGreaterThan(0);
    const liveSamples = new Set(
      events.flatMap(({ event: e }) => (e.type === 'sample' && e.source === 'engine' ? [e.sample.seq] : [])),
    );

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
    if (record.kind !== 'run') throw new Error('expected a plain run');
    expect(record.results[0]!.throughput.requestsPerSecond).toBe(runRps);
    expect(record.results[0]!.histogram).toEqual(sent.result.histogram);
    // The samples went live, once each; history kept them with the result.
    expect(record.results[0]!.samples.length).toBe(liveSamples.size);
    expect(record.generator?.appVersion).toBe('3.1.4');
  });

  it('runs a comparison of two servers and keeps it in history as one record', async () => {
    const conn = await connect(await startHost());
    const events: JobEnvelope[] = [];
    const { jobId } = await conn.api.jobs.start({
      kind: 'comparison',
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
    conn.api.onJobEvent(jobId, (e) => events.push(e));
    const last = await waitFor(events, (e) => e.event.type === 'done');
    const done = last.event;
    if (done.type !== 'done' || done.historyId === undefined) throw new Error('the comparison was not saved');
    expect(last.jobId).toBe(jobId);
    expect(done.status).toBe('completed');
    expect(events[0]).toEqual({
      jobId,
      kind: 'comparison',
      n: 0,
      event: { type: 'progress', progress: { type: 'started', cellCount: 4 } },
    });
    expect(events.filter((e) => e.event.type === 'result')).toHaveLength(4);
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
    expect(kinds).toEqual(['comparison', 'run']);
  });

  it('keeps running with a truncated preset file and a tampered run file, both found at start, kept aside and reported', async () => {
    const conn0 = await connect(await startHost());
    const second = await conn0.api.presets.save({
      preset: { name: 'second', kind: 'run', scenario: { targets: [{ url: apache.url }] } },
    });
    if (!second.ok) throw new Error(second.message);
    for (const c of connections.splice(0)) c.close();
    for (const h of hosts.splice(0)) await h.close();

    const presetsFile = path.join(dataDir, 'presets', `${presetId}.preset.json`);
    const text = await readFile(presetsFile, 'utf8');
    await writeFile(presetsFile, text.slice(0, Math.floor(text.length / 2)));
    const runFile = path.join(dataDir, 'history', `${runHistoryId}.run.json`);
    const record = JSON.parse(await readFile(runFile, 'utf8')) as { status: string };
    record.status = 'exploded';
    await writeFile(runFile, JSON.stringify(record));

    const conn = await connect(await startHost());
    const info = await conn.api.app.info();
    expect(info.dataDir).toBe(dataDir);
    expect(info.problems).toHaveLength(2);
    const presetProblem = info.problems!.find((p) => p.store === 'presets')!;
    expect(presetProblem).toMatchObject({ file: presetsFile });
    expect(presetProblem.message).toContain('not valid JSON');
    expect(presetProblem.keptAs).toMatch(new RegExp(`${presetId}\\.preset\\.broken-.*\\.json$`));
    expect(await readFile(presetProblem.keptAs!, 'utf8')).toBe(text.slice(0, Math.floor(text.length / 2)));
    // The other preset is still there, and saving works.
    const list = await conn.api.presets.list();
    expect(list.presets.filter((p) => p.source === 'user').map((p) => p.name)).toEqual(['second']);
    const again = await conn.api.presets.save({
      preset: { name: 'after the crash', kind: 'run', scenario: { targets: [{ url: nginx.url }] } },
    });
    expect(again.ok).toBe(true);

    // The tampered run was found at start, not when opened: it is out of the list already.
    const historyProblem = info.problems!.find((p) => p.store === 'history')!;
    expect(historyProblem.message).toContain('status');
    expect(historyProblem.keptAs).toMatch(new RegExp(`${runHistoryId}\\.run\\.broken-.*\\.json$`));
    const runs = await conn.api.history.list();
    expect(runs.runs.map((r) => r.kind)).toEqual(['comparison']);
    expect(existsSync(historyProblem.keptAs!)).toBe(true);
    expect(existsSync(runFile)).toBe(false);
    await expect(conn.api.history.get({ id: runHistoryId })).rejects.toThrow(/there is no saved run/);
    const files = await readdir(path.join(dataDir, 'history'));
    expect(files.filter((f) => f.includes('.broken-'))).toHaveLength(1);
    // Still serving.
    expect((await conn.api.app.info()).appVersion).toBe('3.1.4');
  });
});

describe('a data directory that would stop the host', () => {
  it('starts with presets.json nesting deep, a preset and a run file that are folders, and says which file', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'trebuchet-stores-hostile-'));
    try {
      const good = {
        format: 'trebuchet-preset',
        version: 2,
        id: 'kept',
        name: 'kept',
        createdAt: '2025-01-01T00:00:00.000Z',
        updatedAt: '2025-01-01T00:00:00.000Z',
        kind: 'scenario',
        scenario: { targets: [{ url: nginx.url }] },
      };
      const deep = `${'['.repeat(200_000)}${']'.repeat(200_000)}`;
      // An earlier version's single file: one good preset, one with a deeply nested extra field.
      await writeFile(
        path.join(dir, 'presets.json'),
        `{"presets": [${JSON.stringify(good)}, {"format": "trebuchet-preset", "extra": ${deep}}]}`,
      );
      await mkdir(path.join(dir, 'presets', 'folder.preset.json'), { recursive: true });
      await mkdir(path.join(dir, 'history', '20250101-000000-000-aaaaaaaa.run.json'), { recursive: true });

      const host = await startWebHost({ staticDir, appVersion: '3.1.4', dataDir: dir });
      hosts.push(host);
      const conn = await connect(host);
      const { problems } = await conn.api.app.info();
      const messages = (problems ?? []).map((p) => p.message);
      expect(messages).toHaveLength(3);
      expect(messages).toContainEqual(
        expect.stringMatching(
          /preset 2 of presets\.json nests deeper than 64 levels\)\. It is kept in .*presets\.migrated-/,
        ),
      );
      expect(messages).toContainEqual(expect.stringMatching(/folder\.preset\.broken-.*\.json/));
      expect(messages).toContainEqual(
        expect.stringMatching(
          /A saved run could not be read \(it is a folder, not a file\)\. It was kept as .*20250101-000000-000-aaaaaaaa\.run\.broken-/,
        ),
      );
      expect(
        (await conn.api.presets.list()).presets.filter((p) => p.source === 'user').map((p) => p.id),
      ).toEqual(['kept']);
      // Saves work on, and a later start has nothing more to report.
      const saved = await conn.api.presets.save({
        preset: { name: 'new', kind: 'run', scenario: { targets: [{ url: nginx.url }] } },
      });
      expect(saved.ok).toBe(true);
      await host.close();
      hosts.splice(0);
      const next = await startWebHost({ staticDir, appVersion: '3.1.4', dataDir: dir });
      hosts.push(next);
      const later = await connect(next);
      expect((await later.api.app.info()).problems).toEqual([]);
      expect((await later.api.presets.list()).presets.filter((p) => p.source === 'user')).toHaveLength(2);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('two hosts on one data directory', () => {
  it('50 + 50 concurrent presets.save from two host processes keep all 100 presets', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'trebuchet-stores-shared-'));
    const both = await Promise.all([startHostProcess(staticDir, dir), startHostProcess(staticDir, dir)]);
    try {
      const [a, b] = await Promise.all(both.map((h) => h.connect()));
      const save = (api: WebSocketApi, name: string) =>
        api.api.presets.save({
          preset: { name, kind: 'run', scenario: { targets: [{ url: nginx.url }] } },
        });
      const replies = await Promise.all(
        Array.from({ length: 50 }, (_, i) => [save(a!, `a${i}`), save(b!, `b${i}`)]).flat(),
      );
      expect(replies.every((r) => r.ok)).toBe(true);
      const names = (await a!.api.presets.list()).presets
        .filter((p) => p.source === 'user')
        .map((p) => p.name);
      expect(names).toHaveLength(100);
      expect(new Set(names).size).toBe(100);
      expect(
        (await readdir(path.join(dir, 'presets'))).filter((f) => f.endsWith('.preset.json')),
      ).toHaveLength(100);
      expect((await b!.api.presets.list()).presets.filter((p) => p.source === 'user')).toHaveLength(100);
    } finally {
      await Promise.all(both.map((h) => h.close()));
      await rm(dir, { recursive: true, force: true });
    }
  });
});
