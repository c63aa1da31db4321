import { parse } from 'csv-parse/sync';
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import type http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { vegetaRate, vegetaThroughput } from '../../shared/verdict/run-figures.ts';
import { cellVerdict, verdictSummary } from '../../shared/verdict/verdict.ts';
import { verdictMark } from '../../shared/format/verdict-text.ts';
import { cellOutcomeSchema } from '../../shared/comparison/cells.ts';
import { runResultSchema } from '../../shared/model/result.ts';
import { makeTestCerts } from '../helpers/certs.ts';
import { endAfterAll, endAfterEach } from '../helpers/cleanup.ts';
import { abField, runCli, startCli } from '../helpers/cli.ts';
import { nginxStatus, startNginx } from '../helpers/nginx.ts';
import { handlers, refusedPort, startHttpServer, type TestServer } from '../helpers/servers.ts';

const endAll = endAfterAll();
const end = endAfterEach();
let server: TestServer;
let dir: string;

beforeAll(async () => {
  server = endAll(await startHttpServer(handlers.ok('hello', { server: 'node-test/1' })));
  dir = mkdtempSync(join(tmpdir(), 'trebuchet-cli-'));
  endAll({ remove: () => rmSync(dir, { recursive: true, force: true }) });
});

describe('trebuchet run', () => {
  it('-n 1000 -c 10 completes exactly 1000 requests and prints the ab and vegeta figures', async () => {
    const before = server.requests;
    const r = await runCli(['run', '-n', '1000', '-c', '10', '--threshold', 'rps>0', `${server.url}hello`]);
    expect(r.stderr).not.toContain('Error');
    expect(r.code).toBe(0);
    expect(abField(r.stdout, 'Complete requests')).toBe('1000');
    expect(abField(r.stdout, 'Failed requests')).toBe('0');
    expect(abField(r.stdout, 'Concurrency Level')).toBe('10');
    expect(abField(r.stdout, 'Document Length')).toBe('5 bytes');
    expect(abField(r.stdout, 'Server Software')).toBe('node-test/1');
    expect(abField(r.stdout, 'HTML transferred')).toBe('5000 bytes');
    expect(r.stdout).toMatch(/^Requests {6}\[total, rate, throughput\] {9}1000, /m);
    expect(r.stdout).toMatch(/^Status Codes {2}\[code:count\] {22}200:1000$/m);
    expect(r.stdout).toMatch(/^Success {7}\[ratio\] {27}100\.00%$/m);
    expect(r.stdout).toMatch(/^ {3}100% +\d+\.\d{3} \(longest request\)$/m);
    expect(r.stdout).toContain('rps > 0 req/s: passed');
    // The server saw the 1000 measured requests (plus the engine's pre-flight request).
    expect(server.requests - before).toBeGreaterThanOrEqual(1000);
    expect(server.requests - before).toBeLessThanOrEqual(1002);
  });

  it('exits 1 when a threshold fails, and says which', async () => {
    const r = await runCli(['run', '-n', '200', '-c', '2', '--threshold', 'p50<0.0001', `${server.url}`]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/p50 < 0\.0001 ms: FAILED \(actual \d+\.\d{3} ms\)/);
    expect(abField(r.stdout, 'Complete requests')).toBe('200');
  });

  it('exits 2 on bad input, naming the flag, before sending anything', async () => {
    const before = server.requests;
    const r = await runCli(['run', '-c', '0', '-n', '10', server.url]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--connections: connections must be at least 1');
    expect(r.stdout).toBe('');
    const scenario = join(dir, 'bad.json');
    writeFileSync(scenario, JSON.stringify({ targets: [{ url: server.url, method: 'FETCH' }] }));
    const s = await runCli(['run', '--scenario', scenario]);
    expect(s.code).toBe(2);
    expect(s.stderr).toContain('--scenario targets.0.method');
    expect(server.requests).toBe(before);
  });

  it('exits 2 on header values and input files it cannot send, naming the flag or field and the file', async () => {
    const before = server.requests;
    const euro = await runCli(['run', '-n', '1', '-H', 'X-Price: 5 \u20ac', server.url]);
    expect(euro.code).toBe(2);
    expect(euro.stderr).toContain('--header: header value has "\u20ac" (U+20AC) at position 3');
    const nul = await runCli(['run', '-n', '1', '-H', 'X-A: a\u0001b', server.url]);
    expect(nul.code).toBe(2);
    expect(nul.stderr).toContain('--header: header value has a control character (U+0001) at position 2');

    const notPem = join(dir, 'not.pem');
    writeFileSync(notPem, 'not a certificate\n');
    const ca = await runCli(['run', '-n', '1', '--cacert', notPem, server.url.replace('http:', 'https:')]);
    expect(ca.code).toBe(2);
    expect(ca.stderr).toContain(
      `--cacert: ${notPem} is not a PEM certificate (no "-----BEGIN CERTIFICATE-----" block)`,
    );

    const folder = join(dir, 'a-folder');
    mkdirSync(folder, { recursive: true });
    const fifo = join(dir, 'body.fifo');
    execFileSync('mkfifo', [fifo]);
    const asFlag = await runCli(['run', '-n', '1', '--body-file', fifo, server.url], { timeoutMs: 10_000 });
    expect(asFlag.code).toBe(2);
    expect(asFlag.stderr).toContain(`--body-file: ${fifo} is a named pipe (FIFO), not a regular file`);
    const scenarioWith = (file: string) => {
      const f = join(dir, `with-body-${file.length}.json`);
      writeFileSync(
        f,
        JSON.stringify({
          targets: [{ url: server.url, method: 'POST', body: { kind: 'file', path: file } }],
        }),
      );
      return f;
    };
    const inFolder = await runCli(['run', '-n', '1', '--scenario', scenarioWith(folder)]);
    expect(inFolder.code).toBe(2);
    expect(inFolder.stderr).toContain(`--scenario targets.0.body.path: ${folder} is a folder, not a file`);
    const missing = await runCli(['run', '-n', '1', '--scenario', scenarioWith(join(dir, 'missing.bin'))]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(
      `--scenario targets.0.body.path: ${join(dir, 'missing.bin')} does not exist`,
    );
    expect(server.requests).toBe(before);
  });

  it('says in one line, with the fix, that the open-files limit stopped connections (ulimit -n 64, -c 200)', async () => {
    const json = join(dir, 'emfile.json');
    const r = await runCli(['run', '-c', '200', '-d', '2', '--json', json, `${server.url}hello`], {
      openFiles: 64,
    });
    const result = runResultSchema.parse(JSON.parse(readFileSync(json, 'utf8')));
    const limits = result.warnings.filter((w) => w.code === 'client-limit');
    expect(limits).toHaveLength(1);
    // Some connections fit under the limit and were served; the others failed with the reason.
    expect(result.requests.ok).toBeGreaterThan(0);
    const emfile = result.errors.filter((e) => e.message.startsWith('EMFILE: '));
    expect(emfile).toHaveLength(1);
    expect(emfile[0]!.count).toBe(result.requests.errors);
    expect(limits[0]!.message).toContain(`${emfile[0]!.count} request(s) could not open a connection`);
    expect(limits[0]!.message).toContain('(ulimit -n) is 64 for 200 connection(s)');
    // The text report says it once, with the fix, among the warnings.
    expect(r.stdout.split('\n').filter((l) => l.includes('open-files limit (EMFILE)'))).toHaveLength(1);
    expect(r.stdout).toContain('`ulimit -n 4096`');
  });

  it('exits 1 when the target cannot be reached, with the reason', async () => {
    const port = await refusedPort();
    const r = await runCli(['run', '-n', '10', `http://127.0.0.1:${port}/`]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('Status: failed');
    expect(r.stderr).toMatch(/refused/i);
  });

  it('writes --json that parses as a RunResult and --csv files that parse back to the same numbers', async () => {
    const json = join(dir, 'out.json');
    const csv = join(dir, 'out.csv');
    const r = await runCli([
      'run',
      '-n',
      '300',
      '-c',
      '3',
      '--format',
      'vegeta',
      '--json',
      json,
      '--csv',
      csv,
      server.url,
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toMatch(/^Requests {6}\[total, rate, throughput\] {9}300, /);
    const result = runResultSchema.parse(JSON.parse(readFileSync(json, 'utf8')));
    expect(result.requests.total).toBe(300);
    expect(result.statusCodes).toEqual({ '200': 300 });

    const summary = parse(readFileSync(join(dir, 'out.summary.csv'), 'utf8'));
    const header = summary[0]!;
    const row = summary[1]!;
    expect(Number(row[header.indexOf('requests')])).toBe(300);
    expect(Number(row[header.indexOf('latency p99 (ms)')])).toBe(result.latency!.percentiles['99']);
    const percentiles = parse(readFileSync(join(dir, 'out.percentiles.csv'), 'utf8'));
    expect(percentiles).toHaveLength(12);
    const series = parse(readFileSync(join(dir, 'out.timeseries.csv'), 'utf8'));
    expect(series.length - 1).toBe(result.samples.length);
  });

  it('--format json prints the result on stdout', async () => {
    const r = await runCli(['run', '-n', '50', '-c', '1', '--format', 'json', server.url]);
    expect(r.code).toBe(0);
    expect(runResultSchema.parse(JSON.parse(r.stdout)).requests.total).toBe(50);
  });

  it('shows progress on stderr, stops on Ctrl-C with a partial report and exits 130', async () => {
    const slow = end(await startHttpServer(handlers.delay(5)));
    const cli = end(
      startCli(['run', '-d', '30', '-c', '4', '--interval', '200', slow.url], { timeoutMs: 40_000 }),
    );
    // Runs longer than 2 s print a line per sample on stderr (not a TTY here).
    await cli.waitForStderr(/req\/s .*total [\d,]+.*\n.*req\/s/);
    cli.child.kill('SIGINT');
    const r = await cli.done;
    expect(r.code).toBe(130);
    expect(r.stdout).toContain('Status: cancelled');
    const complete = Number(abField(r.stdout, 'Complete requests'));
    expect(complete).toBeGreaterThan(0);
    expect(complete).toBeLessThan(30 * 4 * 200);
  });
});

/** Bodies of 5 and 11 bytes in turn, so every other response differs from the first one's length. */
function alternatingLength(): http.RequestListener {
  let n = 0;
  return (_req, res) => {
    const body = n++ % 2 === 0 ? 'hello' : 'hello world';
    res.writeHead(200, { 'content-length': body.length });
    res.end(body);
  };
}

describe('ab and vegeta fidelity', () => {
  it("counts ab's Length failures against a server whose body length alternates, and Keep-Alive requests", async () => {
    const alternating = end(await startHttpServer(alternatingLength()));
    const json = join(dir, 'length.json');
    // One connection: the 100 measured responses alternate strictly, whichever length comes first.
    const r = await runCli([
      'run',
      '-n',
      '100',
      '-c',
      '1',
      '--format',
      'ab',
      '--json',
      json,
      alternating.url,
    ]);
    expect(r.code).toBe(0);
    expect(abField(r.stdout, 'Complete requests')).toBe('100');
    expect(abField(r.stdout, 'Failed requests')).toBe('50');
    expect(r.stdout).toContain('   (Connect: 0, Receive: 0, Length: 50, Exceptions: 0)\n');
    expect(abField(r.stdout, 'Keep-Alive requests')).toBe('100');
    const result = runResultSchema.parse(JSON.parse(readFileSync(json, 'utf8')));
    expect(result.requests.lengthMismatch).toBe(50);
    // A different length is ab's failure only: every response is a vegeta success.
    expect(result.successRatio).toBe(1);

    const closing = await runCli([
      'run',
      '-n',
      '20',
      '-c',
      '1',
      '--no-keepalive',
      '--format',
      'ab',
      alternating.url,
    ]);
    expect(abField(closing.stdout, 'Keep-Alive requests')).toBe('0');
    expect(abField(closing.stdout, 'Failed requests')).toBe('10');
  });

  it("an all-success open run reports vegeta's rate (sent / attack) at or above its throughput", async () => {
    const r = await runCli(['run', '--rate', '200', '-d', '1', '--format', 'json', server.url]);
    expect(r.code).toBe(0);
    const result = runResultSchema.parse(JSON.parse(r.stdout));
    expect(result.successRatio).toBe(1);
    expect(result.requests.total).toBeGreaterThanOrEqual(198);
    expect(result.attackSeconds).toBeGreaterThan(0.9);
    expect(result.throughput.sentRate).toBeCloseTo(result.requests.total / result.attackSeconds!, 6);
    expect(vegetaRate(result)).toBeGreaterThanOrEqual(vegetaThroughput(result));
  });
});

describe('trebuchet run --preset and --save, trebuchet presets', () => {
  it('runs built-in seed 004 as a comparison against a local server, with flags shortening it, and saves it', async () => {
    const dataDir = join(dir, 'preset-data');
    const json = join(dir, 'seed-004.json');
    const before = server.requests;
    const r = await runCli([
      ...['run', '--preset', 'seed-004', '--target', `lighttpd=${server.url}hello`],
      ...['-n', '200', '--levels', '5,10', '--pause', '0', '--save', '--data-dir', dataDir, '--json', json],
    ]);
    expect(r.stderr).toContain('left out (no URL given): Apache (prefork), Apache (worker)');
    expect(r.code).toBe(0);
    // Each cell in ab's layout (seed 004 is named after ab), then the matrix with the seed's
    // columns: Connect / Processing / Waiting means per server and level.
    expect(r.stdout).toMatch(/^== lighttpd · http · c=5 · #1 ==\nServer Software: /m);
    expect(r.stdout).toMatch(
      /^ {3}target +protocol +level +req\/s +connect ms +processing ms +waiting ms +time taken s +time\/req ms +failed +verdict$/m,
    );
    const saved = JSON.parse(readFileSync(json, 'utf8')) as { status: string; outcomes: unknown[] };
    expect(saved.status).toBe('completed');
    const outcomes = saved.outcomes.map((o) => cellOutcomeSchema.parse(o));
    // Each row ends with its cell's verdict and is marked by it: the product's, computed from the
    // saved runs (a connection per request on a loaded machine can be setup-bound; the words are
    // the verdict's, not this machine's load).
    const [v5, v10] = outcomes.map((o) => cellVerdict([o.result]));
    const esc = (t: string) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    expect(r.stdout).toMatch(
      new RegExp(
        `^${esc(verdictMark(v5!))} {2}lighttpd +http +c=5 +[\\d,.]+ +\\d+\\.\\d{3} +\\d+\\.\\d{3} +\\d+\\.\\d{3} .* 0 +${esc(verdictSummary(v5!))}$`,
        'm',
      ),
    );
    expect(r.stdout).toMatch(
      new RegExp(
        `^${esc(verdictMark(v10!))} {2}lighttpd +http +c=10 +[\\d,.]+ +\\d+\\.\\d{3} .* ${esc(verdictSummary(v10!))}$`,
        'm',
      ),
    );
    expect(outcomes.map((o) => [o.coordinates.level, o.result.requests.total, o.result.statusCodes])).toEqual(
      [
        [5, 200, { '200': 200 }],
        [10, 200, { '200': 200 }],
      ],
    );
    // Seed 004 is ab without -k: a connection per request, as the preset says.
    expect(outcomes.every((o) => !o.result.options.keepAlive)).toBe(true);
    expect(server.requests - before).toBeGreaterThanOrEqual(400);
    const id = /saved in history as (\S+)/.exec(r.stderr)?.[1];
    expect(id).toBeDefined();
    expect(readdirSync(join(dataDir, 'history')).some((f) => f.startsWith(id!))).toBe(true);
  });

  it('prints one run per cell in a tool format, then the table', async () => {
    const r = await runCli([
      ...['run', '--preset', 'builtin-seed-002-ab-repeated', server.url, '-n', '100', '--repetitions', '2'],
      ...['--pause', '0', '--format', 'http_load', '--data-dir', join(dir, 'preset-data')],
    ]);
    expect(r.code).toBe(0);
    const headings = r.stdout.match(/^== .* ==$/gm) ?? [];
    expect(headings).toHaveLength(2);
    expect(r.stdout.match(/^ {2}code 200 -- 100$/gm)).toHaveLength(2);
    expect(r.stdout).toMatch(/ 2\/2 /);
  });

  it('stops a comparison on Ctrl-C with the partial run in the table, and exits 130', async () => {
    const slow = end(await startHttpServer(handlers.delay(5)));
    const preset = ['--preset', 'seed-004', '--target', `lighttpd=${slow.url}`, '--levels', '2,4'];
    const flags = ['-d', '30', '--interval', '200', '--data-dir', join(dir, 'preset-data')];
    const cli = end(startCli(['run', ...preset, ...flags], { timeoutMs: 40_000 }));
    await cli.waitForStderr(/req\/s .*total [\d,]+.*\n.*req\/s/);
    cli.child.kill('SIGINT');
    const r = await cli.done;
    expect(r.code).toBe(130);
    expect(r.stdout).toMatch(/^Status: cancelled$/m);
    // The first level's run ended early and counts as cancelled (left out of the means); the second never ran.
    expect(r.stdout).toMatch(/^! +lighttpd +http +c=2 +– .* stopped$/m);
    expect(r.stdout).toMatch(/^ +lighttpd +http +c=4 +– .* –$/m);
    expect(r.stdout).toContain('! lighttpd · http · c=2: Every run was stopped before its end');
    expect(r.stderr).not.toContain('[2/2]');
  });

  it('checks every URL of a comparison first: a self-signed server stops it before any load, with the fix, and exits 1', async () => {
    const certs = endAll(makeTestCerts());
    const secure = end(await startHttpServer(handlers.ok('secret'), { tls: certs.selfSigned }));
    const planFile = join(dir, 'self-signed.json');
    writeFileSync(
      planFile,
      JSON.stringify({
        name: 'self-signed',
        targets: [
          { name: 'plain', urls: { http: server.url, https: secure.url } },
          { name: 'secure', urls: { http: server.url, https: secure.url } },
        ],
        protocols: ['http', 'https'],
        load: { model: 'closed', limit: { kind: 'requests', count: 50 } },
        levels: [1],
        repetitions: 1,
      }),
    );
    const before = server.requests;
    const r = await runCli(['run', '--preset', planFile, '--data-dir', join(dir, 'preset-data')]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('checking 2 URL(s) before any load');
    expect(r.stderr).toContain('1 URL(s) failed the check; no load was sent');
    expect(r.stdout.split('\n').slice(0, 4)).toEqual([
      'The comparison did not start: 1 URL(s) failed the check before any load.',
      `  ${secure.url} (HTTP/1.1; plain, secure): certificate is self-signed (DEPTH_ZERO_SELF_SIGNED_CERT) for ${secure.url} — turn off certificate verification to test it anyway`,
      '    fix: Turn off certificate verification (--insecure)',
      "    fix: Pick the CA file that signed the server's certificate (--cacert FILE)",
    ]);
    // The http URL got its one pre-flight request, and no cell ran.
    expect(server.requests - before).toBe(1);
    expect(secure.requests).toBe(0);
    // With the fix the same comparison runs.
    const fixed = await runCli([
      'run',
      '--preset',
      planFile,
      '--insecure',
      '-q',
      '--data-dir',
      join(dir, 'preset-data'),
    ]);
    expect(fixed.code).toBe(0);
    expect(secure.requests).toBeGreaterThanOrEqual(100);
  });

  it('--save keeps a plain run in the history with secret header values cleared; without it nothing is written', async () => {
    const dataDir = join(dir, 'save-data');
    const args = [
      'run',
      '-q',
      '-n',
      '100',
      '-H',
      'Authorization: Bearer s3cret',
      '--data-dir',
      dataDir,
      server.url,
    ];
    const unsaved = await runCli(args);
    expect(unsaved.code).toBe(0);
    expect(existsSync(dataDir)).toBe(false);
    const r = await runCli([...args, '--save']);
    expect(r.code).toBe(0);
    const id = /saved in history as (\S+)/.exec(r.stderr)?.[1];
    const file = readdirSync(join(dataDir, 'history')).find((f) => id !== undefined && f.startsWith(id));
    const record = JSON.parse(readFileSync(join(dataDir, 'history', file!), 'utf8')) as {
      kind: string;
      status: string;
      scenario: { targets: { headers: { name: string; value: string }[] }[] };
      results: unknown[];
    };
    expect(record).toMatchObject({ kind: 'run', status: 'completed' });
    expect(runResultSchema.parse(record.results[0]).requests.total).toBe(100);
    expect(record.scenario.targets[0]!.headers).toEqual([{ name: 'Authorization', value: '' }]);
  });

  it('clears secret header values from the report, --json and --csv unless --keep-secrets, which writes them owner-only', async () => {
    const secret = ['-H', 'Authorization: Bearer s3cret', '-H', 'X-Api-Key: k3y', '-H', 'Accept: text/plain'];
    const cleared = join(dir, 'cleared.json');
    const r = await runCli([
      'run',
      '-q',
      '-n',
      '20',
      ...secret,
      '--format',
      'json',
      '--json',
      cleared,
      '--csv',
      join(dir, 'cleared.csv'),
      server.url,
    ]);
    expect(r.code).toBe(0);
    const headersOf = (text: string) => runResultSchema.parse(JSON.parse(text)).target.headers;
    const clearedHeaders = [
      { name: 'Authorization', value: '' },
      { name: 'X-Api-Key', value: '' },
      { name: 'Accept', value: 'text/plain' },
    ];
    expect(headersOf(r.stdout)).toEqual(clearedHeaders);
    expect(headersOf(readFileSync(cleared, 'utf8'))).toEqual(clearedHeaders);
    // Files without secrets get the usual mode (as a file the user writes here).
    const reference = join(dir, 'reference.txt');
    writeFileSync(reference, '');
    const usualMode = statSync(reference).mode & 0o777;
    expect(statSync(cleared).mode & 0o777).toBe(usualMode);

    const kept = join(dir, 'kept.json');
    const k = await runCli([
      'run',
      '-q',
      '-n',
      '20',
      ...secret,
      '--keep-secrets',
      '--json',
      kept,
      '--csv',
      join(dir, 'kept.csv'),
      server.url,
    ]);
    expect(k.code).toBe(0);
    expect(headersOf(readFileSync(kept, 'utf8'))[0]).toEqual({
      name: 'Authorization',
      value: 'Bearer s3cret',
    });
    for (const file of [kept, join(dir, 'kept.summary.csv'), join(dir, 'kept.timeseries.csv')]) {
      expect(statSync(file).mode & 0o777, file).toBe(0o600);
    }
  });

  it('says on stderr that --save set a broken presets file aside', async () => {
    const dataDir = join(dir, 'broken-presets-data');
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(join(dataDir, 'presets.json'), '{"presets": [{"format": "trebuchet-pre');
    const r = await runCli(['run', '-q', '-n', '10', '--save', '--data-dir', dataDir, server.url]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      /^trebuchet run: The presets file could not be read \(the file is not valid JSON \(truncated, or edited by hand\?\)\)\. It was kept as \S+presets\.broken-\S+\.json; no preset was taken from it\.$/m,
    );
    expect(r.stderr).toMatch(/saved in history as /);
  });

  it('a --json that cannot be written leaves no file, says why, exits 1, and --save still keeps the run', async () => {
    const outDir = join(dir, 'vanishing');
    mkdirSync(outDir);
    const dataDir = join(dir, 'vanishing-data');
    // The folder is there when the flags are checked, and gone when the file is written.
    let held: (() => void)[] = [];
    let removed = false;
    const holding = end(
      await startHttpServer((_req, res) => {
        const answer = () => res.end('ok');
        if (removed) return answer();
        held.push(answer);
        rmSync(outDir, { recursive: true });
        removed = true;
        for (const release of held) release();
        held = [];
      }),
    );
    const json = join(outDir, 'result.json');
    const r = await runCli([
      'run',
      '-q',
      '-n',
      '5',
      '-c',
      '1',
      '--json',
      json,
      '--save',
      '--data-dir',
      dataDir,
      holding.url,
    ]);
    expect(removed).toBe(true);
    expect(r.stderr).toContain(
      `trebuchet run: could not write ${json}: its folder does not exist (any more)`,
    );
    expect(r.code).toBe(1);
    expect(existsSync(outDir)).toBe(false);
    expect(r.stdout).toMatch(/^Requests {6}\[total, rate, throughput\] {9}5, /m);
    const id = /saved in history as (\S+)/.exec(r.stderr)?.[1];
    expect(id).toBeDefined();
    expect(readdirSync(join(dataDir, 'history'))).toContain(`${id}.run.json`);
  });

  it('lists the built-in presets, as text and as JSON', async () => {
    const dataDir = join(dir, 'list-data');
    const text = await runCli(['presets', 'list', '--data-dir', dataDir]);
    expect(text.code).toBe(0);
    for (const id of [
      'builtin-seed-000-vegeta-rate',
      'builtin-seed-001-ab-8kb-image',
      'builtin-seed-002-ab-repeated',
      'builtin-seed-003-jmeter-threads',
      'builtin-seed-004-3kb-concurrency',
    ]) {
      expect(text.stdout).toMatch(new RegExp(`^${id} +comparison +built-in +\\S`, 'm'));
    }
    expect(text.stdout).toMatch(
      /^builtin-capacity-p99-10ms +capacity +built-in +Which server holds the most/m,
    );
    expect(text.stdout).toContain('targets: Apache (prefork), Apache (worker), lighttpd');
    const json = await runCli(['presets', 'list', '--json', '--data-dir', dataDir]);
    const list = JSON.parse(json.stdout) as { id: string; source: string }[];
    expect(list.map((p) => p.source)).toEqual(Array(6).fill('built-in'));
    const bad = await runCli(['run', '--preset', 'no-such-preset', '--data-dir', dataDir]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--preset: no preset file or preset named "no-such-preset"');
  });

  it('presets show clears secret header values unless --keep-secrets', async () => {
    const file = join(dir, 'secret-preset.json');
    writeFileSync(
      file,
      JSON.stringify({
        name: 'with a token',
        targets: [
          { url: 'http://127.0.0.1:1/', headers: [{ name: 'Authorization', value: 'Bearer s3cret' }] },
        ],
      }),
    );
    const headersOf = (stdout: string) =>
      (JSON.parse(stdout) as { scenario: { targets: { headers: unknown }[] } }).scenario.targets[0]!.headers;
    const shown = await runCli(['presets', 'show', file]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).not.toContain('s3cret');
    expect(headersOf(shown.stdout)).toEqual([{ name: 'Authorization', value: '' }]);
    const kept = await runCli(['presets', 'show', file, '--keep-secrets']);
    expect(headersOf(kept.stdout)).toEqual([{ name: 'Authorization', value: 'Bearer s3cret' }]);
  });
});

describe('trebuchet serve', () => {
  it('prints a URL with the token, serves the UI there, and stops on SIGTERM', async () => {
    // npm test builds the renderer before the tests run; serve needs that build.
    const dataDir = join(dir, 'serve-data');
    const cli = end(startCli(['serve', '--port', '0', '--data-dir', dataDir], { timeoutMs: 30_000 }));
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      cli.child.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /serving at (http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+)/.exec(out);
        if (m) resolve(m[1]!);
      });
      void cli.done.then((r) => reject(new Error(`serve exited ${r.code}: ${r.stderr}`)));
    });
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root"');
    const noToken = await fetch(url.replace(/\?token=.*/, ''));
    expect(noToken.status).toBe(401);
    cli.child.kill('SIGTERM');
    const r = await cli.done;
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('stopping');
    expect(r.stdout).toContain(`Presets and run history: ${dataDir}`);
    expect(existsSync(join(dataDir, 'history'))).toBe(true);
  });

  it('exits 2 on a bad port and on an unknown command', async () => {
    const port = await runCli(['serve', '--port', '70000']);
    expect(port.code).toBe(2);
    expect(port.stderr).toContain('--port: 70000 is not a TCP port');
    const unknown = await runCli(['attack']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown command "attack"');
  });
});

describe('-t in comparisons and capacity searches, against nginx', () => {
  it('runs every cell of a comparison in 2 workers: the JSON, the Matrix CSV and the Runs CSV say 2', async () => {
    const nginx = end(await startNginx({ workers: 1 }));
    const json = join(dir, 'workers-compare.json');
    const csv = join(dir, 'workers-compare.csv');
    const before = await nginxStatus(nginx);
    const r = await runCli([
      ...['run', '--preset', 'builtin-seed-002-ab-repeated', `${nginx.httpUrl}test.html`, '-t', '2'],
      ...['-n', '200', '--repetitions', '1', '--pause', '0', '--json', json, '--csv', csv],
      ...['--data-dir', join(dir, 'workers-data')],
    ]);
    const after = await nginxStatus(nginx);
    expect(r.code, r.stderr).toBe(0);
    const saved = JSON.parse(readFileSync(json, 'utf8')) as { outcomes: unknown[] };
    const outcomes = saved.outcomes.map((o) => cellOutcomeSchema.parse(o));
    expect(outcomes).toHaveLength(1);
    const result = outcomes[0]!.result;
    expect(result.options.workers).toBe(2);
    expect(result.generator.workers).toHaveLength(2);
    expect([result.requests.total, result.statusCodes]).toEqual([200, { '200': 200 }]);
    // nginx's count: the load, the pre-flight checks (the comparison's and the run's) and our reads.
    expect(after.requests - before.requests).toBeGreaterThanOrEqual(201);
    expect(after.requests - before.requests).toBeLessThanOrEqual(204);
    const column = (file: string, name: string) =>
      parse<Record<string, string>>(readFileSync(file, 'utf8'), { columns: true }).map((row) => row[name]);
    expect(column(csv.replace(/\.csv$/, '.matrix.csv'), 'generator workers')).toEqual(['2']);
    expect(column(csv.replace(/\.csv$/, '.summary.csv'), 'generator workers')).toEqual(['2']);
  });

  it('runs every step of a capacity search in 2 workers', async () => {
    const nginx = end(await startNginx({ workers: 1 }));
    const before = await nginxStatus(nginx);
    const r = await runCli([
      // A goal no stall of a busy machine breaks: the steps' workers are the point, not the answer.
      ...['capacity', `nginx=${nginx.httpUrl}test.html`, '-t', '2', '--p99', '1000'],
      ...['--start-rate', '100', '--max-rate', '200', '--step', '0.2', '--warmup', '0', '--format', 'json'],
      ...['--data-dir', join(dir, 'workers-data')],
    ]);
    const after = await nginxStatus(nginx);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { steps: { rate: number; result: unknown }[] };
    const steps = out.steps.map((s) => ({ rate: s.rate, result: runResultSchema.parse(s.result) }));
    expect(steps.map((s) => s.rate)).toEqual([100, 200]);
    for (const { rate, result } of steps) {
      expect(result.options.workers).toBe(2);
      expect(result.generator.workers).toHaveLength(2);
      // A 0.2 s step lengthened toward the 1,000 requests a p99 needs, at most 5 times: 1 s at
      // the step's rate, the two workers' interleaved schedules adding up to it, each request
      // sent (however late) or dropped.
      expect(result.load).toMatchObject({ model: 'open', rate, durationSeconds: 1 });
      expect(result.requests.total + result.requests.dropped!).toBe(rate);
      expect(result.requests.errors).toBe(0);
    }
    const sent = steps.reduce((a, s) => a + s.result.requests.total, 0);
    // Plus a pre-flight request per step and our status reads.
    expect(after.requests - before.requests).toBeGreaterThanOrEqual(sent + 1);
    expect(after.requests - before.requests).toBeLessThanOrEqual(sent + 4);
  });
});
