/**
 * Every seed article's experiment, run as a user would: the built-in preset through
 * `trebuchet run --preset`, pointed with --target at the Debian servers the article compares,
 * shortened with -n, -d, --levels and --repetitions. LiteSpeed (seed 001) is not packaged by
 * Debian: that target is left out. The numbers asserted are the ones the articles read: every
 * request a 200, the document at its size, no errors, one table row per cell, the TLS facts of
 * https cells and the Server header of each server.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cellOutcomeSchema, type CellOutcome } from '../../shared/comparison/cells.ts';
import { levelLabel, type LevelKind } from '../../shared/comparison/plan.ts';
import { runResultSchema, type RunResult } from '../../shared/model/result.ts';
import { makeTestCerts, type TestCerts } from '../helpers/certs.ts';
import { endAfterAll } from '../helpers/cleanup.ts';
import { runCli } from '../helpers/cli.ts';
import { DOCROOT_FILES } from '../helpers/server-process.ts';
import { startCaddy, startSeedServers, WEB_SERVERS, type WebServer } from '../helpers/web-servers.ts';

const endAll = endAfterAll();
let certs: TestCerts;
let servers: Record<
  'apache' | 'apachePrefork' | 'apacheWorker' | 'nginx' | 'h2o' | 'lighttpd' | 'caddy',
  WebServer
>;
const dir = mkdtempSync(join(tmpdir(), 'trebuchet-seeds-'));

beforeAll(async () => {
  // One CA for every server, so one --cacert verifies a whole comparison.
  certs = endAll(makeTestCerts());
  const [seeds, caddy] = await Promise.all([
    startSeedServers(certs, endAll),
    startCaddy({ certs }).then(endAll),
  ]);
  servers = { ...seeds, caddy };
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A server's origin (no path): the preset keeps its own path and query (test.png, 1kb.html?data=...). */
const origin = (url: string): string => url.replace(/\/$/, '');

/** `--target name=origin` for each scheme given. */
function targets(list: [name: string, ...urls: string[]][]): string[] {
  return list.flatMap(([name, ...urls]) => urls.flatMap((url) => ['--target', `${name}=${origin(url)}`]));
}

interface SeedRun {
  stdout: string;
  outcomes: CellOutcome[];
  tableKeys: string[];
  /** Each cell's runs counted of planned ("1/1"), in table order. */
  tableRuns: string[];
}

/** Runs a preset through the CLI and reads back its --json file. */
async function runSeed(name: string, args: string[]): Promise<SeedRun> {
  const json = join(dir, `${name}.json`);
  const r = await runCli(
    ['run', '--preset', name, ...args, '--pause', '0', '--cacert', certs.ca.certFile, '--json', json],
    { timeoutMs: 60_000 },
  );
  expect(r.code, r.stderr).toBe(0);
  const saved = JSON.parse(readFileSync(json, 'utf8')) as {
    status: string;
    outcomes: unknown[];
    table: { cells: { key: string; runs: number; planned: number }[] };
  };
  expect(saved.status).toBe('completed');
  return {
    stdout: r.stdout,
    outcomes: saved.outcomes.map((o) => cellOutcomeSchema.parse(o)),
    tableKeys: saved.table.cells.map((c) => c.key),
    tableRuns: saved.table.cells.map((c) => `${c.runs}/${c.planned}`),
  };
}

/** The Server header each server sends, by the name the presets give it. */
const SERVER_HEADER: Record<string, RegExp> = {
  Apache: WEB_SERVERS.apache.serverHeader,
  'Apache (prefork)': WEB_SERVERS.apache.serverHeader,
  'Apache (worker)': WEB_SERVERS.apache.serverHeader,
  nginx: WEB_SERVERS.nginx.serverHeader,
  H2O: WEB_SERVERS.h2o.serverHeader,
  lighttpd: WEB_SERVERS.lighttpd.serverHeader,
  Caddy: WEB_SERVERS.caddy.serverHeader,
};

/**
 * A run the article would call clean: completed, every request a 200 with the whole document,
 * no transport error, the expected server, and over https a verified certificate.
 */
