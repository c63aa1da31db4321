import { beforeAll, describe, expect, it } from 'vitest';
import { runResultSchema } from '../../shared/model/result.ts';
import { endAfterAll } from '../helpers/cleanup.ts';
import { abField, runCli } from '../helpers/cli.ts';
import { startNginx, type NginxServer } from '../helpers/nginx.ts';

const endAll = endAfterAll();
let nginx: NginxServer;

beforeAll(async () => {
  nginx = endAll(await startNginx({ https: true }));
});

describe("trebuchet run against Debian's nginx", () => {
  it("serves seed 000's 5-byte test.html: every request a 200", async () => {
    const r = await runCli(['run', '-n', '2000', '-c', '20', `${nginx.httpUrl}test.html`]);
    expect(r.code).toBe(0);
    expect(abField(r.stdout, 'Server Software')).toMatch(/^nginx\/1\.\d+\.\d+$/);
    expect(abField(r.stdout, 'Document Path')).toBe('/test.html');
    expect(abField(r.stdout, 'Document Length')).toBe('5 bytes');
    expect(abField(r.stdout, 'Complete requests')).toBe('2000');
    expect(abField(r.stdout, 'Failed requests')).toBe('0');
    expect(abField(r.stdout, 'HTML transferred')).toBe('10000 bytes');
    expect(r.stdout).toMatch(/^Status Codes {2}\[code:count\] +200:2000$/m);
    expect(r.stdout).toMatch(/^Bytes In {6}\[total, mean\] +10000, 5\.00$/m);
    expect(r.stdout).toMatch(/^Error Set:\n\n/m);
  });

  it("--format http_load prints seed 004's layout: code 200 -- N equal to the fetches", async () => {
    const r = await runCli([
      ...['run', '-n', '1000', '-c', '10', '--no-keepalive', '--engine', 'native', '--format', 'http_load'],
      `${nginx.httpUrl}3kb.html`,
    ]);
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toMatch(/^1000 fetches, 10 max parallel, 3\.072e\+06 bytes, in \d+(\.\d+)? seconds$/);
    expect(lines[1]).toBe('3072 mean bytes/connection');
    expect(lines[2]).toMatch(/^\d+(\.\d+)? fetches\/sec, \d+(\.\d+)?(e\+\d+)? bytes\/sec$/);
    // A connection per fetch, as http_load makes them: every fetch has a connect time.
    expect(lines[3]).toMatch(/^msecs\/connect: [\d.e+-]+ mean, [\d.e+-]+ max, [\d.e+-]+ min$/);
    expect(lines[4]).toMatch(/^msecs\/first-response: [\d.e+-]+ mean, [\d.e+-]+ max, [\d.e+-]+ min$/);
    expect(lines.slice(5, 8)).toEqual(['HTTP response codes:', '  code 200 -- 1000', '']);
    // What http_load prints, then the verdict on it.
    expect(lines[8]).toMatch(/^Verdict: /);
  });

  it("stops at a missing page before any load, naming nginx's 404 page", async () => {
    const r = await runCli(['run', '-n', '100', '-c', '2', '-q', `${nginx.httpUrl}missing.html`]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `trebuchet run: ${nginx.httpUrl}missing.html: GET ${nginx.httpUrl}missing.html answered 404 Not Found: “404 Not Found” — check the URL, or run anyway to measure this answer on purpose\n` +
        'trebuchet run:   fix: Run anyway, to measure this answer on purpose (the verdict will say so) (--allow-error-status)\n',
    );
  });

  it('counts a missing page measured on purpose as 404 in the status codes and the error set', async () => {
    const r = await runCli([
      'run',
      '-n',
      '100',
      '-c',
      '2',
      '--format',
      'json',
      '--allow-error-status',
      `${nginx.httpUrl}missing.html`,
    ]);
    expect(r.code).toBe(0);
    const result = runResultSchema.parse(JSON.parse(r.stdout));
    expect(result.statusCodes).toEqual({ '404': 100 });
    expect(result.requests).toMatchObject({ total: 100, responses: 100, non2xx: 100, ok: 0, errors: 0 });
    expect(result.successRatio).toBe(0);

    const text = await runCli([
      'run',
      '-n',
      '100',
      '-c',
      '2',
      '--allow-error-status',
      `${nginx.httpUrl}missing.html`,
    ]);
    expect(text.stdout).toMatch(/^Status Codes {2}\[code:count\] +404:100$/m);
    expect(text.stdout).toMatch(/^Error Set:\n404 Not Found\n/m);
    expect(abField(text.stdout, 'Non-2xx responses')).toBe('100');
    expect(text.stdout).toMatch(/^Success {7}\[ratio\] +0\.00%$/m);
  });

  it('verifies https against the test CA and reports the TLS facts', async () => {
    const r = await runCli([
      'run',
      '-n',
      '500',
      '-c',
      '5',
      '--cacert',
      nginx.caFile!,
      `${nginx.httpsUrl!}8k.bin`,
    ]);
    expect(r.code).toBe(0);
    expect(abField(r.stdout, 'SSL/TLS Protocol')).toMatch(/^TLSv1\.[23],/);
    expect(abField(r.stdout, 'Document Length')).toBe('8192 bytes');
    expect(abField(r.stdout, 'HTML transferred')).toBe(`${500 * 8192} bytes`);
    expect(r.stdout).toMatch(/^Status Codes {2}\[code:count\] +200:500$/m);
  });

  it('refuses the test certificate without its CA (verification is on by default)', async () => {
    const r = await runCli(['run', '-n', '10', `${nginx.httpsUrl!}test.html`]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('Status: failed');
    expect(r.stderr).toMatch(/certificate/i);
  });
});
