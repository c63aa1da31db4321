import type net from 'node:net';
import { connectionError, H2_CODE, H2ConnectionError, h2ErrorName } from './h2-errors.ts';
import { checkFrameHeader, contentStart, FLAG, FRAME, frameName, padLength } from './h2-rules.ts';
import { MAX_WINDOW, MIN_MAX_FRAME_SIZE, readSettings, SETTING } from './h2-settings.ts';
import { DECODER_TABLE_SIZE, HeaderListTooLargeError, HpackDecoder, HpackError } from './hpack.ts';
import { SocketWriter } from './socket-writer.ts';

/**
 * One HTTP/2 connection (RFC 9113) on a raw socket: the client side of the framing layer,
 * just what a load generator needs. Requests reuse one precomputed header block; responses
 * are framed, their :status read, their DATA counted and dropped. node:http2 builds a Duplex
 * stream, a header object and several closures per request, which caps it near 10k requests
 * per CPU-second; this does the same work at HTTP/1.1 speed.
 *
 * The server is not trusted: every frame is checked against RFC 9113 before it is used or
 * buffered (frame sizes, stream states, padding, SETTINGS ranges, flow-control windows), a
 * header block may not grow past the client's limit, and answers to PING and SETTINGS may not
 * pile up unread. A connection error sends GOAWAY with the RFC's code and closes; a stream
 * error resets that stream only. Either fails the requests it cuts off, as protocol errors.
 */

const PREFACE = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'latin1');

const MAX_STREAM_ID = 2 ** 31 - 1;
/** Receive windows: large, so flow control never throttles a response (h2load uses 2^30 - 1 too). */
const RECEIVE_WINDOW = 2 ** 30;
/** Refill a receive window once this much of it was used. */
const REFILL_AT = 2 ** 29;
const DEFAULT_WINDOW = 65_535;

/** The largest frame the server may send: the client never raises SETTINGS_MAX_FRAME_SIZE. */
const MAX_FRAME_RECEIVED = MIN_MAX_FRAME_SIZE;
/**
 * SETTINGS and PING answers the session queues while the socket's buffer is full, at most:
 * a server that floods them and never reads the answers would otherwise grow it without
 * bound (nghttp2 allows 1000 queued ACKs as well).
 */
const MAX_QUEUED_CONTROL = 1000;
/** Streams given up (cancelled or reset by us) whose late frames are still dropped quietly. */
const MAX_ABANDONED = 4096;
/** How long a connection closed with GOAWAY waits for the server to read it before it is destroyed. */
const GOAWAY_LINGER_MS = 1000;

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
  /** Times the request went out again after the server refused it or left it unprocessed. */
  retries: number;
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
    retries: 0,
  };
}

export interface H2SessionEvents {
  /** A stream's response is complete. */
  onResponse(ex: H2Exchange): void;
  /** A stream was reset by the server (RST_STREAM with this code). */
  onReset(ex: H2Exchange, code: number): void;
  /** A stream broke the protocol (the session reset it); the rest of the connection goes on. */
  onStreamError(ex: H2Exchange, message: string): void;
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
  /**
   * The largest response header block (HEADERS and CONTINUATION payloads) and decoded
   * header list the client accepts; announced as SETTINGS_MAX_HEADER_LIST_SIZE.
   */
  maxHeaderBytes: number;
}

/**
 * The client's SETTINGS: the default HPACK table size (said outright, see hpack.ts), no push,
 * large stream windows, the header list limit; plus the connection window.
 */
