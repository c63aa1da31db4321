import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http2 from 'node:http2';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runResultSchema } from '../../shared/model/result.ts';
import { makeTestCerts, type TestCerts } from '../helpers/certs.ts';
import { endAfterAll } from '../helpers/cleanup.ts';
import { abField, runCli } from '../helpers/cli.ts';
import { oneTarget, runTarget } from '../helpers/engine.ts';
import { startNginx, type NginxServer } from '../helpers/nginx.ts';

/*
 * --connect-to, --resolve and --unix-socket: the sockets go to the given address or socket,
 * while Host, SNI and the certificate check keep the URL's name.
 */

const endAll = endAfterAll();
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'trebuchet-routes-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** An https server for example.test that records each request's Host and SNI name. */
async function exampleTestServer(certs: TestCerts) {
  const seen = { hosts: new Map<string, number>(), snis: new Map<string, number>(), requests: 0 };
  const add = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);
  const server = https.createServer(
    { key: certs.exampleTest.key, cert: certs.exampleTest.cert },
    (req, res) => {
      seen.requests++;
      add(seen.hosts, req.headers.host ?? '');
      add(seen.snis, String((req.socket as TLSSocket).servername));
      res.end('hello');
    },
  );
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  endAll({ close: () => new Promise<void>((r) => server.close(() => r()).closeAllConnections()) });
  return { port, seen };
}

