import type net from 'node:net';
import { describe, expect, it } from 'vitest';
import { AutocannonLoadGenerator } from '../../electron/engine/autocannon/load-generator.ts';
import { nativeLoadGenerator } from '../../electron/engine/native/load-generator.ts';
import type { LoadGenerator } from '../../electron/engine/types.ts';
import { endAfterEach } from '../helpers/cleanup.ts';
import {
  FLAG,
  frame,
  FRAME,
  startH2FaultServer,
  STATUS_200,
  type FaultConnection,
} from '../helpers/h2-fault-server.ts';
import { sized, startHttp1FaultServer, type RequestPlace } from '../helpers/http1-fault-server.ts';
import { runInProcess } from '../helpers/native.ts';

/*
 * The counting rule, against servers that misbehave on purpose, for both engines: requests
 * are what went on the wire (the server's own count of what it received), responses what
 * answered them; a response to no request is counted apart, never as a failed request; a
 * malformed response is a named protocol error, never a figure. Each test holds the
 * client's counts against the server's. The load generators run in process, without the pre-flight,
 * so the server sees the load only.
 */

const track = endAfterEach();

const GENERATORS: [string, LoadGenerator][] = [
  ['native', nativeLoadGenerator],
  ['autocannon', new AutocannonLoadGenerator()],
];

const CONNECTIONS = 2;
const COUNT = 200;

async function run(generator: LoadGenerator, answer: (socket: net.Socket, place: RequestPlace) => number) {
  let sent = 0;
  const server = track(await startHttp1FaultServer((socket, place) => (sent += answer(socket, place))));
  const { recorder } = await runInProcess(generator, {
    name: 'counting rule',
    targets: [{ url: server.url }],
    load: { model: 'closed', connections: CONNECTIONS, limit: { kind: 'requests', count: COUNT } },
    options: { timeoutMs: 5000 },
  });
  const t = recorder.totals;
  return {
    total: t.total,
    responses: t.responses,
    ok: t.ok,
    non2xx: t.non2xx,
    unsolicited: t.unsolicited,
    inBody: t.inBody,
    inFlight: recorder.inFlight,
    statusCodes: recorder.statusCodes(),
    errors: Object.fromEntries([...t.errorSet].map(([kind, e]) => [kind, e.count])),
    messages: [...t.errorSet.values()].map((e) => e.message),
    /** Request heads the server received, and responses it sent. */
    heads: server.heads,
    sent,
  };
}

/** Every fifth response is `bad`, the others a plain 200 with "hello". */
const everyFifth =
  (bad: string) =>
  (socket: net.Socket, { total }: RequestPlace): number => {
    socket.write(total % 5 === 0 ? bad : sized('hello'));
    return 1;
  };

describe.each(GENERATORS)('%s engine: a response to no request is counted apart', (_name, generator) => {
  it('a server that answers every request twice: requests as the server received them, all OK', async () => {
    const r = await run(generator, (socket) => {
      socket.write(sized('hello') + sized('hello'));
      return 2;
    });
    expect(r.total).toBe(COUNT);
    expect(r.heads).toBe(COUNT);
    expect(r.ok).toBe(COUNT);
    expect(r.errors).toEqual({});
    // Each second answer is counted apart; a connection's last may come after the run ended.
    expect(r.unsolicited).toBeGreaterThanOrEqual(r.heads - CONNECTIONS);
    expect(r.unsolicited).toBeLessThanOrEqual(r.heads);
    expect(r.responses + r.unsolicited).toBeGreaterThanOrEqual(r.sent - CONNECTIONS);
    expect(r.responses + r.unsolicited).toBeLessThanOrEqual(r.sent);
  });

  it('a server that answers a request before it arrives: requests as the server received them', async () => {
    // On a connection's first request the server sends the answer to the next one too.
    const ahead = new WeakSet<net.Socket>();
    const r = await run(generator, (socket) => {
      if (ahead.delete(socket)) return 0;
      ahead.add(socket);
      socket.write(sized('hello') + sized('early'));
      return 2;
    });
    expect(r.total).toBe(COUNT);
    expect(r.heads).toBe(COUNT);
    expect(r.ok).toBe(COUNT);
    expect(r.inBody).toBe(COUNT * 5);
    expect(r.errors).toEqual({});
    expect(r.unsolicited).toBeGreaterThanOrEqual(r.heads - CONNECTIONS);
    expect(r.responses + r.unsolicited).toBeLessThanOrEqual(r.sent);
  });
});

