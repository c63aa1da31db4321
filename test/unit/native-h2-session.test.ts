import { EventEmitter } from 'node:events';
import type net from 'node:net';
import { describe, expect, it } from 'vitest';
import { newExchange, type H2Exchange } from '../../electron/engine/native/http2/exchange.ts';
import { H2Session } from '../../electron/engine/native/http2/session.ts';
import { FLAG, frame, FRAME, H2_CODE, settingsFrame, u32 } from '../helpers/h2-fault-server.ts';

/** A socket that keeps what the session writes and is fed the server's bytes by the test. */
class FakeSocket extends EventEmitter {
  written: Buffer[] = [];
  write(chunk: Uint8Array): boolean {
    this.written.push(Buffer.from(chunk));
    return true;
  }
  ended = false;
  destroyed = false;
  /** Set by a test to play a socket whose buffer is full (the server does not read). */
  writableNeedDrain = false;
  cork(): void {}
  uncork(): void {}
  end(chunk: Uint8Array): void {
    this.written.push(Buffer.from(chunk));
    this.ended = true;
  }
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.emit('close');
  }
}

const exchange = (): H2Exchange => newExchange(0, 0);

/**
 * Lets the requests' HEADERS frames go out, as they do at the end of the task that made them
 * (a microtask): an empty read flushes them now, before the test feeds the server's answer.
 */
const wrote = (session: H2Session): void => session.onRead(0, Buffer.alloc(0));

const {
  DATA,
  HEADERS,
  SETTINGS,
  CONTINUATION,
  RST_STREAM,
  PUSH_PROMISE,
  PING,
  GOAWAY,
  WINDOW_UPDATE,
  PRIORITY,
} = FRAME;
const { END_STREAM, END_HEADERS, PADDED, ACK } = FLAG;

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
        { block: Buffer.from([0x82]), body: null, wantServer: () => false, maxHeaderBytes: 1 << 20 },
        {
          onResponse: (ex) => done.push(ex),
          onReset: () => expect.unreachable('no stream is reset'),
          onStreamError: () => expect.unreachable('no stream error'),
          onGoaway: () => expect.unreachable('no GOAWAY is sent'),
          onMaxStreams: () => undefined,
          onUnsolicited: () => expect.unreachable('every frame is on an open stream'),
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
      { block: Buffer.from([0x82]), body: null, wantServer: () => true, maxHeaderBytes: 1 << 20 },
      {
        onResponse: (ex) => done.push(ex),
        onReset: () => expect.unreachable('no stream is reset'),
        onStreamError: () => expect.unreachable('no stream error'),
        onGoaway: () => expect.unreachable('no GOAWAY is sent'),
        onMaxStreams: () => undefined,
        onUnsolicited: () => expect.unreachable('every frame is on an open stream'),
        onClose: (_s, err, open) => closed.push({ err, open: open.map((ex) => ex.id) }),
      },
    );
    // The client announces HEADER_TABLE_SIZE (0x1) = 4096 first in its SETTINGS, after the preface.
    expect(socket.written[0]!.subarray(24 + 9, 24 + 9 + 6)).toEqual(Buffer.from([0, 1, 0, 0, 0x10, 0]));
    const streams = [exchange(), exchange(), exchange(), exchange()];
    for (const ex of streams) session.request(ex, 0);
    wrote(session);
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

interface SentFrame {
  type: number;
  flags: number;
  id: number;
  payload: Buffer;
}

/** The frames the client wrote after its preface (the first write), GOAWAY included. */
function sent(socket: FakeSocket): SentFrame[] {
  const all = Buffer.concat(socket.written.slice(1));
  const out: SentFrame[] = [];
  for (let at = 0; at + 9 <= all.length;) {
    const len = all.readUIntBE(at, 3);
    out.push({
      type: all[at + 3]!,
      flags: all[at + 4]!,
      id: all.readUInt32BE(at + 5),
      payload: all.subarray(at + 9, at + 9 + len),
    });
    at += 9 + len;
  }
  return out;
}

