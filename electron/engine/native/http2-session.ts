import type net from 'node:net';
import { DECODER_TABLE_SIZE, HpackDecoder } from './hpack.ts';
import { SocketWriter } from './socket-writer.ts';

/**
 * One HTTP/2 connection (RFC 9113) on a raw socket: the client side of the framing layer,
 * just what a load generator needs. Requests reuse one precomputed header block; responses
 * are framed, their :status read, their DATA counted and dropped. node:http2 builds a Duplex
 * stream, a header object and several closures per request, which caps it near 10k requests
 * per CPU-second; this does the same work at HTTP/1.1 speed.
 */

const PREFACE = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'latin1');

// Frame types and flags.
const DATA = 0x0;
const HEADERS = 0x1;
const RST_STREAM = 0x3;
const SETTINGS = 0x4;
const PUSH_PROMISE = 0x5;
const PING = 0x6;
const GOAWAY = 0x7;
const WINDOW_UPDATE = 0x8;
const CONTINUATION = 0x9;
const END_STREAM = 0x1;
const ACK = 0x1;
const END_HEADERS = 0x4;
const PADDED = 0x8;
const PRIORITY = 0x20;

export const H2_REFUSED_STREAM = 0x7;
const H2_CANCEL = 0x8;

/** RFC 9113 section 7 error codes, by value. */
const ERROR_NAMES = [
  'NO_ERROR',
  'PROTOCOL_ERROR',
  'INTERNAL_ERROR',
  'FLOW_CONTROL_ERROR',
  'SETTINGS_TIMEOUT',
  'STREAM_CLOSED',
  'FRAME_SIZE_ERROR',
  'REFUSED_STREAM',
  'CANCEL',
  'COMPRESSION_ERROR',
  'CONNECT_ERROR',
  'ENHANCE_YOUR_CALM',
  'INADEQUATE_SECURITY',
  'HTTP_1_1_REQUIRED',
];
export const h2ErrorName = (code: number): string => ERROR_NAMES[code] ?? `0x${code.toString(16)}`;

const MAX_STREAM_ID = 2 ** 31 - 1;
/** Receive windows: large, so flow control never throttles a response (h2load uses 2^30 - 1 too). */
const RECEIVE_WINDOW = 2 ** 30;
/** Refill a receive window once this much of it was used. */
const REFILL_AT = 2 ** 29;
const DEFAULT_WINDOW = 65_535;

/** One request on a stream. The session fills in what it learns. */
export interface H2Exchange {
  id: number;
  intendedAt: number;
  startAt: number;
  writtenAt: number;
  firstByteAt: number;
  status: number;
  bodyBytes: number;
  /** Every byte of this stream's frames as they came (9-byte frame headers, compressed headers, data). */
  wireBytes: number;
  server: string | null;
  /** Request body bytes not yet sent (flow control). */
  bodyOffset: number;
  /** This stream's send window (for the request body). */
  sendWindow: number;
  received: number;
  /** Settled: answered, failed or abandoned; later frames for it are dropped. */
  ended: boolean;
}

/** A fresh exchange, not yet given a stream id or written. */
export function newExchange(intendedAt: number, startAt: number): H2Exchange {
  return {
    id: 0,
    intendedAt,
    startAt,
    writtenAt: 0,
    firstByteAt: 0,
    status: 0,
    bodyBytes: 0,
    wireBytes: 0,
    server: null,
    bodyOffset: 0,
    sendWindow: 0,
    received: 0,
    ended: false,
  };
}

export interface H2SessionEvents {
  /** A stream's response is complete. */
  onResponse(ex: H2Exchange): void;
  /** A stream was reset by the server (RST_STREAM with this code). */
  onReset(ex: H2Exchange, code: number): void;
  /** The server sent GOAWAY: streams above lastStreamId were not processed. */
  onGoaway(session: H2Session, lastStreamId: number, code: number): void;
  /** The server's SETTINGS_MAX_CONCURRENT_STREAMS. */
  onMaxStreams(session: H2Session, max: number): void;
  /** The connection ended (error null when it closed cleanly); open streams are listed. */
  onClose(session: H2Session, err: Error | null, open: H2Exchange[]): void;
}