describe('--connect-to and --resolve: the URL names the server, the socket goes to loopback', () => {
  let certs: TestCerts;
  beforeAll(() => {
    certs = endAll(makeTestCerts());
  });

  it('native engine (CLI): the certificate for example.test verifies, the server sees Host and SNI example.test', async () => {
    const { port, seen } = await exampleTestServer(certs);
    const json = join(dir, 'connect-to.json');
    const r = await runCli([
      ...['run', '-n', '300', '-c', '3', '--cacert', certs.ca.certFile, '--json', json],
      ...['--connect-to', 'other.test:443:127.0.0.2:1', '--connect-to', `example.test:443:127.0.0.1:${port}`],
      'https://example.test/hello',
    ]);
    expect(r.stderr).not.toMatch(/error/i);
    expect(r.code).toBe(0);
    expect(abField(r.stdout, 'Complete requests')).toBe('300');
    expect(abField(r.stdout, 'Server Hostname')).toBe('example.test');
    expect(abField(r.stdout, 'Server Port')).toBe('443');
    expect(abField(r.stdout, 'Connected To')).toBe(`127.0.0.1:${port}`);
    // The pre-flight's request and the load's 300.
    expect(seen.requests).toBe(301);
    expect([...seen.hosts]).toEqual([['example.test', 301]]);
    expect([...seen.snis]).toEqual([['example.test', 301]]);
    const result = runResultSchema.parse(JSON.parse(readFileSync(json, 'utf8')));
    expect(result.tls).toMatchObject({ verified: true, authorizationError: null });
    expect(result.server).toMatchObject({
      hostname: 'example.test',
      port: 443,
      connectedTo: `127.0.0.1:${port}`,
    });
    expect(result.target.connectTo).toEqual([
      'other.test:443:127.0.0.2:1',
      `example.test:443:127.0.0.1:${port}`,
    ]);
  });

  it('autocannon with --resolve: the same names, the same counts', async () => {
    const { port, seen } = await exampleTestServer(certs);
    const r = await runCli([
      ...['run', '-n', '200', '-c', '2', '--engine', 'autocannon', '--cacert', certs.ca.certFile],
      ...['--resolve', `example.test:${port}:127.0.0.1`],
      `https://example.test:${port}/`,
    ]);
    expect(r.code).toBe(0);
    expect(abField(r.stdout, 'Complete requests')).toBe('200');
    expect(abField(r.stdout, 'Connected To')).toBe(`127.0.0.1:${port}`);
    expect(seen.requests).toBe(201);
    expect([...seen.hosts]).toEqual([[`example.test:${port}`, 201]]);
    expect([...seen.snis]).toEqual([['example.test', 201]]);
  });

  it('without the rule the name is not resolved: a DNS error, no load', async () => {
    const { seen } = await exampleTestServer(certs);
    const { result } = await runTarget(
      oneTarget('https://example.test/', {
        load: { model: 'closed', connections: 1, limit: { kind: 'requests', count: 10 } },
        target: { connectTo: ['example.test:8443:127.0.0.1:1'] },
      }),
    );
    expect(result.status).toBe('failed');
    expect(result.error?.kind).toBe('dns');
    expect(seen.requests).toBe(0);
  });

  it('a bad rule is refused at the flag', async () => {
    const r = await runCli([
      'run',
      '-n',
      '1',
      '--connect-to',
      'example.test:443:127.0.0.1',
      'https://example.test/',
    ]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('--connect-to');
    expect(r.stderr).toContain('is not HOST:PORT:ADDRESS:PORT');
  });
});

describe('--unix-socket', () => {
  let nginx: NginxServer;
  let socket: string;
  let accessLog: string;
  beforeAll(async () => {
    socket = join(dir, 'nginx.sock');
    accessLog = join(dir, 'access.log');
    nginx = endAll(await startNginx({ unixSocket: socket, accessLog }));
  });

  it("HTTP/1.1 to nginx: the counts equal nginx's access log; the monitor finds nginx by its socket", async () => {
    const json = join(dir, 'unix.json');
    const r = await runCli([
      ...['run', '-n', '1000', '-c', '4', '--unix-socket', socket, '--json', json],
      'http://app.local/test.html',
    ]);
    expect(r.code).toBe(0);
    expect(abField(r.stdout, 'Complete requests')).toBe('1000');
    expect(abField(r.stdout, 'Server Hostname')).toBe('app.local');
    expect(abField(r.stdout, 'Connected To')).toBe(`unix:${socket}`);
    const lines = readFileSync(accessLog, 'utf8').trim().split('\n');
    // Every request the log holds came over the socket with the URL's Host: the load's and the pre-flight's.
    expect(lines.length).toBe(1001);
    expect(new Set(lines)).toEqual(new Set(['app.local /test.html 200']));
    const result = runResultSchema.parse(JSON.parse(readFileSync(json, 'utf8')));
    expect(result.requests.responses).toBe(1000);
    expect(result.server?.connectedTo).toBe(`unix:${socket}`);
    expect(result.serverResources?.source).toMatchObject({
      method: 'process',
      found: 'unix-socket',
      socketPath: socket,
      rootPid: nginx.pid,
    });
  });

  it('autocannon over the same socket', async () => {
    const before = readFileSync(accessLog, 'utf8').trim().split('\n').length;
    const { result } = await runTarget(
      oneTarget('http://app.local/test.html', {
        load: { model: 'closed', connections: 2, limit: { kind: 'requests', count: 500 } },
        options: { engine: 'autocannon' },
        target: { unixSocket: socket, monitor: { kind: 'off' } },
      }),
    );
    expect(result.status).toBe('completed');
    expect(result.requests.responses).toBe(500);
    const after = readFileSync(accessLog, 'utf8').trim().split('\n');
    expect(after.length - before).toBe(501);
  });

  it('h2c to a Node http2 server: every stream carries the URL as :authority and :path', async () => {
    const path = join(dir, 'h2c.sock');
    const seen = new Map<string, number>();
    const server = http2.createServer((req, res) => {
      const key = `${req.headers[':authority']} ${req.headers[':path']}`;
      seen.set(key, (seen.get(key) ?? 0) + 1);
      res.end('ok');
    });
    await new Promise<void>((r) => server.listen(path, r));
    endAll({ close: () => new Promise<void>((r) => server.close(() => r())) });
    const { result } = await runTarget(
      oneTarget('http://h2.local/x?y=1', {
        load: { model: 'closed', connections: 2, pipelining: 4, limit: { kind: 'requests', count: 800 } },
        options: { protocol: 'h2' },
        target: { unixSocket: path, monitor: { kind: 'off' } },
      }),
    );
    expect(result.status).toBe('completed');
    expect(result.requests.responses).toBe(800);
    expect(result.statusCodes).toEqual({ '200': 800 });
    expect(result.server).toMatchObject({ httpVersion: '2', connectedTo: `unix:${path}` });
    expect([...seen]).toEqual([['h2.local /x?y=1', 801]]);
  });

  it("https over a unix socket: the certificate for example.test verifies, Host and SNI stay the URL's", async () => {
    const certs = endAll(makeTestCerts());
    const path = join(dir, 'tls.sock');
    const seen = new Map<string, number>();
    const server = https.createServer(
      { key: certs.exampleTest.key, cert: certs.exampleTest.cert },
      (req, res) => {
        const key = `${req.headers.host} ${String((req.socket as TLSSocket).servername)}`;
        seen.set(key, (seen.get(key) ?? 0) + 1);
        res.end('hello');
      },
    );
    await new Promise<void>((r) => server.listen(path, r));
    endAll({ close: () => new Promise<void>((r) => server.close(() => r()).closeAllConnections()) });
    const r = await runCli([
      ...['run', '-n', '200', '-c', '2', '--cacert', certs.ca.certFile, '--unix-socket', path],
      'https://example.test/hello',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(abField(r.stdout, 'Complete requests')).toBe('200');
    expect(abField(r.stdout, 'Connected To')).toBe(`unix:${path}`);
    // The load's 200 and the pre-flight's one, each named example.test in Host and in SNI.
    expect([...seen]).toEqual([['example.test example.test', 201]]);
  });

  it('a socket nobody listens on: the pre-flight says so, no load', async () => {
    const { result } = await runTarget(
      oneTarget('http://app.local/', {
        load: { model: 'closed', connections: 1, limit: { kind: 'requests', count: 10 } },
        target: { unixSocket: join(dir, 'nobody.sock'), monitor: { kind: 'off' } },
      }),
    );
    expect(result.status).toBe('failed');
    expect(result.error?.message).toContain(`(through unix:${join(dir, 'nobody.sock')})`);
  });
});
