import { EventEmitter } from 'node:events';
import type net from 'node:net';
import { describe, expect, it } from 'vitest';
import { H2Session, newExchange, type H2Exchange } from '../../electron/engine/native/http2-session.ts';

/** A socket that keeps what the session writes and is fed the server's bytes by the test. */
class FakeSocket extends EventEmitter {
  written: Buffer[] = [];
  write(chunk: Uint8Array): boolean {
    this.written.push(Buffer.from(chunk));
    return true;
  }
  cork(): void {}
  uncork(): void {}
  destroy(): void {
    this.emit('close');
  }
}

function frame(type: number, flags: number, id: number, payload: Buffer): Buffer {
  const h = Buffer.alloc(9);
  h.writeUIntBE(payload.length, 0, 3);
  h[3] = type;
  h[4] = flags;
  h.writeUInt32BE(id, 5);
  return Buffer.concat([h, payload]);
}

const exchange = (): H2Exchange => newExchange(0, 0);

const DATA = 0x0;
const HEADERS = 0x1;
const SETTINGS = 0x4;
const CONTINUATION = 0x9;
const END_STREAM = 0x1;
const END_HEADERS = 0x4;

describe('HTTP/2 session framing', () => {
  it('reads frames split across reads at any byte, counting every body byte once', () => {
    // Server SETTINGS, then for streams 1 and 3: HEADERS (:status 200, static index 8) and a DATA
    // frame of 700 and 3000 bytes that ends the stream.
    const server = Buffer.concat([
      frame(SETTINGS, 0, 0, Buffer.alloc(0)),
      frame(HEADERS, END_HEADERS, 1, Buffer.from([0x88])),
      frame(HEADERS, END_HEADERS, 3, Buffer.from([0x88])),
      frame(DATA, END_STREAM, 1, Buffer.alloc(700, 1)),
      frame(DATA, END_STREAM, 3, Buffer.alloc(3000, 3)),
    ]);
    for (const chunk of [1, 2, 5, 8, 9, 10, 13, 100, 709, 4096]) {
      const socket = new FakeSocket();
      const done: H2Exchange[] = [];
      const session = new H2Session(
        socket as unknown as net.Socket,
        { block: Buffer.from([0x82]), body: null, wantServer: () => false },
        {
          onResponse: (ex) => done.push(ex),
          onReset: () => expect.unreachable('no stream is reset'),
          onGoaway: () => expect.unreachable('no GOAWAY is sent'),
          onMaxStreams: () => undefined,
          onClose: (_s, err) => expect.unreachable(`the session closed: ${err?.message}`),
        },
      );
      const a = exchange();
      const b = exchange();
      session.request(a, 0);
      session.request(b, 0);
      // A reused read buffer, as net's onread hands it: stale bytes after n must be ignored.
      const read = Buffer.alloc(8192, 0xff);
      for (let at = 0; at < server.length; at += chunk) {
        const n = server.copy(read, 0, at, Math.min(server.length, at + chunk));
        session.onRead(n, read);
      }
      expect(
        done.map((ex) => [ex.id, ex.status, ex.bodyBytes]),
        `chunks of ${chunk} bytes`,
      ).toEqual([
        [1, 200, 700],
        [3, 200, 3000],
      ]);
      expect(a.wireBytes).toBe(9 + 1 + 9 + 700);
      expect(b.wireBytes).toBe(9 + 1 + 9 + 3000);
      expect(session.active).toBe(0);
    }
  });

  it('keeps one HPACK table across the streams of a connection; a bad reference closes it', () => {
    const socket = new FakeSocket();
    const done: H2Exchange[] = [];
    const closed: { err: Error | null; open: number[] }[] = [];
    const session = new H2Session(
      socket as unknown as net.Socket,
      { block: Buffer.from([0x82]), body: null, wantServer: () => true },
      {
        onResponse: (ex) => done.push(ex),
        onReset: () => expect.unreachable('no stream is reset'),
        onGoaway: () => expect.unreachable('no GOAWAY is sent'),
        onMaxStreams: () => undefined,
        onClose: (_s, err, open) => closed.push({ err, open: open.map((ex) => ex.id) }),
      },
    );
    // The client announces HEADER_TABLE_SIZE (0x1) = 4096 first in its SETTINGS, after the preface.
    expect(socket.written[0]!.subarray(24 + 9, 24 + 9 + 6)).toEqual(Buffer.from([0, 1, 0, 0, 0x10, 0]));
    const streams = [exchange(), exchange(), exchange(), exchange()];
    for (const ex of streams) session.request(ex, 0);
    // Stream 1: :status 200 and server "h2o/2.2.5" added to the table (literal, incremental
    // indexing, static name 54). Stream 3: :status 200, then index 62 (that entry), in a
    // CONTINUATION frame. Stream 5 refers to index 63, which the table lacks.
    const server = Buffer.concat([
      frame(
        HEADERS,
        END_HEADERS | END_STREAM,
        1,
        Buffer.concat([Buffer.from([0x88, 0x40 | 54, 9]), Buffer.from('h2o/2.2.5')]),
      ),
      frame(HEADERS, END_STREAM, 3, Buffer.from([0x88])),
      frame(CONTINUATION, END_HEADERS, 3, Buffer.from([0x80 | 62])),
      frame(HEADERS, END_HEADERS | END_STREAM, 5, Buffer.from([0x88, 0x80 | 63])),
    ]);
    session.onRead(server.length, server);
    expect(done.map((ex) => [ex.id, ex.status, ex.server])).toEqual([
      [1, 200, 'h2o/2.2.5'],
      [3, 200, 'h2o/2.2.5'],
    ]);
    expect(closed).toHaveLength(1);
    expect(closed[0]!.err?.message).toMatch(/index 63, beyond the table \(61 static and 1 dynamic entries\)/);
    expect((closed[0]!.err as NodeJS.ErrnoException).code).toBe('ERR_HTTP2_PROTOCOL_ERROR');
    expect(closed[0]!.open).toEqual([5, 7]);
    expect(session.usable).toBe(false);
  });
});
