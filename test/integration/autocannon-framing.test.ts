import type net from 'node:net';
import { describe, expect, it } from 'vitest';
import { AutocannonLoadGenerator } from '../../electron/engine/autocannon/load-generator.ts';
import { nativeLoadGenerator } from '../../electron/engine/native/load-generator.ts';
import type { LoadGenerator } from '../../electron/engine/types.ts';
import { endAfterEach } from '../helpers/cleanup.ts';
import { autocannonTarget, runTarget } from '../helpers/engine.ts';
import { sized, startHttp1FaultServer, type RequestPlace } from '../helpers/http1-fault-server.ts';
import { runInProcess } from '../helpers/native.ts';

/*
 * Framing autocannon's own client got wrong (counted as 200 OK, as errors, lost, or crashed
 * on), each against a server that sends it on purpose. The autocannon load generator must count
 * exactly what the native engine counts; both run in process, without the pre-flight, so
 * the server sees the load only.
 */

const track = endAfterEach();

const GENERATORS: [string, LoadGenerator][] = [
  ['autocannon', new AutocannonLoadGenerator()],
  ['native', nativeLoadGenerator],
];

async function run(
  generator: LoadGenerator,
  answer: (socket: net.Socket, place: RequestPlace) => void,
  load: { connections: number; pipelining: number; count: number },
) {
  const server = track(await startHttp1FaultServer(answer));
  const { recorder } = await runInProcess(generator, {
    name: 'framing',
    targets: [{ url: server.url }],
    load: {
      model: 'closed',
      connections: load.connections,
      pipelining: load.pipelining,
      limit: { kind: 'requests', count: load.count },
    },
    options: { timeoutMs: 5000 },
  });
  const t = recorder.totals;
  return {
    total: t.total,
    ok: t.ok,
    inBody: t.inBody,
    statusCodes: recorder.statusCodes(),
    errors: Object.fromEntries([...t.errorSet].map(([kind, e]) => [kind, e.count])),
    messages: [...t.errorSet.values()].map((e) => e.message),
    server,
  };
}

describe.each(GENERATORS)('%s engine: HTTP/1.x framing from a hostile server', (_name, generator) => {
  it('a malformed chunk size is a protocol error, never a 200', async () => {
    // Every fifth reply: a chunk size that is not hex ("zz"), negative, or hex followed by junk.
    const bad = ['zz', '-5', '5zz', ''];
    const r = await run(
      generator,
      (socket, { total }) => {
        const size = total % 5 === 0 ? bad[(total / 5) % bad.length]! : '5';
        socket.write(`HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n${size}\r\nhello\r\n0\r\n\r\n`);
      },
      { connections: 1, pipelining: 1, count: 100 },
    );
    expect(r.total).toBe(100);
    expect(r.ok).toBe(80);
    expect(r.statusCodes).toEqual({ 200: 80 });
    expect(r.inBody).toBe(80 * 5);
    expect(r.errors).toEqual({ protocol: 20 });
    expect(r.messages[0]).toMatch(/malformed chunk size/);
    expect(r.server.heads).toBe(100);
  });

  it('an HTTP/1.0 body delimited by the close is a response', async () => {
    // The first request on each connection is answered without a length, then the server
    // closes: what was pipelined behind it was never processed and goes out again.
    const r = await run(
      generator,
      (socket, { onConnection }) => {
        if (onConnection === 1) socket.end('HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\nhello');
      },
      { connections: 2, pipelining: 2, count: 100 },
    );
    expect(r.total).toBe(100);
    expect(r.ok).toBe(100);
    expect(r.errors).toEqual({});
    expect(r.inBody).toBe(100 * 5);
    expect(r.server.heads).toBe(100);
  });

  it('a server that closes every 3 responses (no Connection: close) loses no request', async () => {
    const r = await run(
      generator,
      (socket, { onConnection }) => {
        socket.write(sized('hello'));
        if (onConnection === 3) socket.end();
      },
      { connections: 2, pipelining: 1, count: 3000 },
    );
    expect(r.total).toBe(3000);
    expect(r.ok).toBe(3000);
    expect(r.errors).toEqual({});
    expect(r.server.heads).toBe(3000);
    expect(r.server.connections).toBeGreaterThanOrEqual(1000);
  });

  it('100 Continue and 103 Early Hints before the 200 are read past, not counted', async () => {
    const interim =
      'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload\r\n\r\n';
    const r = await run(generator, (socket) => socket.write(interim + sized('hello')), {
      connections: 2,
      pipelining: 4,
      count: 300,
    });
    expect(r.total).toBe(300);
    expect(r.ok).toBe(300);
    expect(r.statusCodes).toEqual({ 200: 300 });
    expect(r.errors).toEqual({});
    expect(r.server.heads).toBe(300);
  });
});

describe('autocannon engine through the worker (with its pre-flight)', () => {
  it('measures an HTTP/1.0 server and one that sends 103 Early Hints', async () => {
    const old = track(await startHttp1FaultServer((socket) => socket.end('HTTP/1.0 200 OK\r\n\r\nhello')));
    const a = await runTarget(
      autocannonTarget(old.url, {
        load: { model: 'closed', connections: 2, limit: { kind: 'requests', count: 50 } },
      }),
    );
    expect(a.result.status).toBe('completed');
    expect(a.result.requests).toMatchObject({ total: 50, ok: 50, errors: 0 });
    expect(a.result.server?.httpVersion).toBe('1.0');

    const hints = track(
      await startHttp1FaultServer((socket) =>
        socket.write('HTTP/1.1 103 Early Hints\r\nLink: </a.css>\r\n\r\n' + sized('hello')),
      ),
    );
    const b = await runTarget(
      autocannonTarget(hints.url, {
        load: { model: 'closed', connections: 2, pipelining: 2, limit: { kind: 'requests', count: 50 } },
      }),
    );
    expect(b.result.status).toBe('completed');
    expect(b.result.requests).toMatchObject({ total: 50, ok: 50, errors: 0 });
    expect(b.result.statusCodes).toEqual({ 200: 50 });
  });

  it('counts a negative Content-Length as a protocol error (the run failed as "engine sent a malformed message")', async () => {
    // The pre-flight's request (the first) is answered well, then every fifth one is not.
    const server = track(
      await startHttp1FaultServer((socket, { total }) =>
        socket.write(total % 5 === 0 ? 'HTTP/1.1 200 OK\r\nContent-Length: -5\r\n\r\nhello' : sized('hello')),
      ),
    );
    const { result } = await runTarget(
      autocannonTarget(server.url, {
        load: { model: 'closed', connections: 1, limit: { kind: 'requests', count: 50 } },
      }),
    );
    expect(result.status).toBe('completed');
    expect(result.error).toBeNull();
    expect(result.requests).toMatchObject({ total: 50, ok: 40, errors: 10 });
    expect(result.bytes.inBody).toBe(40 * 5);
    expect(result.errors).toEqual([
      {
        kind: 'protocol',
        count: 10,
        message: 'invalid HTTP response: malformed Content-Length "-5" (RFC 9110 section 8.6)',
      },
    ]);
    expect(server.heads).toBe(51);
  });
});
