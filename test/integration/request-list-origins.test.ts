import http from 'node:http';
import http2 from 'node:http2';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeTestCerts } from '../helpers/certs.ts';
import type { ScenarioInput } from '../../shared/model/scenario.ts';
import { endAfterAll } from '../helpers/cleanup.ts';
import { oneTarget, runTarget } from '../helpers/engine.ts';

/*
 * A list over two origins (two servers on two ports): every request goes to its own
 * origin's server on that origin's connections, the list's round-robin is exact over the
 * whole run, in the closed and the open model, over HTTP/1.1 and h2c.
 */

const endAll = endAfterAll();

/** A server that counts requests by Host and path, and the connections it accepted. */
interface CountingServer {
  port: number;
  /** "host path" → requests. */
  counts: Map<string, number>;
  connections: number;
  reset(): void;
}

async function countingServer(h2: boolean): Promise<CountingServer> {
  const s: CountingServer = {
    port: 0,
    counts: new Map(),
    connections: 0,
    reset() {
      s.counts.clear();
      s.connections = 0;
    },
  };
  const handler = (
    req: http.IncomingMessage | http2.Http2ServerRequest,
    res: http.ServerResponse | http2.Http2ServerResponse,
  ) => {
    const host = (req.headers[':authority'] ?? req.headers.host) as string;
    const key = `${host} ${req.url}`;
    s.counts.set(key, (s.counts.get(key) ?? 0) + 1);
    res.end('ok');
  };
  const server = h2 ? http2.createServer(handler) : http.createServer(handler);
  server.on('connection', () => s.connections++);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  endAll(server);
  s.port = (server.address() as AddressInfo).port;
  return s;
}

let h1: [CountingServer, CountingServer];
let h2: [CountingServer, CountingServer];
beforeAll(async () => {
  h1 = [await countingServer(false), await countingServer(false)];
  h2 = [await countingServer(true), await countingServer(true)];
});

/** A 4-entry list alternating the origins (a.test on the first server, b.test on the second), routed by --connect-to. */
function alternating(
  [a, b]: [CountingServer, CountingServer],
  rest: Omit<ScenarioInput, 'targets'>,
): ScenarioInput {
  const A = `http://a.test:${a.port}`;
  const B = `http://b.test:${b.port}`;
  return oneTarget(`${A}/1`, {
    ...rest,
    target: {
      monitor: { kind: 'off' },
      requests: [`${A}/1`, `${B}/1`, `${A}/2`, `${B}/2`].map((url) => ({ url })),
      connectTo: [`a.test:${a.port}:127.0.0.1:${a.port}`, `b.test:${b.port}:127.0.0.1:${b.port}`],
    },
  });
}

/** Each server's counts: exactly its 100 per entry from the load, and the pre-flight's one per URL. */
function expectShares([a, b]: [CountingServer, CountingServer]): void {
  expect(Object.fromEntries(a.counts)).toEqual({
    [`a.test:${a.port} /1`]: 101,
    [`a.test:${a.port} /2`]: 101,
  });
  expect(Object.fromEntries(b.counts)).toEqual({
    [`b.test:${b.port} /1`]: 101,
    [`b.test:${b.port} /2`]: 101,
  });
}

const CLOSED = { model: 'closed', connections: 3, limit: { kind: 'requests', count: 400 } } as const;
const OPEN = { model: 'open', rate: 400, durationSeconds: 1 } as const;

/**
 * Connections each server accepted beyond the pre-flight's one per URL, in the closed model:
 * one per slot and origin. On one worker every slot carries both origins (3 each). On 2
 * workers the run's sends interleave (worker 1 sends 0, 2, 4, ..., the list's a.test entries,
 * on its 2 connections; worker 2 the b.test ones on its 1): each slot opens only the origin
 * it carries.
 */
const CASES = [
  ['HTTP/1.1, closed -n 400 -c 3 on 2 workers', false, CLOSED, 2, [2, 1]],
  ['HTTP/1.1, open 400 req/s for 1 s', false, OPEN, 1, null],
  ['h2c, closed -n 400 -c 3', true, CLOSED, 1, [3, 3]],
  ['h2c, open 400 req/s for 1 s', true, OPEN, 1, null],
] as const;

describe('a list alternating two origins', () => {
  it.each(CASES)(
    '%s: each server gets exactly its share, on connections of its own',
    async (_label, isH2, load, workers, loadConnections) => {
      const servers = isH2 ? h2 : h1;
      for (const s of servers) s.reset();
      const { result } = await runTarget(
        alternating(servers, {
          load,
          options: { workers, ...(isH2 ? { protocol: 'h2' as const } : {}) },
        }),
      );
      expect(result.status, result.error?.message).toBe('completed');
      expect(result.requests.responses, JSON.stringify(result.warnings)).toBe(400);
      expectShares(servers);
      const accepted = servers.map((s) => s.connections - 2);
      // The result names each origin, where its sockets went, and the connections the load
      // opened to it: the servers' own count.
      expect(result.server?.origins).toEqual(
        servers.map((s, i) => ({
          origin: `http://${i === 0 ? 'a' : 'b'}.test:${s.port}`,
          connectedTo: `127.0.0.1:${s.port}`,
          connections: accepted[i],
        })),
      );
      if (loadConnections !== null) expect(accepted).toEqual(loadConnections);
      // Open: the pool opens a connection to each origin per slot (h2: a session each).
      else for (const n of accepted) expect(n).toBeGreaterThanOrEqual(1);
    },
  );
});

describe('a list over two https origins', () => {
  it('each origin gets its own Host, SNI name and certificate check', async () => {
    const certs = endAll(makeTestCerts());
    /** An https server with `pair`'s certificate, counting "Host SNI" per request. */
    const tlsServer = async (pair: { key: string; cert: string }) => {
      const seen = new Map<string, number>();
      const server = https.createServer(pair, (req, res) => {
        const key = `${req.headers.host} ${String((req.socket as TLSSocket).servername)}`;
        seen.set(key, (seen.get(key) ?? 0) + 1);
        res.end('ok');
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      endAll({ close: () => new Promise<void>((r) => server.close(() => r()).closeAllConnections()) });
      return { port: (server.address() as AddressInfo).port, seen };
    };
    const a = await tlsServer(certs.exampleTest);
    const b = await tlsServer(certs.valid);
    const A = `https://example.test:${a.port}`;
    const B = `https://localhost:${b.port}`;
    const { result } = await runTarget(
      oneTarget(`${A}/`, {
        load: { model: 'closed', connections: 2, limit: { kind: 'requests', count: 200 } },
        options: { tls: { caFile: certs.ca.certFile } },
        target: {
          monitor: { kind: 'off' },
          requests: [`${A}/`, `${B}/`].map((url) => ({ url })),
          connectTo: [
            `example.test:${a.port}:127.0.0.1:${a.port}`,
            `localhost:${b.port}:127.0.0.1:${b.port}`,
          ],
        },
      }),
    );
    expect(result.status, result.error?.message).toBe('completed');
    expect(result.requests.ok).toBe(200);
    // The load's 100 each and the pre-flight's one, every one under its own origin's names.
    expect([...a.seen]).toEqual([[`example.test:${a.port} example.test`, 101]]);
    expect([...b.seen]).toEqual([[`localhost:${b.port} localhost`, 101]]);
  });
});
