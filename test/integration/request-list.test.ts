import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runResultSchema, type RunResult } from '../../shared/model/result.ts';
import { endAfterAll } from '../helpers/cleanup.ts';
import { abField, runCli } from '../helpers/cli.ts';
import { oneTarget, runTarget } from '../helpers/engine.ts';
import { startNginx, type NginxServer } from '../helpers/nginx.ts';

/*
 * A target's list of requests (`--targets`): the load spreads over the list, every request
 * as the file says (method, URL, headers, body), round-robin exactly or random by a seed.
 */

const endAll = endAfterAll();
let dir: string;
let nginx: NginxServer;
let accessLog: string;
const PATHS = ['/a.html', '/b.css', '/img.bin', '/api.json'];
const SIZES = { '/a.html': 100, '/b.css': 1024, '/img.bin': 60 * 1024, '/api.json': 11 };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'trebuchet-list-'));
  accessLog = join(dir, 'access.log');
  nginx = endAll(
    await startNginx({
      accessLog,
      files: {
        'a.html': 'x'.repeat(100),
        'b.css': 'y'.repeat(1024),
        'img.bin': Buffer.alloc(60 * 1024, 7),
        'api.json': JSON.stringify({ ok: true }),
      },
    }),
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Requests per path in nginx's log since `from` lines. */
function logCounts(from: number): { counts: Record<string, number>; lines: number } {
  const lines = readFileSync(accessLog, 'utf8').trim().split('\n').filter(Boolean);
  const counts: Record<string, number> = {};
  for (const line of lines.slice(from)) {
    const path = line.split(' ')[1]!;
    counts[path] = (counts[path] ?? 0) + 1;
  }
  return { counts, lines: lines.length };
}

/**
 * The result's per-URL table against nginx's log: each path's requests as logged less the
 * pre-flight's one, all 200s; the rows add up to the run's totals; each row's bytes are its
 * own size (the bodies differ), its latency figures ordered.
 */
function expectTableMatchesLog(result: RunResult, logged: Record<string, number>): void {
  const table = result.urls!;
  expect(table.folded).toBe(0);
  const byPath = Object.fromEntries(table.rows.map((r) => [new URL(r.request!.url).pathname, r]));
  expect(Object.keys(byPath).sort()).toEqual([...PATHS].sort());
  for (const p of PATHS) {
    expect(byPath[p]!.requests, p).toBe(logged[p]! - 1);
    expect(byPath[p]!.statusCodes, p).toEqual({ 200: logged[p]! - 1 });
    expect(byPath[p]!.errors, p).toEqual({});
    const l = byPath[p]!.latency!;
    expect(l.p50).toBeLessThanOrEqual(l.p99);
    expect(l.p99).toBeLessThanOrEqual(l.max);
  }
  const sum = (f: (r: (typeof table.rows)[number]) => number) => table.rows.reduce((a, r) => a + f(r), 0);
  expect(sum((r) => r.requests)).toBe(result.requests.total);
  expect(sum((r) => r.bytesIn)).toBe(result.bytes.inTotal);
  expect(Math.max(...table.rows.map((r) => r.latency!.max))).toBe(result.latency!.max);
  // Per response: its file's size and nginx's head (about 240 bytes, a few more or less by type and length).
  for (const [p, size] of Object.entries(SIZES)) {
    const head = byPath[p]!.bytesIn / byPath[p]!.requests - size;
    expect(head, p).toBeGreaterThan(150);
    expect(head, p).toBeLessThan(400);
  }
}

const logLines = (): number => readFileSync(accessLog, 'utf8').trim().split('\n').filter(Boolean).length;

describe('--targets against nginx', () => {
  it("an http_load url file as is: -n 4000 round-robin over 4 paths on 2 workers gives exactly 1,000 per path in nginx's log", async () => {
    const file = join(dir, 'urls.txt');
    writeFileSync(file, PATHS.map((p) => `${nginx.httpUrl.replace(/\/$/, '')}${p}`).join('\n') + '\n');
    const before = logLines();
    const json = join(dir, 'rr.json');
    const r = await runCli(['run', '--targets', file, '-n', '4000', '-c', '8', '-t', '2', '--json', json]);
    expect(r.code, r.stderr).toBe(0);
    const { counts } = logCounts(before);
    // The load's 1,000 per path, and the pre-flight's one request to each distinct URL.
    expect(counts).toEqual(Object.fromEntries(PATHS.map((p) => [p, 1001])));
    const result = runResultSchema.parse(JSON.parse(readFileSync(json, 'utf8')));
    expect(result.requests.responses).toBe(4000);
    expect(result.generator.workers).toHaveLength(2);
    // The bytes are the list's: 1,000 of each body.
    expect(result.bytes.inBody).toBe(1000 * (100 + 1024 + 60 * 1024 + JSON.stringify({ ok: true }).length));
    // The per-URL table, merged over the 2 workers, counts what nginx logged per path (less the pre-flight's).
    expectTableMatchesLog(result, counts);
    // ab's Length check is each URL's: four pages of four sizes, none failed (against the list's
    // first page, 3,000 did), and the report says whose lengths and what the server also saw.
    expect(result.requests.lengthMismatch).toBe(0);
    expect(abField(r.stdout, 'Failed requests')).toBe('0');
    expect(abField(r.stdout, 'Document Path')).toBe('a list of 4 requests (Per URL below)');
    expect(r.stdout).toContain("the pre-flight's one request to each URL before the load, not counted here.");
  });

  it("counts ab's Length failures per URL, as ab on each URL would: only the page whose length changes fails", async () => {
    // /same is always 30 bytes; /alt alternates 10 and 20 bytes, answer by answer.
    let alt = 0;
    const server = http.createServer((req, res) => {
      res.end(req.url === '/alt' ? 'x'.repeat(alt++ % 2 === 0 ? 10 : 20) : 'y'.repeat(30));
    });
    server.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    endAll({ close: () => new Promise<void>((resolve) => server.close(() => resolve())) });
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const file = join(dir, 'alt.txt');
    writeFileSync(file, `${base}/same\n${base}/alt\n`);
    const json = join(dir, 'alt.json');
    // One connection: the answers come in order. The pre-flight takes /alt's first (10 bytes),
    // the load its next 100: 20, 10, 20, ...: the first measured sets /alt's length (20), and
    // the 50 of 10 bytes after it fail; /same never does. (Against the list's first page, /same's
    // 30 bytes, all 100 of /alt failed.)
    const r = await runCli(['run', '--targets', file, '-n', '200', '-c', '1', '--json', json]);
    expect(r.code, r.stderr).toBe(0);
    const result = runResultSchema.parse(JSON.parse(readFileSync(json, 'utf8')));
    expect(result.requests.lengthMismatch).toBe(50);
    expect(abField(r.stdout, 'Failed requests')).toBe('50');
    expect(r.stdout).toContain('(Connect: 0, Receive: 0, Length: 50, Exceptions: 0)');
  });

  it('random order with a fixed seed gives the same counts twice, on 2 workers', async () => {
    const base = nginx.httpUrl.replace(/\/$/, '');
    const once = async () => {
      const before = logLines();
      const { result } = await runTarget(
        oneTarget(`${base}/`, {
          load: { model: 'closed', connections: 4, limit: { kind: 'requests', count: 2000 } },
          options: { workers: 2 },
          target: {
            monitor: { kind: 'off' },
            requests: PATHS.map((p) => ({ url: `${base}${p}` })),
            order: { kind: 'random', seed: 42 },
          },
        }),
      );
      expect(result.status).toBe('completed');
      expect(result.requests.responses).toBe(2000);
      const { counts } = logCounts(before);
      expectTableMatchesLog(result, counts);
      return counts;
    };
    const a = await once();
    expect(await once()).toEqual(a);
    expect(Object.values(a).reduce((x, y) => x + y, 0)).toBe(2000 + 4);
    // Drawn, not in turn: the counts are not the round-robin's 500 (+1) each.
    expect(Object.values(a)).not.toEqual([501, 501, 501, 501]);
    for (const p of PATHS) expect(a[p]).toBeGreaterThan(400);
  });
});

describe("a list's per-URL errors", () => {
  it('counts each failure in the row of the request that failed: a path whose connection is cut after the pre-flight', async () => {
    let flaky = 0;
    const server = http.createServer((req, res) => {
      if (req.url === '/flaky' && flaky++ > 0) {
        req.socket.destroy();
        return;
      }
      res.end('ok');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    endAll(server);
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const { result } = await runTarget(
      oneTarget(`${base}/ok`, {
        load: { model: 'closed', connections: 2, limit: { kind: 'requests', count: 40 } },
        target: { monitor: { kind: 'off' }, requests: [{ url: `${base}/ok` }, { url: `${base}/flaky` }] },
      }),
    );
    const [ok, cut] = result.urls!.rows;
    expect(ok).toMatchObject({
      request: { url: `${base}/ok` },
      requests: 20,
      statusCodes: { 200: 20 },
      errors: {},
    });
    expect(cut!.request!.url).toBe(`${base}/flaky`);
    expect(cut!.statusCodes).toEqual({});
    expect(cut!.latency).toBeNull();
    // Every failure of the run is the cut path's, by the kinds the run's Error Set names.
    expect(Object.values(cut!.errors).reduce((a, n) => a + n, 0)).toBe(result.requests.errors);
    expect(cut!.errors).toEqual(Object.fromEntries(result.errors.map((e) => [e.kind, e.count])));
    expect(cut!.requests).toBe(20);
  });
});

/** A server that records each request: method, path, the headers asked for, the body. */
async function recordingServer(h2: boolean) {
  const seen: {
    method: string;
    path: string;
    test: string | undefined;
    run: string | undefined;
    body: string;
  }[] = [];
  const handler = (
    req: http.IncomingMessage | http2.Http2ServerRequest,
    res: http.ServerResponse | http2.Http2ServerResponse,
  ) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({
        method: req.method ?? '',
        path: req.url ?? '',
        test: req.headers['x-test'] as string | undefined,
        run: req.headers['x-run'] as string | undefined,
        body: Buffer.concat(chunks).toString(),
      });
      res.end('ok');
    });
  };
  const server = h2 ? http2.createServer(handler) : http.createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  endAll(server);
  return { seen, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe.each([
  ['HTTP/1.1', false],
  ['HTTP/2 (h2c)', true],
])('a vegeta http-format file over %s', (_, h2) => {
  it('sends each request with its headers and body, -H with every one, round-robin exactly', async () => {
    const server = await recordingServer(h2);
    mkdirSync(join(dir, 'bodies'), { recursive: true });
    writeFileSync(join(dir, 'bodies', 'thing.json'), '{"thing":1}');
    const file = join(dir, `mix-${h2 ? 'h2' : 'h1'}.http`);
    writeFileSync(
      file,
      [
        '# two requests',
        `GET ${server.url}/get?x=1`,
        'X-Test: one',
        '',
        `POST ${server.url}/post`,
        'X-Test: two',
        'Content-Type: application/json',
        '@bodies/thing.json',
        '',
      ].join('\n'),
    );
    const r = await runCli([
      ...['run', '--targets', file, '-H', 'X-Run: 7', '-n', '40', '-c', '2', '-t', '2'],
      ...(h2 ? ['--http2'] : []),
    ]);
    expect(r.code, r.stderr).toBe(0);
    const gets = server.seen.filter((s) => s.path === '/get?x=1');
    const posts = server.seen.filter((s) => s.path === '/post');
    // The load's 20 each, and the pre-flight's one.
    expect(gets).toHaveLength(21);
    expect(posts).toHaveLength(21);
    expect(new Set(gets.map((s) => `${s.method} ${s.test} ${s.run} ${s.body}`))).toEqual(
      new Set(['GET one 7 ']),
    );
    expect(new Set(posts.map((s) => `${s.method} ${s.test} ${s.run} ${s.body}`))).toEqual(
      new Set(['POST two 7 {"thing":1}']),
    );
    // The report's per-URL table: each request's 20, the clients having named each one's entry.
    expect(r.stdout).toMatch(/^ {2}GET \/get\?x=1 +20 +[\d.,]+ +200 ×20 +0 /m);
    expect(r.stdout).toMatch(/^ {2}POST \/post +20 +[\d.,]+ +200 ×20 +0 /m);
  });
});