/** A session on a fake socket, `streams` requests open (ids 1, 3, ...), and what it reported. */
function hostile(opts: { streams?: number; maxHeaderBytes?: number; block?: Buffer } = {}) {
  const socket = new FakeSocket();
  const done: H2Exchange[] = [];
  const streamErrors: [number, string][] = [];
  const resets: [number, number][] = [];
  const closed: { message: string; open: number[] }[] = [];
  /** Streams handed back unwritten when the connection closed; frames on streams already ended. */
  const unwritten: number[] = [];
  let unsolicited = 0;
  const session = new H2Session(
    socket as unknown as net.Socket,
    {
      block: opts.block ?? Buffer.from([0x82]),
      body: null,
      wantServer: () => false,
      maxHeaderBytes: opts.maxHeaderBytes ?? 1 << 20,
    },
    {
      onResponse: (ex) => done.push(ex),
      onReset: (ex, code) => resets.push([ex.id, code]),
      onStreamError: (ex, message) => streamErrors.push([ex.id, message]),
      onGoaway: () => undefined,
      onMaxStreams: () => undefined,
      onUnsolicited: () => unsolicited++,
      onClose: (_s, err, open, notWritten) => {
        closed.push({ message: err?.message ?? '', open: open.map((ex) => ex.id) });
        unwritten.push(...notWritten.map((ex) => ex.id));
      },
    },
  );
  const exchanges = Array.from({ length: opts.streams ?? 1 }, () => exchange());
  for (const ex of exchanges) session.request(ex, 0);
  wrote(session);
  const feed = (...frames: Buffer[]): void => {
    const bytes = Buffer.concat(frames);
    session.onRead(bytes.length, bytes);
  };
  /** The GOAWAY the client sent, as [last stream, code], or null. */
  const goaway = (): [number, number] | null => {
    const g = sent(socket).find((f) => f.type === GOAWAY);
    return g ? [g.payload.readUInt32BE(0), g.payload.readUInt32BE(4)] : null;
  };
  return {
    socket,
    session,
    exchanges,
    done,
    streamErrors,
    resets,
    closed,
    unwritten,
    unsolicited: () => unsolicited,
    feed,
    goaway,
  };
}

const ok200 = (id: number, body = Buffer.from('ok')) =>
  Buffer.concat([frame(HEADERS, END_HEADERS, id, Buffer.from([0x88])), frame(DATA, END_STREAM, id, body)]);

