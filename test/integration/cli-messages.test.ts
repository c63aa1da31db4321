import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeTestCerts } from '../helpers/certs.ts';
import { endAfterAll } from '../helpers/cleanup.ts';
import { runCli } from '../helpers/cli.ts';
import { handlers, startHttpServer, type TestServer } from '../helpers/servers.ts';

/*
 * The CLI's messages name the way out (issue 37): a mistyped flag or command gets the nearest
 * one, a pre-flight's refusal the flags that get past it (and no generator CPU of a run that
 * never sent), and the bench's --help its usage.
 */

const ROOT = resolve(import.meta.dirname, '../..');
const endAll = endAfterAll();
let server: TestServer;
let missing: TestServer;
let secure: TestServer;

beforeAll(async () => {
  server = endAll(await startHttpServer(handlers.ok('hello')));
  missing = endAll(
    await startHttpServer((_req, res) => {
      res.statusCode = 404;
      res.end('No such page');
    }),
  );
  const certs = endAll(makeTestCerts());
  secure = endAll(await startHttpServer(handlers.ok('secret'), { tls: certs.selfSigned }));
});

describe('messages that name the way out', () => {
  it('trebuchet run --conections 5 URL suggests --connections and sends nothing', async () => {
    const r = await runCli(['run', '--conections', '5', server.url]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'trebuchet run: --conections: unknown flag; did you mean --connections?\nRun "trebuchet run --help" for the flags.\n',
    );
    expect(server.requests).toBe(0);
    const capacity = await runCli(['capacity', '--p99', '10', '--max-rat', '100', server.url]);
    expect(capacity.code).toBe(2);
    expect(capacity.stderr).toContain('--max-rat: unknown flag; did you mean --max-rate?');
  });

  it('the unknown command runn suggests run', async () => {
    const r = await runCli(['runn', server.url]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'trebuchet: unknown command "runn"; did you mean "run"?\nRun "trebuchet help" for the commands.\n',
    );
  });

  it('a self-signed certificate refused names --insecure and --cacert, and prints no generator CPU', async () => {
    const r = await runCli(['run', '-n', '10', secure.url]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('trebuchet run:   fix: Turn off certificate verification (--insecure)\n');
    expect(r.stderr).toContain(
      "trebuchet run:   fix: Pick the CA file that signed the server's certificate (--cacert FILE)\n",
    );
    expect(r.stdout).toContain('  fix: Turn off certificate verification (--insecure)\n');
    expect(r.stdout).not.toContain('Generator CPU');
    expect(secure.requests).toBe(0);
    // The flag named works: the run goes through.
    const insecure = await runCli(['run', '-n', '10', '--insecure', '-q', secure.url]);
    expect(insecure.code, insecure.stderr).toBe(0);
    expect(insecure.stdout).toContain('Generator CPU: 1 worker');
  });

  it('a 404 refused names --allow-error-status', async () => {
    const r = await runCli(['run', '-n', '10', `${missing.url}page.html`]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'trebuchet run:   fix: Run anyway, to measure this answer on purpose (the verdict will say so) (--allow-error-status)\n',
    );
    expect(r.stdout).not.toContain('Generator CPU');
    // The pre-flight's one request, no load.
    expect(missing.requests).toBe(1);
  });

  it('npm run bench -- --help prints the usage, a mistyped flag its nearest, neither a stack', () => {
    const help = spawnSync('npm', ['run', '--silent', 'bench', '--', '--help'], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^Usage: npm run bench -- \[flags\]\n/);
    expect(help.stdout).toContain('--only SECTION,...');
    expect(help.stderr).toBe('');
    const typo = spawnSync('npm', ['run', '--silent', 'bench', '--', '--quik'], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(typo.status).toBe(2);
    expect(typo.stderr).toBe(
      'npm run bench: --quik: unknown flag; did you mean --quick?\nRun "npm run bench -- --help" for the flags.\n',
    );
  });
});