export interface H2SessionConfig {
  /** The request's header block (see hpack.ts), the same on every stream. */
  block: Buffer;
  body: Uint8Array | null;
  /** Whether the first response's Server value is still wanted. */
  wantServer: () => boolean;
}

/**
 * The client's SETTINGS: the default HPACK table size (said outright, see hpack.ts), no push,
 * large stream windows; plus the connection window.
 */
function preamble(): Buffer {
  const settings = Buffer.alloc(9 + 18);
  settings.writeUIntBE(18, 0, 3);
  settings[3] = SETTINGS;
  settings.writeUInt16BE(0x1, 9); // HEADER_TABLE_SIZE
  settings.writeUInt32BE(DECODER_TABLE_SIZE, 11);
  settings.writeUInt16BE(0x2, 15); // ENABLE_PUSH
  settings.writeUInt32BE(0, 17);
  settings.writeUInt16BE(0x4, 21); // INITIAL_WINDOW_SIZE
  settings.writeUInt32BE(RECEIVE_WINDOW, 23);
  return Buffer.concat([PREFACE, settings, windowUpdate(0, RECEIVE_WINDOW - DEFAULT_WINDOW)]);
}

function frameHeader(length: number, type: number, flags: number, id: number): Buffer {
  const h = Buffer.allocUnsafe(9);
  h.writeUIntBE(length, 0, 3);
  h[3] = type;
  h[4] = flags;
  h.writeUInt32BE(id, 5);
  return h;
}

function windowUpdate(id: number, increment: number): Buffer {
  const f = frameHeader(4, WINDOW_UPDATE, 0, id);
  return Buffer.concat([f, u32(increment)]);
}

function u32(v: number): Buffer {
  const b = Buffer.allocUnsafe(4);
  b.writeUInt32BE(v, 0);
  return b;
}

export class H2Session {
  readonly socket: net.Socket;
  private readonly cfg: H2SessionConfig;
  private readonly events: H2SessionEvents;
  private readonly streams = new Map<number, H2Exchange>();
  /** The server's header compression state: every header block on the connection goes through it, in order. */
  private readonly hpack = new HpackDecoder();
  private nextId = 1;
  /** Partial frame kept from the previous read (the read buffer is reused). */
  private pending: Buffer | null = null;
  /** Header block fragments of a HEADERS frame awaiting CONTINUATION. */
  private headerParts: Buffer[] | null = null;
  private headerStream = 0;
  private headerEndStream = false;
  private connReceived = 0;
  private connSendWindow = DEFAULT_WINDOW;
  private peerStreamWindow = DEFAULT_WINDOW;
  private maxFrame = 16_384;
  /** Set once the server sent GOAWAY, or we stopped using this connection. */
  goingAway = false;
  private closed = false;
  /** Time stamp of the read being processed (performance.now()). */
  private now = 0;
  /** Every write of the connection goes through it, in order. */
  private readonly writer: SocketWriter;
  /**
   * HEADERS frames of requests not yet written: the requests a read's responses made room
   * for go out together after the read, those started elsewhere at the end of the current
   * task (a microtask), one write per batch instead of one per request.
   */
  private batch: Buffer = Buffer.allocUnsafe(0);
  private batchLength = 0;
  private reading = false;
  private flushQueued = false;
  private readonly flushBatch = (): void => {
    this.flushQueued = false;
    this.flush();
  };

  constructor(socket: net.Socket, cfg: H2SessionConfig, events: H2SessionEvents) {
    this.socket = socket;
    this.cfg = cfg;
    this.events = events;
    this.writer = new SocketWriter(socket);
    let lastError: Error | null = null;
    socket.on('error', (e: Error) => (lastError = e));
    socket.on('close', () => this.ended(lastError));
    this.send(preamble());
  }

  /** Writes a frame (after the batched HEADERS frames, which it may refer to). */
  private send(bytes: Uint8Array): void {
    if (this.batchLength > 0) this.flush();
    this.writer.write(bytes);
  }

