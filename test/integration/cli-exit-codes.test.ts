import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { endAfterAll, endAfterEach } from '../helpers/cleanup.ts';
import { runCli } from '../helpers/cli.ts';
import { fullDiskWrapper } from '../helpers/full-disk.ts';
import { sized, startHttp1FaultServer } from '../helpers/http1-fault-server.ts';
import { handlers, startHttpServer, type TestServer } from '../helpers/servers.ts';

/*
 * What `trebuchet run` exits with when the run did not do what a script relies on: no
 * response at all, a verdict that is not clean (--fail-unless-clean), a history save that
 * failed on a full disk.
 */

const endAll = endAfterAll();
const end = endAfterEach();
let server: TestServer;
let dir: string;

beforeAll(async () => {
  server = endAll(await startHttpServer(handlers.ok('hello')));
  dir = mkdtempSync(join(tmpdir(), 'trebuchet-cli-exit-'));
  endAll({ remove: () => rmSync(dir, { recursive: true, force: true }) });
});

describe('trebuchet run exit codes', () => {
  it('exits 1 when no request got any response (the server answers the pre-flight, then resets)', async () => {
    // The pre-flight's request is answered, so the load starts; every request after it is reset.
    const hostile = end(
      await startHttp1FaultServer((socket, place) => {
        if (place.total === 1) socket.end(sized('ok', '200 OK', 'Connection: close\r\n'));
        else socket.resetAndDestroy();
      }),
    );
    const r = await runCli(['run', '-d', '1', '-c', '2', '-q', '--format', 'json', hostile.url]);
    const result = JSON.parse(r.stdout) as { status: string; requests: { total: number; responses: number } };
    expect(result.status).toBe('completed');
    expect(result.requests.responses).toBe(0);
    expect(result.requests.total).toBeGreaterThan(10);
    expect(hostile.heads).toBeGreaterThan(10);
    expect(r.code).toBe(1);
  });

  it('--fail-unless-clean exits 1 when the verdict is not clean (every answer a 404), 0 when it is', async () => {
    const notFound = end(await startHttpServer(handlers.status(404)));
    // Measured on purpose: without --allow-error-status the pre-flight stops at the 404.
    const plain = await runCli(['run', '-n', '20', '-c', '2', '-q', '--allow-error-status', notFound.url]);
    expect(plain.stdout).toContain('Verdict: ALL NON-2XX');
    expect(plain.code).toBe(0);
    const gated = await runCli([
      'run',
      '-n',
      '20',
      '-c',
      '2',
      '-q',
      '--fail-unless-clean',
      '--allow-error-status',
      notFound.url,
    ]);
    expect(gated.stdout).toContain('Verdict: ALL NON-2XX');
    expect(gated.code).toBe(1);
    const clean = await runCli(['run', '-n', '20', '-c', '2', '-q', '--fail-unless-clean', server.url]);
    expect(clean.stdout).toContain('Verdict: clean');
    expect(clean.code).toBe(0);
  });

  it('run --save on a full disk says so and exits 1, the report printed', async () => {
    const data = join(dir, 'full');
    mkdirSync(data);
    // 12 KiB: the stores open (a small index), the run's record does not fit.
    const r = await runCli(['run', '-n', '200', '-c', '2', '-q', '--save', '--data-dir', data, server.url], {
      wrapper: fullDiskWrapper(data, 12),
    });
    expect(r.stdout).toMatch(/^Requests {6}\[total, rate, throughput\] {9}200, /m);
    const lines = r.stderr.split('\n').filter((l) => l !== '');
    // The record's write fails; when the journal's lines filled the disk before the history's
    // index was written, opening the history has said the disk is full first (the index then
    // stays in memory). Nothing else is said.
    expect(lines.at(-1)).toBe(
      'trebuchet run: could not save in the history: ENOSPC: no space left on device, write',
    );
    for (const l of lines.slice(0, -1)) expect(l).toMatch(/^trebuchet run: The disk holding \S+ is full: /);
    expect(lines.length).toBeLessThanOrEqual(2);
    expect(r.code).toBe(1);
    // The namespace's tmpfs is gone with the process: nothing was written to the real folder.
    expect(readdirSync(data)).toEqual([]);
  });
});