function expectClean(result: RunResult, file: keyof typeof DOCROOT_FILES, server: string): void {
  const where = `${server} ${result.target.url}`;
  const size = DOCROOT_FILES[file].length;
  const { requests } = result;
  expect(result.status, where).toBe('completed');
  expect(result.error, where).toBeNull();
  expect(requests.total, where).toBeGreaterThan(0);
  expect(result.statusCodes, where).toEqual({ '200': requests.total });
  expect(requests.responses, where).toBe(requests.total);
  expect(requests.errors, where).toBe(0);
  expect(requests.non2xx, where).toBe(0);
  expect(requests.lengthMismatch, where).toBe(0);
  // SLO misses are seed 003's errors, counted on their own there; no transport error anywhere.
  expect(
    result.errors.filter((e) => e.kind !== 'slo'),
    where,
  ).toEqual([]);
  expect(result.server?.documentLength, where).toBe(size);
  expect(result.bytes.inBody, where).toBe(requests.responses * size);
  expect(result.server?.software, where).toMatch(SERVER_HEADER[server]!);
  if (result.target.url.startsWith('https:')) {
    expect(result.tls, where).toMatchObject({ verified: true, authorizationError: null });
    expect(result.tls?.protocol, where).toMatch(/^TLSv1\.[23]$/);
  } else {
    expect(result.tls, where).toBeNull();
  }
}

/** The printed matrix's row for a cell: its verdict mark, target, protocol, level, then figures. */
function expectRow(stdout: string, target: string, protocol: string, level: string): void {
  const escape = (s: string) => s.replace(/[()]/g, '\\$&');
  expect(stdout).toMatch(new RegExp(`^[ !~] {2}${escape(target)} +${protocol} +${level} +\\d`, 'm'));
}

/** One table row per target x protocol x level, in the plan's order, and each printed. */
function expectTable(
  run: SeedRun,
  kind: LevelKind,
  names: string[],
  protocols: string[],
  levels: number[],
  runs: string,
): void {
  const keys = levels.flatMap((l) => protocols.flatMap((p) => names.map((_, t) => `${t}|${p}|${l}`)));
  expect(run.tableKeys).toEqual(keys);
  expect(run.tableRuns).toEqual(keys.map(() => runs));
  for (const level of levels)
    for (const protocol of protocols)
      for (const name of names) expectRow(run.stdout, name, protocol, levelLabel(kind, level));
}

/** The preset's name of a cell's target (a comparison names each cell's target after it). */
const nameOf = (o: CellOutcome): string => o.result.target.name ?? o.result.target.url;

