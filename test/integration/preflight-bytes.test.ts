import type net from 'node:net';
import { describe, expect, it } from 'vitest';
import { HpackDecoder } from '../../electron/engine/native/hpack/decoder.ts';
import { endAfterEach } from '../helpers/cleanup.ts';
import { oneTarget, runTarget } from '../helpers/engine.ts';
import { startH2FaultServer } from '../helpers/h2-fault-server.ts';
import { sized } from '../helpers/http1-fault-server.ts';
import { startHttpServer, startRawServer } from '../helpers/servers.ts';

/*
 * What the pre-flight checks is what the load sends: a recording server keeps every byte of
 * each connection (the pre-flight's is the first, the load's the next), and the pre-flight's
 * request must be, byte for byte, each of the load's, with the user's framing and connection
 * headers left out of both, and said so in the result.
 */

const track = endAfterEach();

/** A server that keeps every byte each connection sent and answers each request head with a 200. */
async function startRecorder() {
  const connections: string[] = [];
  const server = await startRawServer((socket: net.Socket) => {
    const index = connections.push('') - 1;
    let pending = '';
    socket.on('error', () => undefined);
    socket.on('data', (chunk: Buffer) => {
      connections[index] += chunk.toString('latin1');
      pending += chunk.toString('latin1');
      for (let end = pending.indexOf('\r\n\r\n'); end >= 0; end = pending.indexOf('\r\n\r\n')) {
        pending = pending.slice(end + 4);
        socket.write(sized('ok'));
      }
    });
  });
  return Object.assign(server, { recorded: connections });
}

const REQUESTS = 3;

describe.each(['native', 'autocannon'] as const)(
  '%s engine: the pre-flight sends the load’s bytes',
  (engine) => {
    it.each([
      [
        "-H 'Content-Length: 100' on a GET",
        { method: 'GET' as const, headers: [{ name: 'Content-Length', value: '100' }] },
        'Content-Length: 100',
        (port: number) =>
          `GET / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUser-Agent: Trebuchet/0.0.0-test\r\nAccept: */*\r\n\r\n`,
      ],
      [
        "-m POST --body hello -H 'Transfer-Encoding: chunked'",
        {
          method: 'POST' as const,
          body: { kind: 'text' as const, text: 'hello' },
          headers: [{ name: 'Transfer-Encoding', value: 'chunked' }],
        },
        'Transfer-Encoding: chunked',
        (port: number) =>
          `POST / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUser-Agent: Trebuchet/0.0.0-test\r\nAccept: */*\r\nContent-Length: 5\r\n\r\nhello`,
      ],
    ])('%s', async (_case, target, dropped, expected) => {
      const server = track(await startRecorder());
      const { result } = await runTarget(
        oneTarget(server.url, {
          target,
          load: { model: 'closed', connections: 1, limit: { kind: 'requests', count: REQUESTS } },
          options: { engine, timeoutMs: 5000 },
        }),
      );
      expect(result.status).toBe('completed');
      expect(result.requests).toMatchObject({ total: REQUESTS, ok: REQUESTS });
      const request = expected(server.port);
      // The pre-flight's connection, then the load's.
      expect(server.recorded).toEqual([request, request.repeat(REQUESTS)]);
      expect(result.warnings.map((w) => w.message)).toContainEqual(
        expect.stringContaining(
          `"${dropped}" (the engine frames the body itself, with a Content-Length from the body)`,
        ),
      );
    });

    it("-H 'Content-Length: 100' on a GET to a server that would wait for that body: passes the pre-flight", async () => {
      // Answers once the request's body has all come in, as many servers do.
      const server = track(
        await startHttpServer((req, res) => {
          req.resume();
          req.on('end', () => res.end('ok'));
        }),
      );
      const { result } = await runTarget(
        oneTarget(server.url, {
          target: { headers: [{ name: 'Content-Length', value: '100' }] },
          load: { model: 'closed', connections: 1, limit: { kind: 'requests', count: REQUESTS } },
          options: { engine, timeoutMs: 2000 },
        }),
      );
      expect(result.error).toBeNull();
      expect(result.requests).toMatchObject({ total: REQUESTS, ok: REQUESTS });
      expect(server.requests).toBe(REQUESTS + 1);
    });
  },
);

describe('native engine over HTTP/2', () => {
  it("--http2 -H 'Connection: x': the same header block from the pre-flight and the load, without it", async () => {
    const server = track(await startH2FaultServer());
    const { result } = await runTarget(
      oneTarget(server.url, {
        target: {
          headers: [
            { name: 'Connection', value: 'x' },
            { name: 'X-Kept', value: 'y' },
          ],
        },
        load: { model: 'closed', connections: 1, limit: { kind: 'requests', count: REQUESTS } },
        options: { protocol: 'h2', timeoutMs: 5000 },
      }),
    );
    expect(result.status).toBe('completed');
    expect(result.requests).toMatchObject({ total: REQUESTS, ok: REQUESTS });
    const blocks = server.requestBlocks;
    expect(blocks.map((b) => b.connection)).toEqual([0, 1, 1, 1]);
    for (const b of blocks.slice(1)) expect(b.block).toEqual(blocks[0]!.block);
    const fields: [string, string][] = [];
    new HpackDecoder().decode(blocks[0]!.block, 0, blocks[0]!.block.length, false, fields);
    expect(fields.map(([name]) => name)).toEqual([
      ':method',
      ':path',
      ':scheme',
      ':authority',
      'user-agent',
      'accept',
      'x-kept',
    ]);
    expect(result.warnings.map((w) => w.message)).toContainEqual(
      expect.stringContaining(
        '"Connection: x" (HTTP/2 forbids connection-specific headers, RFC 9113 section 8.2.2)',
      ),
    );
  });
});