describe.each(GENERATORS)('%s engine: malformed heads are named protocol errors', (_name, generator) => {
  it.each([
    [
      'a negative Content-Length',
      'HTTP/1.1 200 OK\r\nContent-Length: -5\r\n\r\nhello',
      /malformed Content-Length "-5"/,
    ],
    [
      'a non-numeric Content-Length',
      'HTTP/1.1 200 OK\r\nContent-Length: 5x\r\n\r\nhello',
      /malformed Content-Length "5x"/,
    ],
    ['status 1000', 'HTTP/1.1 1000 Odd\r\nContent-Length: 5\r\n\r\nhello', /malformed status code "1000"/],
    ['NUL in a header value', sized('hello', '200 OK', 'X-Bad: a\0b\r\n'), /NUL \(0x00\)/],
    [
      'headers over 1 MB',
      sized('hello', '200 OK', `X-Big: ${'b'.repeat(1024 * 1024)}\r\n`),
      /response head larger than 1048576 bytes/,
    ],
  ])('%s: a protocol error per such response, the others counted', async (_case, bad, message) => {
    const r = await run(generator, everyFifth(bad));
    expect(r.total).toBe(r.heads);
    expect(r.total).toBe(COUNT);
    expect(r.ok).toBe(COUNT * 0.8);
    expect(r.statusCodes).toEqual({ 200: COUNT * 0.8 });
    expect(r.inBody).toBe(COUNT * 0.8 * 5);
    expect(r.errors).toEqual({ protocol: COUNT * 0.2 });
    expect(r.messages[0]).toMatch(message);
    expect(r.unsolicited).toBe(0);
  });

  it('status 999 is a response under its own code, counted as a failure (RFC 9110 section 15)', async () => {
    const r = await run(generator, everyFifth(sized('hello', '999 Odd')));
    expect(r.total).toBe(r.heads);
    expect(r.responses).toBe(COUNT);
    expect(r.statusCodes).toEqual({ 200: COUNT * 0.8, 999: COUNT * 0.2 });
    expect(r.ok).toBe(COUNT * 0.8);
    expect(r.non2xx).toBe(COUNT * 0.2);
    expect(r.errors).toEqual({});
  });
});

describe('native engine, HTTP/2: frames on a stream the server already ended', () => {
  async function runH2(onRequest: (c: FaultConnection, id: number) => void) {
    const server = track(await startH2FaultServer({ onRequest }));
    const { recorder } = await runInProcess(nativeLoadGenerator, {
      name: 'h2 counting rule',
      targets: [{ url: server.url }],
      load: { model: 'closed', connections: 1, limit: { kind: 'requests', count: COUNT } },
      options: { protocol: 'h2', timeoutMs: 5000 },
    });
    const t = recorder.totals;
    return {
      t,
      server,
      inFlight: recorder.inFlight,
      errors: Object.fromEntries([...t.errorSet].map(([k, e]) => [k, e.count])),
    };
  }

  it('DATA on a stream already answered: counted apart, the request the read held back goes out anew', async () => {
    const { t, server, errors } = await runH2((c, id) =>
      c.send(
        Buffer.concat([
          frame(FRAME.HEADERS, FLAG.END_HEADERS, id, STATUS_200),
          frame(FRAME.DATA, FLAG.END_STREAM, id, Buffer.from('ok')),
          frame(FRAME.DATA, FLAG.END_STREAM, id, Buffer.from('again')),
        ]),
      ),
    );
    // Every stream the server received was answered, and is one request; no other.
    expect(t.total).toBe(COUNT);
    expect(server.streams).toBe(COUNT);
    expect(t.ok).toBe(COUNT);
    expect(errors).toEqual({});
    // One DATA frame too many per connection (the last one may come after the run ended).
    expect(t.unsolicited).toBeGreaterThanOrEqual(server.connections - 1);
    expect(t.unsolicited).toBeLessThanOrEqual(server.connections);
  });

  it('a stream id going backwards (an answer on stream 1 again): counted apart, no request lost or made up', async () => {
    // Each connection: stream 1 answered; stream 3 answered, then HEADERS on stream 1 again.
    const { t, server, errors } = await runH2((c, id) => {
      c.respond(id);
      if (id === 3) c.send(frame(FRAME.HEADERS, FLAG.END_HEADERS | FLAG.END_STREAM, 1, STATUS_200));
    });
    expect(t.total).toBe(COUNT);
    expect(server.streams).toBe(COUNT);
    expect(t.ok).toBe(COUNT);
    expect(errors).toEqual({});
    expect(server.connections).toBe(COUNT / 2);
    expect(t.unsolicited).toBeGreaterThanOrEqual(server.connections - 1);
    expect(t.unsolicited).toBeLessThanOrEqual(server.connections);
  });
});