describe('HTTP/2 session against a hostile server (RFC 9113)', () => {
  it.each([
    [
      'MAX_FRAME_SIZE 0',
      [0x5, 0],
      H2_CODE.PROTOCOL_ERROR,
      /SETTINGS_MAX_FRAME_SIZE = 0, outside 16384\.\.16777215/,
    ],
    ['MAX_FRAME_SIZE 16383', [0x5, 16_383], H2_CODE.PROTOCOL_ERROR, /SETTINGS_MAX_FRAME_SIZE = 16383/],
    ['MAX_FRAME_SIZE 2^24', [0x5, 2 ** 24], H2_CODE.PROTOCOL_ERROR, /SETTINGS_MAX_FRAME_SIZE = 16777216/],
    ['ENABLE_PUSH 1', [0x2, 1], H2_CODE.PROTOCOL_ERROR, /SETTINGS_ENABLE_PUSH = 1/],
    [
      'INITIAL_WINDOW_SIZE 2^31',
      [0x4, 2 ** 31],
      H2_CODE.FLOW_CONTROL_ERROR,
      /SETTINGS_INITIAL_WINDOW_SIZE = 2147483648/,
    ],
  ] as const)(
    'SETTINGS %s is a connection error: GOAWAY with the code, open streams fail',
    (_, pair, code, words) => {
      const h = hostile({ streams: 2 });
      h.feed(
        settingsFrame([
          [0x3, 100],
          [pair[0], pair[1]],
        ]),
      );
      expect(h.closed).toHaveLength(1);
      expect(h.closed[0]!.message).toMatch(words);
      expect(h.closed[0]!.open).toEqual([1, 3]);
      expect(h.goaway()).toEqual([0, code]);
      expect(h.socket.ended).toBe(true);
      expect(h.session.usable).toBe(false);
      // The SETTINGS were refused as a whole: not acknowledged.
      expect(sent(h.socket).some((f) => f.type === SETTINGS && f.flags & ACK)).toBe(false);
    },
  );

  it('uses a valid MAX_FRAME_SIZE to split the next header block, and ignores HEADER_TABLE_SIZE', () => {
    const h = hostile({ block: Buffer.alloc(40_000, 0x82) });
    h.feed(
      settingsFrame([
        [0x1, 0],
        [0x5, 16_777_215],
        [0x5, 20_000],
        [0x6, 10],
        [0xff, 7],
      ]),
    );
    expect(h.closed).toEqual([]);
    h.session.request(exchange(), 0);
    const headers = sent(h.socket).filter((f) => f.id === 3);
    expect(headers.map((f) => [f.type, f.payload.length])).toEqual([
      [HEADERS, 20_000],
      [CONTINUATION, 20_000],
    ]);
  });

  it.each([
    ['SETTINGS of 5 bytes', frame(SETTINGS, 0, 0, Buffer.alloc(5)), H2_CODE.FRAME_SIZE_ERROR],
    ['SETTINGS ACK with a payload', frame(SETTINGS, ACK, 0, Buffer.alloc(6)), H2_CODE.FRAME_SIZE_ERROR],
    ['SETTINGS on a stream', frame(SETTINGS, 0, 1, Buffer.alloc(0)), H2_CODE.PROTOCOL_ERROR],
    ['PING of 7 bytes', frame(PING, 0, 0, Buffer.alloc(7)), H2_CODE.FRAME_SIZE_ERROR],
    ['GOAWAY of 4 bytes', frame(GOAWAY, 0, 0, Buffer.alloc(4)), H2_CODE.FRAME_SIZE_ERROR],
    ['RST_STREAM of 3 bytes', frame(RST_STREAM, 0, 1, Buffer.alloc(3)), H2_CODE.FRAME_SIZE_ERROR],
    ['RST_STREAM on stream 0', frame(RST_STREAM, 0, 0, u32(8)), H2_CODE.PROTOCOL_ERROR],
    ['RST_STREAM on a stream never opened', frame(RST_STREAM, 0, 9, u32(8)), H2_CODE.PROTOCOL_ERROR],
    ['WINDOW_UPDATE of 0 on the connection', frame(WINDOW_UPDATE, 0, 0, u32(0)), H2_CODE.PROTOCOL_ERROR],
    [
      'connection window above 2^31-1',
      frame(WINDOW_UPDATE, 0, 0, u32(2 ** 31 - 1)),
      H2_CODE.FLOW_CONTROL_ERROR,
    ],
    ['DATA on stream 0', frame(DATA, 0, 0, Buffer.from('x')), H2_CODE.PROTOCOL_ERROR],
    ['DATA on a stream never opened', frame(DATA, 0, 5, Buffer.from('x')), H2_CODE.PROTOCOL_ERROR],
    [
      'HEADERS on an even (server) stream',
      frame(HEADERS, END_HEADERS, 2, Buffer.from([0x88])),
      H2_CODE.PROTOCOL_ERROR,
    ],
    [
      'PUSH_PROMISE (push is disabled)',
      frame(PUSH_PROMISE, END_HEADERS, 1, Buffer.concat([u32(2), Buffer.from([0x88])])),
      H2_CODE.PROTOCOL_ERROR,
    ],
    [
      'DATA padding as long as the payload',
      frame(DATA, PADDED | END_STREAM, 1, Buffer.from([4, 1, 2, 3])),
      H2_CODE.PROTOCOL_ERROR,
    ],
    [
      'DATA padding longer than the payload',
      frame(DATA, PADDED | END_STREAM, 1, Buffer.from([200, 1, 2, 3])),
      H2_CODE.PROTOCOL_ERROR,
    ],
    [
      'HEADERS padding longer than the block',
      frame(HEADERS, PADDED | END_HEADERS, 1, Buffer.from([9, 0x88])),
      H2_CODE.PROTOCOL_ERROR,
    ],
    [
      'a header block interrupted by DATA',
      Buffer.concat([frame(HEADERS, 0, 1, Buffer.from([0x88])), frame(DATA, 0, 1, Buffer.from('x'))]),
      H2_CODE.PROTOCOL_ERROR,
    ],
    [
      'CONTINUATION without HEADERS',
      frame(CONTINUATION, END_HEADERS, 1, Buffer.from([0x88])),
      H2_CODE.PROTOCOL_ERROR,
    ],
    [
      'a bad HPACK reference',
      frame(HEADERS, END_HEADERS, 1, Buffer.from([0x80 | 70])),
      H2_CODE.COMPRESSION_ERROR,
    ],
  ])('%s: connection error, GOAWAY with the RFC code, no response counted', (_, bytes, code) => {
    const h = hostile();
    h.feed(frame(SETTINGS, 0, 0, Buffer.alloc(0)), bytes);
    expect(h.goaway()).toEqual([0, code]);
    expect(h.closed).toHaveLength(1);
    expect(h.closed[0]!.open).toEqual([1]);
    expect(h.done).toEqual([]);
    expect(h.exchanges[0]!.bodyBytes).toBeGreaterThanOrEqual(0);
  });

  it('refuses a frame above 16384 bytes from its header alone, before buffering it', () => {
    const h = hostile();
    const header = frame(DATA, 0, 1, Buffer.alloc(0));
    header.writeUIntBE(16_385, 0, 3);
    h.feed(header);
    expect(h.goaway()).toEqual([0, H2_CODE.FRAME_SIZE_ERROR]);
    expect(h.closed[0]!.message).toMatch(
      /DATA frame of 16385 bytes, above the 16384-byte SETTINGS_MAX_FRAME_SIZE/,
    );
    // Split across reads, the length is checked once its 3 bytes are in.
    const split = hostile();
    const big = frame(HEADERS, 0, 1, Buffer.alloc(0));
    big.writeUIntBE(0xffffff, 0, 3);
    split.feed(big.subarray(0, 2));
    expect(split.closed).toEqual([]);
    split.feed(big.subarray(2, 9));
    expect(split.goaway()).toEqual([0, H2_CODE.FRAME_SIZE_ERROR]);
  });

  it('padding of exactly the rest of the frame is an empty body, counted as 0 bytes', () => {
    const h = hostile();
    h.feed(
      frame(HEADERS, END_HEADERS | PADDED, 1, Buffer.from([2, 0x88, 0, 0])),
      frame(DATA, PADDED, 1, Buffer.from([3, 0, 0, 0])),
      frame(DATA, PADDED | END_STREAM, 1, Buffer.from([1, 0x61, 0])),
    );
    expect(h.closed).toEqual([]);
    expect(h.done.map((ex) => [ex.status, ex.bodyBytes])).toEqual([[200, 1]]);
  });

  it('caps a header block over HEADERS and CONTINUATION frames (a CONTINUATION flood)', () => {
    const h = hostile({ maxHeaderBytes: 65_536 });
    const part = Buffer.alloc(16_384, 0x88);
    h.feed(frame(HEADERS, 0, 1, part));
    for (let i = 0; i < 3; i++) h.feed(frame(CONTINUATION, 0, 1, part));
    // 65,536 bytes so far: at the limit, still buffered.
    expect(h.closed).toEqual([]);
    h.feed(frame(CONTINUATION, 0, 1, Buffer.from([0x88])));
    expect(h.goaway()).toEqual([0, H2_CODE.ENHANCE_YOUR_CALM]);
    expect(h.closed[0]!.message).toMatch(
      /response header block larger than 65536 bytes \(the client's limit\)/,
    );
    expect(h.closed[0]!.open).toEqual([1]);
  });

  it('caps the header list a small block decodes to (an HPACK bomb)', () => {
    const h = hostile({ maxHeaderBytes: 65_536 });
    // Adds a 3,999-byte entry (literal with indexing, name "x"), then refers to it 20 times:
    // a block of 4 KB that stands for 80 KB of fields.
    const value = 'v'.repeat(3966);
    const literal = Buffer.concat([
      Buffer.from([0x40, 0x01, 0x78, 0x7f]),
      encodeLength(value.length - 127),
      Buffer.from(value),
    ]);
    const block = Buffer.concat([Buffer.from([0x88]), literal, Buffer.alloc(20, 0x80 | 62)]);
    h.feed(frame(HEADERS, END_HEADERS | END_STREAM, 1, block));
    expect(h.goaway()).toEqual([0, H2_CODE.ENHANCE_YOUR_CALM]);
    expect(h.closed[0]!.message).toMatch(/response header list larger than 65536 bytes/);
    expect(h.done).toEqual([]);
  });

  it('frames for a stream it gave up on are dropped; for a stream already closed, STREAM_CLOSED', () => {
    const h = hostile({ streams: 3 });
    h.session.cancel(h.exchanges[0]!);
    h.feed(ok200(1), ok200(3));
    expect(h.closed).toEqual([]);
    expect(h.done.map((ex) => ex.id)).toEqual([3]);
    // RST_STREAM and WINDOW_UPDATE on a closed stream are allowed and ignored.
    h.feed(frame(RST_STREAM, 0, 3, u32(0)), frame(WINDOW_UPDATE, 0, 3, u32(100)));
    expect(h.closed).toEqual([]);
    h.feed(frame(DATA, END_STREAM, 3, Buffer.from('again')));
    expect(h.goaway()).toEqual([0, H2_CODE.STREAM_CLOSED]);
    expect(h.closed[0]!.message).toMatch(/DATA frame on stream 3, which was already closed/);
    expect(h.closed[0]!.open).toEqual([5]);
    // An answer to no request: the client counts it apart.
    expect(h.unsolicited()).toBe(1);
  });

  it('a request made in the read that breaks the connection never went out: handed back unwritten', () => {
    const socket = new FakeSocket();
    const next = exchange();
    let unsolicited = 0;
    const closed: { open: number[]; unwritten: number[] }[] = [];
    const session: H2Session = new H2Session(
      socket as unknown as net.Socket,
      { block: Buffer.from([0x82]), body: null, wantServer: () => false, maxHeaderBytes: 1 << 20 },
      {
        // As the client does: the answer frees a slot, the next request takes it at once.
        onResponse: () => session.request(next, 0),
        onReset: () => expect.unreachable('no stream is reset'),
        onStreamError: () => expect.unreachable('no stream error'),
        onGoaway: () => undefined,
        onMaxStreams: () => undefined,
        onUnsolicited: () => unsolicited++,
        onClose: (_s, _err, open, unwritten) =>
          closed.push({ open: open.map((ex) => ex.id), unwritten: unwritten.map((ex) => ex.id) }),
      },
    );
    session.request(exchange(), 0);
    wrote(session);
    // Stream 1's answer, then DATA on stream 1 again, in one read.
    const bytes = Buffer.concat([ok200(1), frame(DATA, END_STREAM, 1, Buffer.from('again'))]);
    session.onRead(bytes.length, bytes);
    expect(unsolicited).toBe(1);
    expect(closed).toEqual([{ open: [], unwritten: [3] }]);
    expect(
      sent(socket)
        .filter((f) => f.type === HEADERS)
        .map((f) => f.id),
    ).toEqual([1]);
    expect(
      sent(socket)
        .find((f) => f.type === GOAWAY)
        ?.payload.readUInt32BE(4),
    ).toBe(H2_CODE.STREAM_CLOSED);
  });

  it(':status 999 is a response; a malformed :status resets that stream only', () => {
    const h = hostile({ streams: 3 });
    // Literal :status (static name index 8) without indexing: "999", then "1000".
    const status = (value: string) => Buffer.concat([Buffer.from([0x08, value.length]), Buffer.from(value)]);
    h.feed(
      frame(HEADERS, END_HEADERS | END_STREAM, 1, status('999')),
      frame(HEADERS, END_HEADERS | END_STREAM, 3, status('1000')),
      ok200(5),
    );
    expect(h.done.map((ex) => [ex.id, ex.status])).toEqual([
      [1, 999],
      [5, 200],
    ]);
    expect(h.streamErrors).toEqual([[3, expect.stringMatching(/malformed :status/)]]);
    expect(h.resets).toEqual([]);
    expect(
      sent(h.socket)
        .filter((f) => f.type === RST_STREAM)
        .map((f) => [f.id, f.payload.readUInt32BE(0)]),
    ).toEqual([[3, H2_CODE.PROTOCOL_ERROR]]);
    expect(h.closed).toEqual([]);
  });

  it('stream errors reset one stream and spare the others (WINDOW_UPDATE of 0, window overflow, PRIORITY size)', () => {
    const h = hostile({ streams: 4 });
    h.feed(
      frame(WINDOW_UPDATE, 0, 1, u32(0)),
      frame(WINDOW_UPDATE, 0, 3, u32(2 ** 31 - 1)),
      frame(PRIORITY, 0, 5, Buffer.alloc(4)),
      ok200(7),
    );
    expect(h.closed).toEqual([]);
    expect(h.streamErrors.map(([id]) => id)).toEqual([1, 3, 5]);
    expect(h.streamErrors[0]![1]).toMatch(
      /WINDOW_UPDATE of 0 on the stream.*stream reset with PROTOCOL_ERROR/,
    );
    expect(h.streamErrors[1]![1]).toMatch(/above 2\^31-1.*stream reset with FLOW_CONTROL_ERROR/);
    expect(h.streamErrors[2]![1]).toMatch(/PRIORITY frame of 4 bytes.*FRAME_SIZE_ERROR/);
    expect(
      sent(h.socket)
        .filter((f) => f.type === RST_STREAM)
        .map((f) => [f.id, f.payload.readUInt32BE(0)]),
    ).toEqual([
      [1, H2_CODE.PROTOCOL_ERROR],
      [3, H2_CODE.FLOW_CONTROL_ERROR],
      [5, H2_CODE.FRAME_SIZE_ERROR],
    ]);
    expect(h.done.map((ex) => ex.id)).toEqual([7]);
    // A late DATA frame for a stream it reset is dropped, not a connection error.
    h.feed(frame(DATA, END_STREAM, 1, Buffer.from('late')));
    expect(h.closed).toEqual([]);
  });

  it('a stream that ends without a :status is a stream error, not a reset', () => {
    const h = hostile();
    h.feed(frame(HEADERS, END_HEADERS | END_STREAM, 1, Buffer.from([0x40 | 54, 1, 0x61])));
    expect(h.resets).toEqual([]);
    expect(h.streamErrors).toEqual([[1, 'the server ended the stream without a response (no :status)']]);
  });

  it('ignores unknown frame types and SETTINGS ACKs', () => {
    const h = hostile();
    const acks = Array.from({ length: 10_000 }, () => frame(SETTINGS, ACK, 0, Buffer.alloc(0)));
    h.feed(frame(0xfa, 0xff, 1, Buffer.alloc(100)), frame(0xfb, 0, 0, Buffer.alloc(3)), ...acks, ok200(1));
    expect(h.closed).toEqual([]);
    expect(h.done.map((ex) => ex.status)).toEqual([200]);
  });

  it('answers PINGs and SETTINGS, but closes a connection that floods them without reading', () => {
    const h = hostile();
    const ping = frame(PING, 0, 0, Buffer.from('12345678'));
    h.feed(...Array.from({ length: 5000 }, () => ping));
    expect(sent(h.socket).filter((f) => f.type === PING && f.flags & ACK)).toHaveLength(5000);
    // The server stops reading: the socket's buffer is full.
    h.socket.writableNeedDrain = true;
    h.feed(...Array.from({ length: 1000 }, () => ping));
    expect(h.closed).toEqual([]);
    h.socket.emit('drain');
    h.feed(...Array.from({ length: 1000 }, () => frame(SETTINGS, 0, 0, Buffer.alloc(0))));
    expect(h.closed).toEqual([]);
    h.feed(ping);
    expect(h.closed[0]!.message).toMatch(
      /server sent more than 1000 SETTINGS and PING frames without reading the answers; connection closed with GOAWAY ENHANCE_YOUR_CALM/,
    );
    // Nothing more is queued for a server that does not read: the socket is dropped.
    expect(h.socket.destroyed).toBe(true);
    expect(h.socket.ended).toBe(false);
  });
});

/** An HPACK integer continuation (the bytes after a full prefix), RFC 7541 section 5.1. */
function encodeLength(rest: number): Buffer {
  const out: number[] = [];
  while (rest >= 128) {
    out.push((rest & 127) | 128);
    rest = Math.floor(rest / 128);
  }
  out.push(rest);
  return Buffer.from(out);
}
