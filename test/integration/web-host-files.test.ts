import http from 'node:http';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebHost, type WebHost } from '../../electron/host/server.ts';
import type { WebSocketApi } from '../../renderer/api/web-socket-client.ts';
import type { JobEnvelope } from '../../shared/contract/jobs.ts';
import type { RunResult } from '../../shared/model/result.ts';
import type { ScenarioInput } from '../../shared/model/scenario.ts';
import { makeTestCerts, type TestCerts } from '../helpers/certs.ts';
import { startHttpServer, type TestServer } from '../helpers/servers.ts';
import { runCli } from '../helpers/cli.ts';
import { connectToHost } from '../helpers/web-host-client.ts';

/*
 * The web host's file rule: a token holder cannot make the host read a file of its machine
 * (a body or CA file at /etc/shadow, sent to a target), nor learn whether a path exists. Files
 * come from the page (picked, their content in the scenario) or from the folder the host was
 * started with (--files-dir), paths taken inside it and links out of it refused.
 */

let dir: string;
let files: string;
let certs: TestCerts;
let recorder: TestServer;
let secure: TestServer;
/** The bodies the recording servers received, in order. */
const bodies: Buffer[] = [];
const hosts: WebHost[] = [];
const conns: WebSocketApi[] = [];

const recording: http.RequestListener = (req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    bodies.push(Buffer.concat(chunks));
    res.writeHead(200, { 'content-length': 2 });
    res.end('ok');
  });
};

async function hostWith(filesDir?: string): Promise<WebSocketApi> {
  const host = await startWebHost({
    staticDir: dir,
    appVersion: '0.0.0',
    dataDir: path.join(dir, `data-${hosts.length}`),
    ...(filesDir === undefined ? {} : { filesDir }),
  });
  hosts.push(host);
  const conn = await connectToHost(host.port, host.token);
  conns.push(conn);
  return conn;
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'trebuchet-host-files-'));
  await writeFile(path.join(dir, 'index.html'), '<!doctype html><title>t</title>');
  files = path.join(dir, 'files');
  await mkdir(path.join(files, 'sub'), { recursive: true });
  await writeFile(path.join(files, 'sub', 'payload.bin'), Buffer.from([0, 1, 2, 250, 251, 252]));
  await symlink('/etc/hostname', path.join(files, 'out-link'));
  await symlink('/nonexistent/nowhere', path.join(files, 'dangling-link'));
  certs = makeTestCerts();
  recorder = await startHttpServer(recording);
  secure = await startHttpServer(recording, { tls: { key: certs.valid.key, cert: certs.valid.cert } });
});

afterAll(async () => {
  for (const c of conns) c.close();
  for (const h of hosts) await h.close();
  await recorder.close();
  await secure.close();
  certs.remove();
  await rm(dir, { recursive: true, force: true });
});

const withBody = (body: ScenarioInput['targets'][number]['body'], url = recorder.url): ScenarioInput => ({
  targets: [{ url, method: 'POST', body }],
  load: { model: 'closed', connections: 1, limit: { kind: 'requests', count: 3 } },
});
const withCa = (tls: {
  caFile?: string | null;
  caUpload?: { name: string; pem: string };
}): ScenarioInput => ({
  targets: [{ url: secure.url }],
  load: { model: 'closed', connections: 1, limit: { kind: 'requests', count: 3 } },
  options: { tls: { verify: true, ...tls } },
});

/** Starts a run and waits for its results. */
async function run(conn: WebSocketApi, scenario: ScenarioInput): Promise<RunResult[]> {
  const { jobId } = await conn.api.jobs.start({ kind: 'run', plan: scenario });
  return new Promise((resolve) => {
    const results: RunResult[] = [];
    const off = conn.api.onJobEvent(jobId, (envelope: JobEnvelope) => {
      if (envelope.kind !== 'run') return;
      const e = envelope.event;
      if (e.type === 'result') results.push(e.result);
      if (e.type !== 'done') return;
      off();
      resolve(results);
    });
  });
}

const refusal = (conn: WebSocketApi, scenario: ScenarioInput): Promise<string> =>
  conn.api.jobs.start({ kind: 'run', plan: scenario }).then(
    () => 'started',
    (e: unknown) => (e as Error).message,
  );

const NO_FOLDER =
  'not allowed: this web host reads no file of its machine (pick the file to send it from the browser, or start trebuchet serve with --files-dir)';
const OUTSIDE = 'not allowed: outside the folder this web host reads files from (--files-dir)';

