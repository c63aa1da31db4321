import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebHost, type WebHost } from '../../electron/host/server.ts';
import type { WebSocketApi } from '../../renderer/api/web-socket-client.ts';
import type { JobEnvelope } from '../../shared/contract/jobs.ts';
import { LIMITS } from '../../shared/model/defaults.ts';
import type { ScenarioInput } from '../../shared/model/scenario.ts';
import { handlers, startHttpServer, type TestServer } from '../helpers/servers.ts';
import { connectToHost } from '../helpers/web-host-client.ts';

/*
 * What the real web host refuses before a run starts: more runs at once than the host
 * allows, and body files it must not read (a named pipe, a folder, a device outside its files
 * folder). Each refusal
 * is an answer with a message, and the host goes on answering everything else.
 */

let dir: string;
let slow: TestServer;
let host: WebHost;
let conn: WebSocketApi;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'trebuchet-limits-'));
  await writeFile(path.join(dir, 'index.html'), '<!doctype html><title>t</title>');
  slow = await startHttpServer(handlers.delay(20));
  // Its files folder is the test's: the body files below are inside it, so the host checks them.
  host = await startWebHost({
    staticDir: dir,
    appVersion: '0.0.0',
    dataDir: path.join(dir, 'data'),
    filesDir: dir,
  });
  conn = await connectToHost(host.port, host.token);
});

afterAll(async () => {
  conn.close();
  await host.close();
  await slow.close();
  await rm(dir, { recursive: true, force: true });
});

const longRun = (url: string): ScenarioInput => ({
  name: 'long',
  targets: [{ url }],
  load: { model: 'closed', connections: 1, limit: { kind: 'duration', seconds: 60 } },
});

describe('the web host', () => {
  it(`starts ${LIMITS.concurrentRuns.max} of 100 jobs.start sent at once and refuses the others, naming the limit`, async () => {
    const events: JobEnvelope[] = [];
    const replies = await Promise.allSettled(
      Array.from({ length: 100 }, () => conn.api.jobs.start({ kind: 'run', plan: longRun(slow.url) })),
    );
    const started = replies.flatMap((r) => (r.status === 'fulfilled' ? [r.value.jobId] : []));
    const refused = replies.flatMap((r) => (r.status === 'rejected' ? [(r.reason as Error).message] : []));
    expect(started).toHaveLength(4);
    const offs = started.map((jobId) => conn.api.onJobEvent(jobId, (e) => events.push(e)));
    expect(refused).toHaveLength(96);
    expect(new Set(refused)).toEqual(
      new Set([
        'this host already runs 4 runs and comparisons at once, the most it allows (each one loads the machine); stop one or wait for one to end',
      ]),
    );
    // A comparison counts too.
    await expect(
      conn.api.jobs.start({
        kind: 'comparison',
        plan: {
          targets: [{ urls: { http: slow.url } }],
          load: { model: 'closed', connections: 1, limit: { kind: 'duration', seconds: 60 } },
          levels: [1],
          repetitions: 1,
        },
      }),
    ).rejects.toThrow('already runs 4 runs and comparisons at once');
    expect((await conn.api.jobs.active()).jobs.map((r) => r.jobId).sort()).toEqual([...started].sort());

    // Stopped runs free their places: a new run starts again.
    for (const jobId of started) expect(await conn.api.jobs.stop({ jobId })).toEqual({ stopped: true });
    const dones = () => events.filter((e) => e.event.type === 'done').length;
    await expect.poll(dones, { timeout: 30_000 }).toBe(4);
    await expect.poll(async () => (await conn.api.jobs.active()).jobs.length).toBe(0);
    const again = await conn.api.jobs.start({ kind: 'run', plan: longRun(slow.url) });
    offs.push(conn.api.onJobEvent(again.jobId, (e) => events.push(e)));
    expect(await conn.api.jobs.stop({ jobId: again.jobId })).toEqual({ stopped: true });
    await expect.poll(dones, { timeout: 30_000 }).toBe(5);
    for (const off of offs) off();
  });

  it('refuses a body file that is a named pipe, a folder or outside its folder at once, and keeps answering', async () => {
    const fifo = path.join(dir, 'body.fifo');
    execFileSync('mkfifo', [fifo]);
    const folder = path.join(dir, 'body-folder');
    await mkdir(folder);
    const saved = (await conn.api.history.list()).runs.length;
    const withBody = (file: string): ScenarioInput => ({
      targets: [{ url: slow.url, method: 'POST', body: { kind: 'file', path: file } }],
    });
    await expect(conn.api.jobs.start({ kind: 'run', plan: withBody(fifo) })).rejects.toThrow(
      `jobs.start input is invalid: plan.targets.0.body.path: ${fifo} is a named pipe (FIFO), not a regular file`,
    );
    // Outside its folder: not read at all.
    await expect(conn.api.jobs.start({ kind: 'run', plan: withBody('/dev/zero') })).rejects.toThrow(
      'plan.targets.0.body.path: not allowed: outside the folder this web host reads files from (--files-dir)',
    );
    await expect(conn.api.jobs.start({ kind: 'run', plan: withBody(folder) })).rejects.toThrow(
      `plan.targets.0.body.path: ${folder} is a folder, not a file`,
    );
    await expect(
      conn.api.jobs.start({
        kind: 'comparison',
        plan: {
          targets: [{ urls: { http: slow.url }, method: 'POST', body: { kind: 'file', path: fifo } }],
          load: { model: 'closed' },
          levels: [1],
        },
      }),
    ).rejects.toThrow(`jobs.start input is invalid: plan.targets.0.body.path: ${fifo} is a named pipe`);
    // Nothing started, and the host answers as before.
    expect((await conn.api.jobs.active()).jobs).toEqual([]);
    expect((await conn.api.history.list()).runs).toHaveLength(saved);
  });
});