  /** Writes the batched HEADERS frames in one write. */
  private flush(): void {
    const n = this.batchLength;
    if (n === 0) return;
    this.batchLength = 0;
    // Bytes the writer consumed at once leave the buffer free for the next batch.
    if (!this.writer.write(this.batch.subarray(0, n))) this.batch = Buffer.allocUnsafe(this.batch.length);
  }

  /** Room for n more bytes in the batch. */
  private reserve(n: number): void {
    if (this.batchLength + n <= this.batch.length) return;
    const grown = Buffer.allocUnsafe(Math.max(2 * this.batch.length, this.batchLength + n, 1024));
    this.batch.copy(grown, 0, 0, this.batchLength);
    this.batch = grown;
  }

  /** Streams open on this connection. */
  get active(): number {
    return this.streams.size;
  }

  /** Whether another stream can be opened here. */
  get usable(): boolean {
    return !this.goingAway && !this.closed && this.nextId <= MAX_STREAM_ID;
  }

  /** Opens a stream for the exchange and writes its request. */
  request(ex: H2Exchange, now: number): void {
    const id = this.nextId;
    this.nextId += 2;
    if (this.nextId > MAX_STREAM_ID) this.goingAway = true;
    ex.id = id;
    ex.writtenAt = now;
    ex.sendWindow = this.peerStreamWindow;
    this.streams.set(id, ex);
    const block = this.cfg.block;
    const body = this.cfg.body;
    if (block.length <= this.maxFrame) {
      const n = block.length;
      this.reserve(9 + n);
      const f = this.batch;
      const at = this.batchLength;
      // Byte stores and set(): Buffer's write and copy methods check their arguments each call.
      f[at] = n >>> 16;
      f[at + 1] = (n >>> 8) & 0xff;
      f[at + 2] = n & 0xff;
      f[at + 3] = HEADERS;
      f[at + 4] = END_HEADERS | (body === null ? END_STREAM : 0);
      f[at + 5] = id >>> 24;
      f[at + 6] = (id >>> 16) & 0xff;
      f[at + 7] = (id >>> 8) & 0xff;
      f[at + 8] = id & 0xff;
      f.set(block, at + 9);
      this.batchLength = at + 9 + n;
      if (!this.reading && !this.flushQueued) {
        this.flushQueued = true;
        queueMicrotask(this.flushBatch);
      }
    } else {
      const frames: Buffer[] = [];
      for (let off = 0; off < block.length; off += this.maxFrame) {
        const part = block.subarray(off, off + this.maxFrame);
        const last = off + this.maxFrame >= block.length;
        const type = off === 0 ? HEADERS : CONTINUATION;
        const flags = (last ? END_HEADERS : 0) | (off === 0 && body === null ? END_STREAM : 0);
        frames.push(frameHeader(part.length, type, flags, id), part);
      }
      this.send(Buffer.concat(frames));
    }
    if (body !== null) this.sendBody(ex);
  }

  /** Sends as much of the request body as the flow-control windows allow. */
  private sendBody(ex: H2Exchange): void {
    const body = this.cfg.body!;
    while (!ex.ended && ex.bodyOffset < body.length) {
      const n = Math.min(body.length - ex.bodyOffset, ex.sendWindow, this.connSendWindow, this.maxFrame);
      if (n <= 0 && body.length > 0) return;
      const last = ex.bodyOffset + n === body.length;
      this.send(frameHeader(n, DATA, last ? END_STREAM : 0, ex.id));
      if (n > 0) this.send(body.subarray(ex.bodyOffset, ex.bodyOffset + n));
      ex.bodyOffset += n;
      ex.sendWindow -= n;
      this.connSendWindow -= n;
      if (last) return;
    }
  }

  /** Gives up on a stream (timeout): RST_STREAM(CANCEL), later frames dropped. */
  cancel(ex: H2Exchange): void {
    ex.ended = true;
    if (this.streams.delete(ex.id) && !this.closed) {
      this.send(Buffer.concat([frameHeader(4, RST_STREAM, 0, ex.id), u32(H2_CANCEL)]));
    }
  }