describe('a web host started without --files-dir', () => {
  it('reads no path of its machine, and says the same of one that exists and one that does not', async () => {
    const conn = await hostWith();
    const before = recorder.requests + secure.requests;
    for (const file of ['/etc/shadow', '/etc/hostname', '/nonexistent/x', '/root', 'relative.bin']) {
      expect(await refusal(conn, withBody({ kind: 'file', path: file }))).toBe(
        `jobs.start input is invalid: plan.targets.0.body.path: ${NO_FOLDER}`,
      );
      expect(await refusal(conn, withCa({ caFile: file }))).toBe(
        `jobs.start input is invalid: plan.options.tls.caFile: ${NO_FOLDER}`,
      );
    }
    await expect(
      conn.api.jobs.start({
        kind: 'comparison',
        plan: {
          targets: [
            { urls: { http: recorder.url }, method: 'POST', body: { kind: 'file', path: '/etc/shadow' } },
          ],
          load: { model: 'closed' },
          levels: [1],
        },
      }),
    ).rejects.toThrow(`jobs.start input is invalid: plan.targets.0.body.path: ${NO_FOLDER}`);
    await expect(
      conn.api.jobs.start({
        kind: 'capacity',
        plan: {
          targets: [{ url: secure.url }],
          search: { goal: { p99Ms: 10 } },
          options: { tls: { caFile: '/etc/shadow' } },
        },
      }),
    ).rejects.toThrow(`jobs.start input is invalid: plan.options.tls.caFile: ${NO_FOLDER}`);
    expect(recorder.requests + secure.requests).toBe(before);
    expect((await conn.api.app.info()).filesDir).toBeNull();
  });

  it('sends a body and trusts a CA file picked in the page, whose content came with the scenario', async () => {
    const conn = await hostWith();
    const bytes = Buffer.from([0, 1, 2, 3, 254, 255]);
    const sent = bodies.length;
    const [r] = await run(
      conn,
      withBody({ kind: 'upload', name: 'blob.bin', data: bytes.toString('base64') }),
    );
    expect(r!.requests.ok).toBe(3);
    // The pre-flight's request, then the run's three: each carried exactly the picked bytes.
    expect(bodies.slice(sent)).toHaveLength(4);
    for (const b of bodies.slice(sent)) expect(b.equals(bytes)).toBe(true);

    const [verified] = await run(conn, withCa({ caUpload: { name: 'ca.pem', pem: certs.ca.cert } }));
    expect(verified!.error).toBeNull();
    expect(verified!.requests.ok).toBe(3);
    expect(verified!.tls?.verified).toBe(true);
    expect(await refusal(conn, withCa({ caUpload: { name: 'notes.txt', pem: 'root:x:0:0' } }))).toBe(
      'jobs.start input is invalid: plan.options.tls.caUpload: notes.txt is not a PEM certificate (no "-----BEGIN CERTIFICATE-----" block)',
    );
  });
});

describe('a web host started with --files-dir', () => {
  it('reads files inside its folder only: relative, absolute, and not through a link out of it', async () => {
    const conn = await hostWith(files);
    expect((await conn.api.app.info()).filesDir).toBe(files);
    const payload = await readFile(path.join(files, 'sub', 'payload.bin'));
    for (const file of ['sub/payload.bin', path.join(files, 'sub', 'payload.bin')]) {
      const sent = bodies.length;
      const [r] = await run(conn, withBody({ kind: 'file', path: file }));
      expect(r!.requests.ok).toBe(3);
      for (const b of bodies.slice(sent)) expect(b.equals(payload)).toBe(true);
    }
    const before = recorder.requests;
    for (const file of [
      '/etc/shadow',
      '../../../../etc/passwd',
      'sub/../../index.html',
      'out-link',
      'dangling-link',
    ]) {
      expect(await refusal(conn, withBody({ kind: 'file', path: file }))).toBe(
        `jobs.start input is invalid: plan.targets.0.body.path: ${OUTSIDE}`,
      );
    }
    // Inside the folder, what is wrong is said.
    expect(await refusal(conn, withBody({ kind: 'file', path: 'sub/missing.bin' }))).toBe(
      `jobs.start input is invalid: plan.targets.0.body.path: ${path.join(files, 'sub', 'missing.bin')} does not exist`,
    );
    expect(await refusal(conn, withBody({ kind: 'file', path: 'sub' }))).toBe(
      `jobs.start input is invalid: plan.targets.0.body.path: ${path.join(files, 'sub')} is a folder, not a file`,
    );
    expect(recorder.requests).toBe(before);
  });
});

describe('trebuchet serve --files-dir', () => {
  it('refuses a folder that is not one, before serving', async () => {
    const file = path.join(files, 'sub', 'payload.bin');
    const missing = await runCli(['serve', '--files-dir', path.join(dir, 'nope')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe(`trebuchet serve: --files-dir: ${path.join(dir, 'nope')} does not exist\n`);
    const notFolder = await runCli(['serve', '--files-dir', file]);
    expect(notFolder.code).toBe(2);
    expect(notFolder.stderr).toBe(`trebuchet serve: --files-dir: ${file} is not a folder\n`);
  });
});

describe('unix sockets through the web host', () => {
  const overSocket = (unixSocket: string): ScenarioInput => ({
    targets: [{ url: 'http://app.local/', unixSocket, monitor: { kind: 'off' } }],
    load: { model: 'closed', connections: 1, limit: { kind: 'requests', count: 3 } },
  });

  it('connects to none without --files-dir, and only to those inside the folder with it', async () => {
    const socketPath = path.join(files, 'app.sock');
    const seen: string[] = [];
    const server = http.createServer((req, res) => {
      seen.push(`${req.headers.host} ${req.url}`);
      res.end('ok');
    });
    await new Promise<void>((r) => server.listen(socketPath, r));
    try {
      const bare = await hostWith();
      for (const socket of ['/var/run/docker.sock', socketPath]) {
        expect(await refusal(bare, overSocket(socket))).toBe(
          'jobs.start input is invalid: plan.targets.0.unixSocket: not allowed: this web host connects to no unix socket of its machine (start trebuchet serve with --files-dir, and put the socket inside that folder)',
        );
      }
      const folder = await hostWith(files);
      expect(await refusal(folder, overSocket('/var/run/docker.sock'))).toBe(
        'jobs.start input is invalid: plan.targets.0.unixSocket: not allowed: outside the folder this web host uses files from (--files-dir)',
      );
      expect(seen).toEqual([]);
      const [r] = await run(folder, overSocket(socketPath));
      expect(r!.requests.ok).toBe(3);
      expect(r!.server?.connectedTo).toBe(`unix:${socketPath}`);
      expect(seen).toEqual(Array(4).fill('app.local /'));
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});
