import { describe, expect, it } from 'vitest';
import { endAfterEach } from '../helpers/cleanup.ts';
import { oneTarget, runTarget } from '../helpers/engine.ts';
import {
  FLAG,
  FRAME,
  frame,
  goawayFrame,
  H2_CODE,
  settingsFrame,
  startH2FaultServer,
  STATUS_200,
  u32,
} from '../helpers/h2-fault-server.ts';
import { runNative } from '../helpers/native.ts';
import { startRawServer } from '../helpers/servers.ts';

/*
 * The native HTTP/2 client against servers that break RFC 9113 on purpose. Each case once
 * cost a run (a heap abort, a discarded result) or flooded the server with retries; each must
 * now be a counted error, with the connection closed by a GOAWAY that names the RFC's code.
 */

const track = endAfterEach();

const h2Requests = (count: number, connections = 1, pipelining = 1) => ({
  load: { model: 'closed' as const, connections, pipelining, limit: { kind: 'requests' as const, count } },
  options: { protocol: 'h2' as const, timeoutMs: 2000 },
});

describe('native HTTP/2 client against hostile servers', () => {
  it('SETTINGS_MAX_FRAME_SIZE = 0 on every connection: protocol errors and GOAWAY, not a heap abort', async () => {
    const server = track(await startH2FaultServer({ onConnect: (c) => c.send(settingsFrame([[0x5, 0]])) }));
    const { recorder } = await runNative({ targets: [{ url: server.url }], ...h2Requests(20, 2) });
    await server.idle();
    expect(recorder.totals.total).toBe(20);
    expect(recorder.totals.responses).toBe(0);
    const protocol = recorder.totals.errorSet.get('protocol');
    expect(protocol?.count).toBe(20);
    expect(protocol?.message).toMatch(
      /^server sent SETTINGS_MAX_FRAME_SIZE = 0, outside 16384\.\.16777215 \(RFC 9113 section 6\.5\.2\); connection closed with GOAWAY PROTOCOL_ERROR/,
    );
    // One request per connection: each connection failed before answering, and the next
    // one waited for it (the backoff), so no more were opened than requests were sent.
    expect(server.connections).toBe(20);
    expect(server.goawayCodes).toEqual(Array(20).fill(H2_CODE.PROTOCOL_ERROR));
  });

  it('a CONTINUATION flood costs each connection at most the header limit', async () => {
    const server = track(
      await startH2FaultServer({
        onRequest: (c, id) => {
          // HEADERS without END_HEADERS, then CONTINUATION frames for ever (1 MiB a write).
          c.send(frame(FRAME.HEADERS, 0, id, STATUS_200));
          const part = frame(FRAME.CONTINUATION, 0, id, Buffer.alloc(16_384, 0x88));
          const flood = Buffer.concat(Array.from({ length: 64 }, () => part));
          const pump = (): void => {
            while (!c.socket.destroyed && c.socket.writable && c.socket.write(flood));
            if (!c.socket.destroyed) c.socket.once('drain', pump);
          };
          pump();
        },
      }),
    );
    const { recorder } = await runNative({ targets: [{ url: server.url }], ...h2Requests(3) });
    await server.idle();
    expect(recorder.totals.total).toBe(3);
    const protocol = recorder.totals.errorSet.get('protocol');
    expect(protocol?.count).toBe(3);
    expect(protocol?.message).toMatch(
      /^response header block larger than 1048576 bytes \(the client's limit\); connection closed with GOAWAY ENHANCE_YOUR_CALM/,
    );
    expect(server.connections).toBe(3);
    expect(server.goawayCodes).toEqual(Array(3).fill(H2_CODE.ENHANCE_YOUR_CALM));
  });

  it('DATA padding longer than the frame is a counted protocol error that keeps the result', async () => {
    // Connection 0 is the engine's pre-flight (node:http2): served well. After it, every
    // tenth stream gets a DATA frame whose padding is longer than the frame.
    let streams = 0;
    const server = track(
      await startH2FaultServer({
        onRequest: (c, id) => {
          if (c.index > 0 && ++streams % 10 === 0) {
            c.send(frame(FRAME.HEADERS, FLAG.END_HEADERS, id, STATUS_200));
            c.send(frame(FRAME.DATA, FLAG.END_STREAM | FLAG.PADDED, id, Buffer.from([200, 1, 2, 3])));
          } else {
            c.respond(id);
          }
        },
      }),
    );
    const { result } = await runTarget(oneTarget(server.url, h2Requests(300, 2)));
    expect(result.status).toBe('completed');
    expect(result.error).toBeNull();
    expect(result.requests.total).toBe(300);
    expect(result.requests.ok).toBe(270);
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]).toMatchObject({ kind: 'protocol', count: 30 });
    expect(result.errors[0]!.message).toMatch(
      /^DATA frame padding of 200 bytes is longer than its 4-byte payload; connection closed with GOAWAY PROTOCOL_ERROR/,
    );
    expect(result.bytes.inBody).toBe(270 * 'ok'.length);
    expect(result.latency?.percentiles['50']).toBeGreaterThan(0);
    expect(streams).toBe(300);
  });

  it('REFUSED_STREAM on every stream: each request is sent twice, then counted as refused-stream', async () => {
    const server = track(
      await startH2FaultServer({
        onRequest: (c, id) => c.send(frame(FRAME.RST_STREAM, 0, id, u32(H2_CODE.REFUSED_STREAM))),
      }),
    );
    const closed = await runNative({ targets: [{ url: server.url }], ...h2Requests(100, 1, 4) });
    expect(closed.recorder.totals.total).toBe(100);
    const refused = closed.recorder.totals.errorSet.get('refused-stream');
    expect(refused?.count).toBe(100);
    expect(refused?.message).toMatch(
      /refused the stream \(RST_STREAM REFUSED_STREAM\), and again when it was sent once more/,
    );
    expect(server.streams).toBe(200);
    expect(server.connections).toBe(1);

    const open = await runNative({
      targets: [{ url: server.url }],
      load: { model: 'open', rate: 200, durationSeconds: 0.5, maxInFlight: 50 },
      options: { protocol: 'h2', timeoutMs: 2000 },
    });
    expect(open.recorder.totals.total).toBe(100);
    expect(open.recorder.totals.errorSet.get('refused-stream')?.count).toBe(100);
    expect(server.streams).toBe(200 + 200);
  });

  it('GOAWAY (last stream 0) on every connection: one retry, then goaway errors; no connection storm', async () => {
    const server = track(
      await startH2FaultServer({
        onConnect: (c) => c.send(Buffer.concat([settingsFrame([]), goawayFrame(0, H2_CODE.NO_ERROR)])),
        onRequest: () => undefined,
      }),
    );
    const { recorder } = await runNative({ targets: [{ url: server.url }], ...h2Requests(40, 4) });
    await server.idle();
    expect(recorder.totals.total).toBe(40);
    const goaway = recorder.totals.errorSet.get('goaway');
    expect(goaway?.count).toBe(40);
    expect(goaway?.message).toMatch(
      /^the server sent GOAWAY \(last stream 0, NO_ERROR\) before processing the stream, and again when it was sent once more/,
    );
    // Each request went out on two connections, one stream each; none is left open (idle()).
    expect(server.connections).toBe(80);
    expect(server.streams).toBe(80);

    // The open model: one session carries every stream, and each connection that answers
    // nothing delays the next, so connections stay far fewer than requests.
    const before = server.connections;
    const open = await runNative({
      targets: [{ url: server.url }],
      load: { model: 'open', rate: 200, durationSeconds: 0.5, maxInFlight: 100 },
      options: { protocol: 'h2', timeoutMs: 2000 },
    });
    await server.idle();
    expect(open.recorder.totals.total).toBe(100);
    expect(open.recorder.totals.errorSet.get('goaway')?.count).toBe(100);
    expect(server.connections - before).toBeLessThan(100);
  });

  it('a stream cut off when the server closes after GOAWAY counts as goaway, not retried', async () => {
    const server = track(
      await startH2FaultServer({
        onRequest: (c, id) => {
          c.send(goawayFrame(id, H2_CODE.NO_ERROR));
          c.socket.end();
        },
      }),
    );
    const { recorder } = await runNative({ targets: [{ url: server.url }], ...h2Requests(10) });
    expect(recorder.totals.total).toBe(10);
    const goaway = recorder.totals.errorSet.get('goaway');
    expect(goaway?.count).toBe(10);
    expect(goaway?.message).toBe(
      'stream cut off by GOAWAY (last stream 1, NO_ERROR): the connection closed before the response was complete',
    );
    expect(server.streams).toBe(10);
  });

  it('PUSH_PROMISE (push disabled) and a WINDOW_UPDATE of 0: GOAWAY or RST_STREAM with PROTOCOL_ERROR', async () => {
    const push = track(
      await startH2FaultServer({
        onRequest: (c, id) =>
          c.send(frame(FRAME.PUSH_PROMISE, FLAG.END_HEADERS, id, Buffer.concat([u32(2), STATUS_200]))),
      }),
    );
    const pushed = await runNative({ targets: [{ url: push.url }], ...h2Requests(5) });
    await push.idle();
    expect(pushed.recorder.totals.errorSet.get('protocol')?.count).toBe(5);
    expect(push.goawayCodes).toEqual(Array(5).fill(H2_CODE.PROTOCOL_ERROR));

    // Every fourth stream gets a WINDOW_UPDATE of 0 before its answer: a stream error.
    let n = 0;
    const zero = track(
      await startH2FaultServer({
        onRequest: (c, id) => {
          if (++n % 4 === 1) c.send(frame(FRAME.WINDOW_UPDATE, 0, id, u32(0)));
          c.respond(id);
        },
      }),
    );
    const { recorder } = await runNative({ targets: [{ url: zero.url }], ...h2Requests(100, 1, 4) });
    await zero.idle();
    expect(recorder.totals.total).toBe(100);
    expect(recorder.totals.ok).toBe(75);
    expect(recorder.totals.errorSet.get('protocol')?.count).toBe(25);
    expect(zero.resets).toHaveLength(25);
    expect(zero.resets.every(([, code]) => code === H2_CODE.PROTOCOL_ERROR)).toBe(true);
    expect(zero.connections).toBe(1);
  });

  it('unknown frame types, PRIORITY, and RST_STREAM or WINDOW_UPDATE on closed streams are ignored', async () => {
    const server = track(
      await startH2FaultServer({
        onRequest: (c, id) => {
          c.send(frame(0xfa, 0xff, id, Buffer.alloc(50)));
          c.send(frame(FRAME.PRIORITY, 0, id, Buffer.alloc(5)));
          c.respond(id);
          c.send(frame(FRAME.RST_STREAM, 0, id, u32(H2_CODE.NO_ERROR)));
          c.send(frame(FRAME.WINDOW_UPDATE, 0, id, u32(1000)));
        },
      }),
    );
    const { recorder } = await runNative({ targets: [{ url: server.url }], ...h2Requests(200, 2, 2) });
    expect(recorder.totals.ok).toBe(200);
    expect(recorder.totals.errors).toBe(0);
    expect(server.goawayCodes).toEqual([]);
  });

  it('a PING flood from a server that never reads is cut off, with bounded queued answers', async () => {
    const ping = frame(FRAME.PING, 0, 0, Buffer.from('hostile!'));
    const burst = Buffer.concat(Array.from({ length: 20_000 }, () => ping));
    const server = track(
      await startRawServer((socket) => {
        socket.on('error', () => undefined);
        // Reads nothing the client sends, answers nothing: only PINGs, 100 MB worth at most.
        socket.pause();
        let left = 300;
        const pump = (): void => {
          while (left-- > 0 && !socket.destroyed && socket.write(burst));
          if (left > 0 && !socket.destroyed) socket.once('drain', pump);
        };
        socket.write(settingsFrame([]));
        pump();
      }),
    );
    const { recorder } = await runNative({
      targets: [{ url: server.url }],
      ...h2Requests(1),
      options: { protocol: 'h2', timeoutMs: 20_000 },
    });
    expect(recorder.totals.total).toBe(1);
    expect(recorder.totals.errorSet.get('protocol')?.message).toMatch(
      /^server sent more than 1000 SETTINGS and PING frames without reading the answers; connection closed with GOAWAY ENHANCE_YOUR_CALM/,
    );
  });
});