  /** Stops tracking a stream the server will never answer (above GOAWAY's last stream). */
  forget(ex: H2Exchange): void {
    this.streams.delete(ex.id);
  }

  /** Drops the connection now (end of run, keep-alive off, or a protocol error). */
  destroy(): void {
    this.goingAway = true;
    this.socket.destroy();
  }

  /** Bytes from the socket (net's onread: valid only during the call). */
  onRead(n: number, buf: Buffer): void {
    if (this.closed) return;
    this.now = performance.now();
    this.reading = true;
    try {
      this.readFrames(n, buf);
    } finally {
      this.reading = false;
    }
    if (!this.closed) this.flush();
  }

  private readFrames(n: number, buf: Buffer): void {
    let pos = 0;
    try {
      if (this.pending !== null) {
        pos = this.completePending(buf, n);
        if (pos < 0 || this.closed) return;
      }
      while (n - pos >= 9) {
        const len = (buf[pos]! << 16) | (buf[pos + 1]! << 8) | buf[pos + 2]!;
        if (n - pos < 9 + len) break;
        this.frame(buf, pos, len);
        pos += 9 + len;
        if (this.closed) return;
      }
    } catch (e) {
      this.protocolError(e instanceof Error ? e.message : String(e));
      return;
    }
    if (pos < n) this.pending = Buffer.from(buf.subarray(pos, n));
  }

  /**
   * Finishes the frame the last read left partial with only the bytes it lacks (not the whole
   * read: a large response splits frames across nearly every read). Returns where the next
   * frame starts in buf, or -1 when this read did not complete it either.
   */
  private completePending(buf: Buffer, n: number): number {
    const kept = this.pending!;
    this.pending = null;
    if (kept.length < 9 && kept.length + n < 9) {
      this.pending = Buffer.concat([kept, buf.subarray(0, n)]);
      return -1;
    }
    const lengthByte = (i: number): number => (i < kept.length ? kept[i]! : buf[i - kept.length]!);
    const len = (lengthByte(0) << 16) | (lengthByte(1) << 8) | lengthByte(2);
    const take = 9 + len - kept.length;
    if (take > n) {
      this.pending = Buffer.concat([kept, buf.subarray(0, n)]);
      return -1;
    }
    this.frame(Buffer.concat([kept, buf.subarray(0, take)]), 0, len);
    return take;
  }