function preamble(maxHeaderBytes: number): Buffer {
  const pairs: [number, number][] = [
    [SETTING.HEADER_TABLE_SIZE, DECODER_TABLE_SIZE],
    [SETTING.ENABLE_PUSH, 0],
    [SETTING.INITIAL_WINDOW_SIZE, RECEIVE_WINDOW],
    [SETTING.MAX_HEADER_LIST_SIZE, maxHeaderBytes],
  ];
  const settings = Buffer.alloc(9 + 6 * pairs.length);
  settings.writeUIntBE(6 * pairs.length, 0, 3);
  settings[3] = FRAME.SETTINGS;
  pairs.forEach(([key, value], i) => {
    settings.writeUInt16BE(key, 9 + 6 * i);
    settings.writeUInt32BE(value, 11 + 6 * i);
  });
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
  const f = frameHeader(4, FRAME.WINDOW_UPDATE, 0, id);
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
  private readonly hpack: HpackDecoder;
  private nextId = 1;
  /** Partial frame kept from the previous read (the read buffer is reused). */
  private pending: Buffer | null = null;
  /** Header block fragments of a HEADERS frame awaiting CONTINUATION. */
  private headerParts: Buffer[] | null = null;
  private headerStream = 0;
  private headerEndStream = false;
  /** Bytes of the header block being received, over its HEADERS and CONTINUATION frames. */
  private headerBytes = 0;
  /** Streams the client gave up on, oldest first: frames the server sent before it knew are dropped. */
  private readonly abandoned = new Set<number>();
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

  /** SETTINGS and PING answers written since the connection's writes last caught up while backlogged. */
  private queuedControl = 0;
  private connReceived = 0;
  private connSendWindow = DEFAULT_WINDOW;
  private peerStreamWindow = DEFAULT_WINDOW;
  private maxFrame = MIN_MAX_FRAME_SIZE;
  /** Set once the server sent GOAWAY, or we stopped using this connection. */
  goingAway = false;
  private closed = false;
  /** Time stamp of the read being processed (performance.now()). */
  private now = 0;

  constructor(socket: net.Socket, cfg: H2SessionConfig, events: H2SessionEvents) {
    this.socket = socket;
    this.cfg = cfg;
    this.events = events;
    this.hpack = new HpackDecoder(DECODER_TABLE_SIZE, cfg.maxHeaderBytes);
    this.writer = new SocketWriter(socket);
    let lastError: Error | null = null;
    socket.on('error', (e: Error) => (lastError = e));
    socket.on('close', () => this.ended(lastError));
    // Writes that fall back to the Writable (see SocketWriter) report their backlog this way.
    socket.on('drain', () => (this.queuedControl = 0));
    this.send(preamble(cfg.maxHeaderBytes));
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
      f[at + 3] = FRAME.HEADERS;
      f[at + 4] = FLAG.END_HEADERS | (body === null ? FLAG.END_STREAM : 0);
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
        const type = off === 0 ? FRAME.HEADERS : FRAME.CONTINUATION;
        const flags = (last ? FLAG.END_HEADERS : 0) | (off === 0 && body === null ? FLAG.END_STREAM : 0);
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
      this.send(frameHeader(n, FRAME.DATA, last ? FLAG.END_STREAM : 0, ex.id));
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
      this.abandon(ex.id);
      this.send(Buffer.concat([frameHeader(4, FRAME.RST_STREAM, 0, ex.id), u32(H2_CODE.CANCEL)]));
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
        // Checked before waiting for the rest: a frame is never buffered past the limit.
        if (len > MAX_FRAME_RECEIVED) frameTooLarge(buf[pos + 3]!, len);
        if (n - pos < 9 + len) break;
        this.frame(buf, pos, len);
        pos += 9 + len;
        if (this.closed) return;
      }
    } catch (e) {
      this.connectionFailed(e);
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
    const byte = (i: number): number => (i < kept.length ? kept[i]! : buf[i - kept.length]!);
    const len = (byte(0) << 16) | (byte(1) << 8) | byte(2);
    if (len > MAX_FRAME_RECEIVED) frameTooLarge(byte(3), len);
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
    if (this.headerParts !== null && (type !== FRAME.CONTINUATION || id !== this.headerStream)) {
      connectionError(
        `${frameName(type)} frame on stream ${id} in the middle of stream ${this.headerStream}'s header block (RFC 9113 section 6.10)`,
      );
    }
    checkFrameHeader(type, flags, id, len);
    switch (type) {
      case FRAME.DATA:
        return this.data(b, p, len, flags, id);
      case FRAME.HEADERS:
        return this.headers(b, p, len, flags, id);
      case FRAME.CONTINUATION:
        return this.continuation(b, p, len, flags, id);
      case FRAME.RST_STREAM: {
        const ex = this.known(id, type);
        if (ex === null) return;
        this.streams.delete(id);
        ex.ended = true;
        this.events.onReset(ex, b.readUInt32BE(p));
        return;
      }
      case FRAME.SETTINGS:
        if ((flags & FLAG.ACK) === 0) this.settings(b, p, len);
        return;
      case FRAME.PING:
        if ((flags & FLAG.ACK) === 0) {
          this.answer(Buffer.concat([frameHeader(8, FRAME.PING, FLAG.ACK, 0), b.subarray(p, p + 8)]));
        }
        return;
      case FRAME.GOAWAY:
        this.goingAway = true;
        this.events.onGoaway(this, b.readUInt32BE(p) & 0x7fffffff, b.readUInt32BE(p + 4));
        return;
      case FRAME.WINDOW_UPDATE:
        return this.windowUpdate(b.readUInt32BE(p) & 0x7fffffff, id);
      case FRAME.PRIORITY: {
        // Deprecated (section 5.3.2) and ignored, but still framed: 5 bytes, else a stream error.
        const ex = this.streams.get(id);
        if (len !== 5 && ex !== undefined) {
          this.streamError(ex, H2_CODE.FRAME_SIZE_ERROR, `PRIORITY frame of ${len} bytes, not 5`);
        }
        return;
      }
      case FRAME.PUSH_PROMISE:
        return connectionError(
          'server sent PUSH_PROMISE though the client disabled push (SETTINGS_ENABLE_PUSH = 0, RFC 9113 section 8.4)',
        );
      default:
        // Unknown frame types carry nothing the client needs (section 4.1: ignore them).
        return;
    }
  }

  private data(b: Buffer, p: number, len: number, flags: number, id: number): void {
    const from = contentStart(b, p, len, flags, FRAME.DATA);
    const to = p + len - padLength(b, p, flags);
    // The whole payload, padding included, counts against the windows (section 6.9.1).
    this.connReceived += len;
    if (this.connReceived > RECEIVE_WINDOW) {
      connectionError('server sent more DATA than the connection window allows', H2_CODE.FLOW_CONTROL_ERROR);
    }
    if (this.connReceived >= REFILL_AT) {
      this.send(windowUpdate(0, this.connReceived));
      this.connReceived = 0;
    }
    const ex = this.openStream(id, FRAME.DATA);
    if (ex === null) return;
    ex.bodyBytes += to - from;
    ex.wireBytes += 9 + len;
    ex.received += len;
    if (ex.received > RECEIVE_WINDOW) {
      connectionError(`server sent more DATA than stream ${id}'s window allows`, H2_CODE.FLOW_CONTROL_ERROR);
    }
    if (ex.received >= REFILL_AT && (flags & FLAG.END_STREAM) === 0) {
      this.send(windowUpdate(id, ex.received));
      ex.received = 0;
    }
    if (flags & FLAG.END_STREAM) this.complete(ex);
  }

  private headers(b: Buffer, p: number, len: number, flags: number, id: number): void {
    const from = contentStart(b, p, len, flags, FRAME.HEADERS);
    const to = p + len - padLength(b, p, flags);
    const ex = this.openStream(id, FRAME.HEADERS);
    if (ex !== null) ex.wireBytes += 9 + len;
    this.headerBytes = 0;
    this.addHeaderBytes(to - from);
    if (flags & FLAG.END_HEADERS) {
      this.headersDone(id, b, from, to, (flags & FLAG.END_STREAM) !== 0);
    } else {
      this.headerParts = [Buffer.from(b.subarray(from, to))];
      this.headerStream = id;
      this.headerEndStream = (flags & FLAG.END_STREAM) !== 0;
    }
  }

  private continuation(b: Buffer, p: number, len: number, flags: number, id: number): void {
    if (this.headerParts === null) connectionError('CONTINUATION frame without a HEADERS frame before it');
    this.addHeaderBytes(len);
    this.headerParts.push(Buffer.from(b.subarray(p, p + len)));
    const ex = this.streams.get(id);
    if (ex !== undefined) ex.wireBytes += 9 + len;
    if (flags & FLAG.END_HEADERS) {
      const block = Buffer.concat(this.headerParts);
      this.headerParts = null;
      this.headersDone(id, block, 0, block.length, this.headerEndStream);
    }
  }

  /**
   * A header block must be decoded whole to keep the HPACK table in step, so one that outgrows
   * the limit (a CONTINUATION flood) costs the connection, before it is buffered any further.
   */
  private addHeaderBytes(n: number): void {
    this.headerBytes += n;
    if (this.headerBytes > this.cfg.maxHeaderBytes) {
      connectionError(
        `response header block larger than ${this.cfg.maxHeaderBytes} bytes (the client's limit)`,
        H2_CODE.ENHANCE_YOUR_CALM,
      );
    }
  }

  private settings(b: Buffer, p: number, len: number): void {
    const change = readSettings(b, p, len);
    if (change.initialWindowSize !== null) {
      // The change applies to every open stream's window (section 6.9.2).
      const delta = change.initialWindowSize - this.peerStreamWindow;
      for (const ex of this.streams.values()) {
        if (ex.sendWindow + delta > MAX_WINDOW) {
          connectionError(
            `SETTINGS_INITIAL_WINDOW_SIZE = ${change.initialWindowSize} takes stream ${ex.id}'s window above 2^31-1`,
            H2_CODE.FLOW_CONTROL_ERROR,
          );
        }
      }
      this.peerStreamWindow = change.initialWindowSize;
      for (const ex of this.streams.values()) ex.sendWindow += delta;
    }
    if (change.maxFrameSize !== null) this.maxFrame = change.maxFrameSize;
    if (change.maxConcurrentStreams !== null) this.events.onMaxStreams(this, change.maxConcurrentStreams);
    this.answer(frameHeader(0, FRAME.SETTINGS, FLAG.ACK, 0));
    if (this.cfg.body !== null) this.flushBodies();
  }

  private windowUpdate(inc: number, id: number): void {
    if (id === 0) {
      if (inc === 0) connectionError('WINDOW_UPDATE of 0 on the connection (RFC 9113 section 6.9)');
      if (this.connSendWindow + inc > MAX_WINDOW) {
        connectionError(
          'WINDOW_UPDATE takes the connection window above 2^31-1 (RFC 9113 section 6.9.1)',
          H2_CODE.FLOW_CONTROL_ERROR,
        );
      }
      this.connSendWindow += inc;
    } else {
      const ex = this.known(id, FRAME.WINDOW_UPDATE);
      if (ex === null) return;
      if (inc === 0) {
        return this.streamError(
          ex,
          H2_CODE.PROTOCOL_ERROR,
          'WINDOW_UPDATE of 0 on the stream (RFC 9113 section 6.9)',
        );
      }
      if (ex.sendWindow + inc > MAX_WINDOW) {
        return this.streamError(
          ex,
          H2_CODE.FLOW_CONTROL_ERROR,
          "WINDOW_UPDATE takes the stream's window above 2^31-1 (RFC 9113 section 6.9.1)",
        );
      }
      ex.sendWindow += inc;
    }
    if (this.cfg.body !== null) this.flushBodies();
  }

  /**
   * The open stream a DATA or HEADERS frame is for; null for one the client gave up on (its
   * late frames are dropped). A stream the client never opened, or one already closed, is a
   * connection error (section 5.1).
   */
  private openStream(id: number, type: number): H2Exchange | null {
    const ex = this.known(id, type);
    if (ex !== null || this.abandoned.has(id)) return ex;
    return connectionError(
      `${frameName(type)} frame on stream ${id}, which was already closed (RFC 9113 section 5.1)`,
      H2_CODE.STREAM_CLOSED,
    );
  }

  /** The open stream with this id; null when it is closed; a connection error when it is idle. */
  private known(id: number, type: number): H2Exchange | null {
    const ex = this.streams.get(id);
    if (ex !== undefined) return ex;
    if (id % 2 === 0 || id >= this.nextId) {
      connectionError(
        `${frameName(type)} frame on stream ${id}, which the client never opened (RFC 9113 section 5.1)`,
      );
    }
    return null;
  }

  private abandon(id: number): void {
    this.abandoned.add(id);
    if (this.abandoned.size > MAX_ABANDONED) {
      for (const oldest of this.abandoned) {
        this.abandoned.delete(oldest);
        break;
      }
    }
  }

  /** A stream error (section 5.4.2): RST_STREAM with the code; that request fails, the connection goes on. */
  private streamError(ex: H2Exchange, code: number, message: string): void {
    this.streams.delete(ex.id);
    ex.ended = true;
    this.abandon(ex.id);
    this.send(Buffer.concat([frameHeader(4, FRAME.RST_STREAM, 0, ex.id), u32(code)]));
    this.events.onStreamError(ex, `${message}; stream reset with ${h2ErrorName(code)}`);
  }

  /** Writes a SETTINGS or PING answer, unless the server keeps asking without reading them. */
  private answer(frame: Buffer): void {
    if (!this.writer.backlogged) this.queuedControl = 0;
    else if (++this.queuedControl > MAX_QUEUED_CONTROL) {
      connectionError(
        `server sent more than ${MAX_QUEUED_CONTROL} SETTINGS and PING frames without reading the answers`,
        H2_CODE.ENHANCE_YOUR_CALM,
      );
    }
    this.send(frame);
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
      this.events.onStreamError(ex, 'the server ended the stream without a response (no :status)');
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

  /**
   * A connection error: GOAWAY with its code (last stream 0: the client accepts no streams of
   * the server's), then the connection closes and its open streams fail.
   */
  private connectionFailed(e: unknown): void {
    const code =
      e instanceof H2ConnectionError
        ? e.h2Code
        : e instanceof HeaderListTooLargeError
          ? H2_CODE.ENHANCE_YOUR_CALM
          : e instanceof HpackError
            ? H2_CODE.COMPRESSION_ERROR
            : H2_CODE.PROTOCOL_ERROR;
    const message = `${e instanceof Error ? e.message : String(e)}; connection closed with GOAWAY ${h2ErrorName(code)}`;
    this.closed = true;
    this.goingAway = true;
    const open = [...this.streams.values()];
    this.streams.clear();
    const socket = this.socket;
    if (socket.writableNeedDrain) {
      // The server is not reading: a GOAWAY would only queue behind what it left unread.
      socket.destroy();
    } else {
      socket.end(Buffer.concat([frameHeader(8, FRAME.GOAWAY, 0, 0), u32(0), u32(code)]));
      setTimeout(() => socket.destroy(), GOAWAY_LINGER_MS).unref();
    }
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

function frameTooLarge(type: number, len: number): never {
  return connectionError(
    `${frameName(type)} frame of ${len} bytes, above the ${MAX_FRAME_RECEIVED}-byte SETTINGS_MAX_FRAME_SIZE the client allows (RFC 9113 section 4.2)`,
    H2_CODE.FRAME_SIZE_ERROR,
  );
}