describe('the seed experiments against Debian web servers', () => {
  it('seed 000: vegeta-style 50 req/s for 1 s, Apache (event) / nginx / H2O, http and https', async () => {
    const rate = 50;
    const run = await runSeed('seed-000', [
      ...targets([
        ['Apache', servers.apache.httpUrl, servers.apache.httpsUrl],
        ['nginx', servers.nginx.httpUrl, servers.nginx.httpsUrl],
        ['H2O', servers.h2o.httpUrl, servers.h2o.httpsUrl],
      ]),
      ...['--levels', String(rate), '-d', '1'],
    ]);
    expectTable(run, 'rate', ['Apache', 'nginx', 'H2O'], ['http', 'https'], [rate], '1/1');
    // Each cell in vegeta's layout, as the article prints it.
    expect(run.stdout.match(/^Requests {6}\[total, rate, throughput\] /gm)).toHaveLength(6);
    expect(run.outcomes).toHaveLength(6);
    for (const o of run.outcomes) {
      const r = o.result;
      expectClean(r, 'test.html', nameOf(o));
      expect(r.server?.documentPath).toBe('/test.html');
      // The open model sends every request of the schedule, late or not: rate x duration.
      expect(r.load).toMatchObject({ model: 'open', rate, durationSeconds: 1 });
      expect(r.requests.total).toBe(rate);
      expect(r.requests.dropped).toBe(0);
      expect(r.bytes.inBody).toBe(rate * 5);
      expect(r.options.keepAlive).toBe(true);
      expect(r.tls?.alpn ?? null).toBe(o.coordinates.protocol === 'https' ? 'http/1.1' : null);
    }
  });

  it('seed 001: ab -n 400 -c 40 without keep-alive on the 8106-byte test.png, Apache (event) / nginx', async () => {
    // LiteSpeed, the article's third server, is not packaged by Debian: its target is left out.
    const run = await runSeed('seed-001', [
      ...targets([
        ['Apache', servers.apache.httpUrl],
        ['nginx', servers.nginx.httpUrl],
      ]),
      ...['-n', '400', '--levels', '40'],
    ]);
    expectTable(run, 'connections', ['Apache', 'nginx'], ['http'], [40], '1/1');
    // ab's report per server, then the percentile table one column per server.
    expect(run.stdout.match(/^Connection Times \(ms/gm)).toHaveLength(2);
    expect(run.stdout).toMatch(/^Latency percentiles \(ms\), http at c=40\n +Apache +nginx$/m);
    expect(run.outcomes).toHaveLength(2);
    for (const o of run.outcomes) {
      const r = o.result;
      expectClean(r, 'test.png', nameOf(o));
      expect(r.server?.documentPath).toBe('/test.png');
      expect(r.requests.total).toBe(400);
      expect(r.bytes.inBody).toBe(400 * 8106);
      expect(r.load).toMatchObject({ model: 'closed', connections: 40 });
      expect(r.options.keepAlive).toBe(false);
    }
  });

  it('seed 002: ab -n 300 -c 30 on the 85-byte index page, twice per server, Apache (event) / nginx', async () => {
    const run = await runSeed('seed-002', [
      ...targets([
        ['Apache', servers.apache.httpUrl],
        ['nginx', servers.nginx.httpUrl],
      ]),
      ...['-n', '300', '--repetitions', '2'],
    ]);
    // Two repetitions per cell, still one row per server: the figures are means over both runs.
    expectTable(run, 'connections', ['Apache', 'nginx'], ['http'], [30], '2/2');
    // The Résumé: one row per run with its time taken, req/s and time per request.
    expect(run.stdout).toMatch(
      /^Each run\ntarget +protocol +level +run +status +time taken s +req\/s +time\/req ms +time\/req all ms/m,
    );
    expect(run.stdout.match(/^(Apache|nginx) +http +c=30 +#[12] +completed +\d+\.\d{3} /gm)).toHaveLength(4);
    expect(run.outcomes.map((o) => `${o.coordinates.repetition}/${o.coordinates.targetIndex}`)).toEqual([
      '0/0',
      '0/1',
      '1/0',
      '1/1',
    ]);
    for (const o of run.outcomes) {
      const r = o.result;
      expectClean(r, 'index.html', nameOf(o));
      expect(r.server?.documentPath).toBe('/');
      expect(r.requests.total).toBe(300);
      expect(r.bytes.inBody).toBe(300 * 85);
      expect(r.options.keepAlive).toBe(false);
    }
  });

  it('seed 003: JMeter-style 5 and 30 threads for 1 s, 1 KB query string, 300 ms SLO, Apache (event) / nginx', async () => {
    const run = await runSeed('seed-003', [
      ...targets([
        ['Apache', servers.apache.httpUrl],
        ['nginx', servers.nginx.httpUrl],
      ]),
      ...['-d', '1', '--levels', '5,30'],
    ]);
    expectTable(run, 'connections', ['Apache', 'nginx'], ['http'], [5, 30], '1/1');
    // JMeter's listeners per cell; the matrix with mean and median latency, throughput and error rate.
    expect(run.stdout.match(/^Aggregate Report$/gm)).toHaveLength(4);
    expect(run.stdout).toMatch(
      /^ {3}target +protocol +level +mean ms +p50 ms +req\/s +error % +SLO failed +runs +verdict$/m,
    );
    expect(run.outcomes).toHaveLength(4);
    for (const o of run.outcomes) {
      const r = o.result;
      expectClean(r, '1kb.html', nameOf(o));
      const path = r.server!.documentPath;
      expect(path).toMatch(/^\/1kb\.html\?data=x+$/);
      expect(path.length - '/1kb.html?data='.length).toBeGreaterThanOrEqual(1000);
      expect(r.load).toMatchObject({ model: 'closed', connections: o.coordinates.level });
      expect(r.options).toMatchObject({ keepAlive: true, sloMs: 300 });
      // JMeter's error rate: a 200 slower than 300 ms is a failure, every other one a success.
      const { ok, sloExceeded, total } = r.requests;
      expect(ok + sloExceeded).toBe(total);
      expect(sloExceeded > 0).toBe(r.latency!.max > 300);
      expect(r.successRatio).toBeCloseTo(ok / total, 10);
    }
  });

  it('seed 004: the 3 KB file at c=10 and c=100, 400 requests, no keep-alive, Apache prefork / worker / lighttpd', async () => {
    const run = await runSeed('seed-004', [
      ...targets([
        ['Apache (prefork)', servers.apachePrefork.httpUrl],
        ['Apache (worker)', servers.apacheWorker.httpUrl],
        ['lighttpd', servers.lighttpd.httpUrl],
      ]),
      ...['-n', '400', '--levels', '10,100'],
    ]);
    const names = ['Apache (prefork)', 'Apache (worker)', 'lighttpd'];
    expectTable(run, 'connections', names, ['http'], [10, 100], '1/1');
    // Connect / Processing / Waiting means per server and level.
    expect(run.stdout).toMatch(
      /^ {3}target +protocol +level +req\/s +connect ms +processing ms +waiting ms /m,
    );
    expect(run.outcomes).toHaveLength(6);
    for (const o of run.outcomes) {
      const r = o.result;
      expectClean(r, '3kb.html', nameOf(o));
      expect(r.server?.documentPath).toBe('/3kb.html');
      expect(r.requests.total).toBe(400);
      expect(r.bytes.inBody).toBe(400 * 3072);
      expect(r.load).toMatchObject({ model: 'closed', connections: o.coordinates.level });
      expect(r.options.keepAlive).toBe(false);
    }
  });

  it('every suite server, Caddy included, serves the same docroot over http, https and HTTP/2', async () => {
    const suite: [string, WebServer][] = [
      ['Apache', servers.apache],
      ['nginx', servers.nginx],
      ['H2O', servers.h2o],
      ['lighttpd', servers.lighttpd],
      ['Caddy', servers.caddy],
    ];
    const run = async (urls: string[], extra: string[]): Promise<RunResult[]> => {
      const json = join(dir, `suite${extra.join('')}.json`);
      const flags = ['-n', '20', '-c', '2', '-q', '--cacert', certs.ca.certFile, '--json', json];
      const r = await runCli(['run', ...flags, ...extra, ...urls], { timeoutMs: 60_000 });
      expect(r.code, r.stderr).toBe(0);
      return (JSON.parse(readFileSync(json, 'utf8')) as unknown[]).map((x) => runResultSchema.parse(x));
    };
    // One run per URL, one after another: http and https (HTTP/1.1) of each server, then h2.
    const h1 = await run(
      suite.flatMap(([, s]) => [`${s.httpUrl}test.png`, s.httpsUrl]),
      [],
    );
    const h2 = await run(
      suite.map(([, s]) => `${s.httpsUrl}3kb.html`),
      ['--http2'],
    );
    expect(h1).toHaveLength(2 * suite.length);
    suite.forEach(([name], i) => {
      const [http, https] = [h1[2 * i]!, h1[2 * i + 1]!];
      expectClean(http, 'test.png', name);
      expectClean(https, 'index.html', name);
      expect(https.tls?.alpn).toBe('http/1.1');
      expect(https.server?.httpVersion).toBe('1.1');
      for (const r of [http, https]) expect(r.requests.total).toBe(20);
    });
    expect(h2).toHaveLength(suite.length);
    suite.forEach(([name], i) => {
      const r = h2[i]!;
      expectClean(r, '3kb.html', name);
      expect(r.tls?.alpn).toBe('h2');
      expect(r.server?.httpVersion).toBe('2');
      expect(r.requests.total).toBe(20);
    });
  });
});
