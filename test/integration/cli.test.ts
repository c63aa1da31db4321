import { parse } from 'csv-parse/sync';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runResultSchema } from '../../shared/result.ts';
import { runCli, startCli } from '../helpers/cli.ts';
import { handlers, refusedPort, startHttpServer, type TestServer } from '../helpers/servers.ts';

let server: TestServer;
let dir: string;

beforeAll(async () => {
  server = await startHttpServer(handlers.ok('hello', { server: 'node-test/1' }));
  dir = mkdtempSync(join(tmpdir(), 'trebuchet-cli-'));
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

/** "Label:   value" of the ab block. */
function abField(stdout: string, label: string): string {
  const m = new RegExp(`^${label}:\\s+(.*)$`, 'm').exec(stdout);
  if (!m) throw new Error(`no "${label}" line in:\n${stdout}`);
  return m[1]!;
}

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
    const slow = await startHttpServer(handlers.delay(5));
    try {
      const cli = startCli(['run', '-d', '30', '-c', '4', '--interval', '200', slow.url], {
        timeoutMs: 40_000,
      });
      // Runs longer than 2 s print a line per sample on stderr (not a TTY here).
      await cli.waitForStderr(/req\/s .*total [\d,]+.*\n.*req\/s/);
      cli.child.kill('SIGINT');
      const r = await cli.done;
      expect(r.code).toBe(130);
      expect(r.stdout).toContain('Status: cancelled');
      const complete = Number(abField(r.stdout, 'Complete requests'));
      expect(complete).toBeGreaterThan(0);
      expect(complete).toBeLessThan(30 * 4 * 200);
    } finally {
      await slow.close();
    }
  });
});

describe('trebuchet serve', () => {
  it('prints a URL with the token, serves the UI there, and stops on SIGTERM', async () => {
    // npm test builds the renderer before the tests run; serve needs that build.
    const dataDir = join(dir, 'serve-data');
    const cli = startCli(['serve', '--port', '0', '--data-dir', dataDir], { timeoutMs: 30_000 });
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