  private frame(b: Buffer, at: number, len: number): void {
    const type = b[at + 3]!;
    const flags = b[at + 4]!;
    const id = b.readUInt32BE(at + 5) & 0x7fffffff;
    const p = at + 9;
    switch (type) {
      case DATA: {
        this.connReceived += len;
        if (this.connReceived >= REFILL_AT) {
          this.send(windowUpdate(0, this.connReceived));
          this.connReceived = 0;
        }
        const ex = this.streams.get(id);
        if (ex === undefined) return;
        const pad = flags & PADDED ? b[p]! + 1 : 0;
        ex.bodyBytes += len - pad;
        ex.wireBytes += 9 + len;
        ex.received += len;
        if (ex.received >= REFILL_AT && (flags & END_STREAM) === 0) {
          this.send(windowUpdate(id, ex.received));
          ex.received = 0;
        }
        if (flags & END_STREAM) this.complete(ex);
        return;
      }
      case HEADERS: {
        let from = p;
        let to = p + len;
        if (flags & PADDED) to -= b[from++]!;
        if (flags & PRIORITY) from += 5;
        if (from > to) throw new Error('malformed HEADERS frame');
        const ex = this.streams.get(id);
        if (ex !== undefined) ex.wireBytes += 9 + len;
        if (flags & END_HEADERS) {
          this.headersDone(id, b, from, to, (flags & END_STREAM) !== 0);
        } else {
          this.headerParts = [Buffer.from(b.subarray(from, to))];
          this.headerStream = id;
          this.headerEndStream = (flags & END_STREAM) !== 0;
        }
        return;
      }
      case CONTINUATION: {
        if (this.headerParts === null || id !== this.headerStream)
          throw new Error('unexpected CONTINUATION frame');
        this.headerParts.push(Buffer.from(b.subarray(p, p + len)));
        const ex = this.streams.get(id);
        if (ex !== undefined) ex.wireBytes += 9 + len;
        if (flags & END_HEADERS) {
          const block = Buffer.concat(this.headerParts);
          this.headerParts = null;
          this.headersDone(id, block, 0, block.length, this.headerEndStream);
        }
        return;
      }
      case RST_STREAM: {
        const ex = this.streams.get(id);
        if (ex === undefined) return;
        this.streams.delete(id);
        ex.ended = true;
        this.events.onReset(ex, b.readUInt32BE(p));
        return;
      }
      case SETTINGS: {
        if (flags & ACK) return;
        for (let q = p; q + 6 <= p + len; q += 6) {
          const key = b.readUInt16BE(q);
          const value = b.readUInt32BE(q + 2);
          if (key === 0x3) this.events.onMaxStreams(this, value);
          else if (key === 0x4) {
            const delta = value - this.peerStreamWindow;
            this.peerStreamWindow = value;
            for (const ex of this.streams.values()) ex.sendWindow += delta;
          } else if (key === 0x5) this.maxFrame = value;
        }
        this.send(frameHeader(0, SETTINGS, ACK, 0));
        if (this.cfg.body !== null) this.flushBodies();
        return;
      }
      case PING: {
        if ((flags & ACK) === 0) {
          this.send(Buffer.concat([frameHeader(8, PING, ACK, 0), b.subarray(p, p + 8)]));
        }
        return;
      }
      case GOAWAY: {
        this.goingAway = true;
        this.events.onGoaway(this, b.readUInt32BE(p) & 0x7fffffff, b.readUInt32BE(p + 4));
        return;
      }
      case WINDOW_UPDATE: {
        const inc = b.readUInt32BE(p) & 0x7fffffff;
        if (id === 0) this.connSendWindow += inc;
        else {
          const ex = this.streams.get(id);
          if (ex !== undefined) ex.sendWindow += inc;
        }
        if (this.cfg.body !== null) this.flushBodies();
        return;
      }
      case PUSH_PROMISE:
        throw new Error('server pushed a stream though the client disabled push');
      default:
        // PRIORITY and unknown frame types carry nothing the client needs.
        return;
    }
  }

  private headersDone(id: number, block: Buffer, from: number, to: number, endStream: boolean): void {
    const ex = this.streams.get(id);
    // Every block is decoded, even for a stream we gave up on: it may change the dynamic table.
    const head = this.hpack.decode(
      block,
      from,
      to,
      ex !== undefined && ex.status === 0 && this.cfg.wantServer(),
    );
    if (ex === undefined) return;
    if (head.status >= 100 && head.status < 200) {
      // Informational: the final response follows on the same stream.
      if (ex.firstByteAt === 0) ex.firstByteAt = this.now;
      return;
    }
    if (ex.status === 0 && head.status !== 0) {
      ex.status = head.status;
      ex.server = head.server;
      if (ex.firstByteAt === 0) ex.firstByteAt = this.now;
    }
    if (endStream) this.complete(ex);
  }

  private complete(ex: H2Exchange): void {
    this.streams.delete(ex.id);
    if (ex.status === 0) {
      ex.ended = true;
      this.events.onReset(ex, 0x1); // a stream that ended without a response head
      return;
    }
    this.events.onResponse(ex);
  }

  private flushBodies(): void {
    for (const ex of this.streams.values()) {
      if (ex.bodyOffset < this.cfg.body!.length) this.sendBody(ex);
    }
  }

  /** Read time of the frames being handled. */
  get readAt(): number {
    return this.now;
  }

  private protocolError(message: string): void {
    this.closed = true;
    this.goingAway = true;
    const open = [...this.streams.values()];
    this.streams.clear();
    this.socket.destroy();
    this.events.onClose(this, Object.assign(new Error(message), { code: 'ERR_HTTP2_PROTOCOL_ERROR' }), open);
  }

  private ended(err: Error | null): void {
    if (this.closed) return;
    this.closed = true;
    this.goingAway = true;
    const open = [...this.streams.values()];
    this.streams.clear();
    this.events.onClose(this, err, open);
  }
}
