import type net from 'node:net';
import {
  connectionError,
  H2_CODE,
  H2ConnectionError,
  h2ErrorName,
  UnsolicitedFrameError,
} from './errors.ts';
import { checkFrameHeader, contentStart, FLAG, FRAME, frameName, padLength } from './rules.ts';
import type { H2Exchange, H2SessionConfig, H2SessionEvents } from './exchange.ts';
import { H2FrameReader } from './frame-reader.ts';
import { H2FrameWriter } from './frame-writer.ts';
import {
  goaway,
  pingAck,
  preamble,
  RECEIVE_WINDOW,
  rstStream,
  settingsAck,
  windowUpdate,
} from './frames.ts';
import { H2HeaderBlock } from './header-block.ts';
import { H2Streams } from './streams.ts';
import { H2SendFlow } from './send-flow.ts';
import { readSettings } from './settings.ts';
import {
  DECODER_TABLE_SIZE,
  HeaderListTooLargeError,
  HpackDecoder,
  HpackError,
  MALFORMED_STATUS,
} from '../hpack/decoder.ts';

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
 * error resets that stream only. Either fails the requests it cuts off, as protocol errors;
 * a request whose HEADERS frame had not gone out yet is handed back unwritten. A frame on a
 * stream the server already ended answers no request: the client hears of it apart.
 * The frames it writes are built in frames.ts and written through frame-writer.ts.
 */

/** Refill a receive window once this much of it was used. */
const REFILL_AT = 2 ** 29;

/**
 * SETTINGS and PING answers the session queues while the socket's buffer is full, at most:
 * a server that floods them and never reads the answers would otherwise grow it without
 * bound (nghttp2 allows 1000 queued ACKs as well).
 */
const MAX_QUEUED_CONTROL = 1000;
/** How long a connection closed with GOAWAY waits for the server to read it before it is destroyed. */
const GOAWAY_LINGER_MS = 1000;

/** The GOAWAY code a connection error closes with. */
function goawayCodeOf(e: unknown): number {
  if (e instanceof H2ConnectionError) return e.h2Code;
  if (e instanceof HeaderListTooLargeError) return H2_CODE.ENHANCE_YOUR_CALM;
  return e instanceof HpackError ? H2_CODE.COMPRESSION_ERROR : H2_CODE.PROTOCOL_ERROR;
}

export class H2Session {
  readonly socket: net.Socket;
  private readonly cfg: H2SessionConfig;
  private readonly events: H2SessionEvents<H2Session>;
  private readonly streams = new H2Streams();
  /** The server's header compression state: every header block on the connection goes through it, in order. */
  private readonly hpack: HpackDecoder;
  private readonly reader = new H2FrameReader(
    (b, at, len) => this.frame(b, at, len),
    () => this.closed,
  );
  /** A header block awaiting CONTINUATION. */
  private readonly headerBlock: H2HeaderBlock;
  /** Every write of the connection goes through it, in order. */
  private readonly out: H2FrameWriter;
  /** SETTINGS and PING answers written since the connection's writes last caught up while backlogged. */
  private queuedControl = 0;
  private connReceived = 0;
  /** The send windows and the request bodies they let out. */
  private readonly flow: H2SendFlow;
  /** Set once the server sent GOAWAY, or we stopped using this connection. */
  goingAway = false;
  private closed = false;
  /** Time stamp of the read being processed (performance.now()). */
  private now = 0;

  constructor(socket: net.Socket, cfg: H2SessionConfig, events: H2SessionEvents<H2Session>) {
    this.socket = socket;
    this.cfg = cfg;
    this.events = events;
    this.hpack = new HpackDecoder(DECODER_TABLE_SIZE, cfg.maxHeaderBytes);
    this.headerBlock = new H2HeaderBlock(cfg.maxHeaderBytes);
    this.out = new H2FrameWriter(socket);
    this.flow = new H2SendFlow(this.out, cfg.body);
    let lastError: Error | null = null;
    socket.on('error', (e: Error) => (lastError = e));
    socket.on('close', () => this.ended(lastError));
    // Writes that fall back to the Writable (see SocketWriter) report their backlog this way.
    socket.on('drain', () => (this.queuedControl = 0));
    this.out.send(preamble(cfg.maxHeaderBytes));
  }

  /** Streams open on this connection. */
  get active(): number {
    return this.streams.size;
  }

  /** Whether another stream can be opened here. */
  get usable(): boolean {
    return !this.goingAway && !this.closed && !this.streams.exhausted;
  }

  /** Opens a stream for the exchange and writes its request (its list's, else the session's one). */
  request(ex: H2Exchange, now: number): void {
    const id = this.streams.add(ex);
    this.goingAway ||= this.streams.exhausted;
    ex.writtenAt = now;
    this.out.headers(id, (ex.request ?? this.cfg).block, !(ex.request ?? this.cfg).body, this.flow.maxFrame);
    this.flow.opened(ex);
  }

  /** Gives up on a stream (timeout): RST_STREAM(CANCEL), later frames dropped. */
  cancel(ex: H2Exchange): void {
    ex.ended = true;
    if (this.streams.delete(ex.id) && !this.closed) {
      this.streams.abandon(ex.id);
      this.out.send(rstStream(ex.id, H2_CODE.CANCEL));
    }
  }

  /** Stops tracking a stream the server will never answer (above GOAWAY's last stream). */
  forget(ex: H2Exchange): void {
    this.streams.delete(ex.id);
  }

  /** Drops the connection now (end of run, keep-alive off, or a protocol error). */
  destroy(): void {
    this.goingAway = true;
    // Nothing more of it is read, not even the rest of the read being handled.
    this.closed = true;
    this.socket.destroy();
  }

  /** Bytes from the socket (net's onread: valid only during the call). */
  onRead(n: number, buf: Buffer): void {
    if (this.closed) return;
    this.now = performance.now();
    this.out.reading = true;
    try {
      this.readFrames(n, buf);
    } finally {
      this.out.reading = false;
    }
    if (!this.closed) this.out.flush();
  }

  private readFrames(n: number, buf: Buffer): void {
    try {
      this.reader.read(buf, n);
    } catch (e) {
      this.connectionFailed(e);
    }
  }

  private frame(b: Buffer, at: number, len: number): void {
    const type = b[at + 3]!;
    const flags = b[at + 4]!;
    const id = b.readUInt32BE(at + 5) & 0x7fffffff;
    const p = at + 9;
    const held = this.headerBlock;
    if (held.open && (type !== FRAME.CONTINUATION || id !== held.stream)) {
      connectionError(
        `${frameName(type)} frame on stream ${id} in the middle of stream ${held.stream}'s header block (RFC 9113 section 6.10)`,
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
        const ex = this.streams.known(id, type);
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
          this.answer(pingAck(b.subarray(p, p + 8)));
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
      this.out.send(windowUpdate(0, this.connReceived));
      this.connReceived = 0;
    }
    const ex = this.streams.receiving(id, FRAME.DATA);
    if (ex === null) return;
    ex.bodyBytes += to - from;
    ex.wireBytes += 9 + len;
    ex.received += len;
    if (ex.received > RECEIVE_WINDOW) {
      connectionError(`server sent more DATA than stream ${id}'s window allows`, H2_CODE.FLOW_CONTROL_ERROR);
    }
    if (ex.received >= REFILL_AT && (flags & FLAG.END_STREAM) === 0) {
      this.out.send(windowUpdate(id, ex.received));
      ex.received = 0;
    }
    if (flags & FLAG.END_STREAM) this.complete(ex);
  }

  private headers(b: Buffer, p: number, len: number, flags: number, id: number): void {
    const from = contentStart(b, p, len, flags, FRAME.HEADERS);
    const to = p + len - padLength(b, p, flags);
    const ex = this.streams.receiving(id, FRAME.HEADERS);
    if (ex !== null) ex.wireBytes += 9 + len;
    this.headerBlock.headers(b, from, to, id, flags);
    if (flags & FLAG.END_HEADERS) this.headersDone(id, b, from, to, (flags & FLAG.END_STREAM) !== 0);
  }

  private continuation(b: Buffer, p: number, len: number, flags: number, id: number): void {
    const block = this.headerBlock.continuation(b, p, len, flags);
    const ex = this.streams.get(id);
    if (ex !== undefined) ex.wireBytes += 9 + len;
    if (block !== null) this.headersDone(id, block, 0, block.length, this.headerBlock.endStream);
  }

  private settings(b: Buffer, p: number, len: number): void {
    const change = readSettings(b, p, len);
    if (change.initialWindowSize !== null)
      this.flow.initialWindow(change.initialWindowSize, this.streams.values());
    if (change.maxFrameSize !== null) this.flow.maxFrame = change.maxFrameSize;
    if (change.maxConcurrentStreams !== null) this.events.onMaxStreams(this, change.maxConcurrentStreams);
    this.answer(settingsAck());
    this.flow.flush(this.streams.values());
  }

  private windowUpdate(inc: number, id: number): void {
    if (id === 0) {
      this.flow.connectionUpdate(inc);
    } else {
      const ex = this.streams.known(id, FRAME.WINDOW_UPDATE);
      if (ex === null) return;
      const error = this.flow.streamUpdate(ex, inc);
      if (error !== null) return this.streamError(ex, error.code, error.message);
    }
    this.flow.flush(this.streams.values());
  }

  /** A stream error (section 5.4.2): RST_STREAM with the code; that request fails, the connection goes on. */
  private streamError(ex: H2Exchange, code: number, message: string): void {
    this.streams.delete(ex.id);
    ex.ended = true;
    this.streams.abandon(ex.id);
    this.out.send(rstStream(ex.id, code));
    this.events.onStreamError(ex, `${message}; stream reset with ${h2ErrorName(code)}`);
  }

  /** Writes a SETTINGS or PING answer, unless the server keeps asking without reading them. */
  private answer(frame: Buffer): void {
    if (!this.out.backlogged) this.queuedControl = 0;
    else if (++this.queuedControl > MAX_QUEUED_CONTROL) {
      connectionError(
        `server sent more than ${MAX_QUEUED_CONTROL} SETTINGS and PING frames without reading the answers`,
        H2_CODE.ENHANCE_YOUR_CALM,
      );
    }
    this.out.send(frame);
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
    if (head.status === MALFORMED_STATUS) {
      this.streamError(
        ex,
        H2_CODE.PROTOCOL_ERROR,
        'malformed :status in the response (three digits from 100 to 999, RFC 9110 section 15)',
      );
      return;
    }
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

  /** Read time of the frames being handled. */
  get readAt(): number {
    return this.now;
  }

  /**
   * A connection error: GOAWAY with its code (last stream 0: the client accepts no streams of
   * the server's), then the connection closes and its open streams fail.
   */
  private connectionFailed(e: unknown): void {
    const code = goawayCodeOf(e);
    const message = `${e instanceof Error ? e.message : String(e)}; connection closed with GOAWAY ${h2ErrorName(code)}`;
    this.closed = true;
    this.goingAway = true;
    if (e instanceof UnsolicitedFrameError) this.events.onUnsolicited(this);
    const [open, unwritten] = this.streams.takeAll((id) => this.out.unwritten(id));
    const socket = this.socket;
    if (socket.writableNeedDrain) {
      // The server is not reading: a GOAWAY would only queue behind what it left unread.
      socket.destroy();
    } else {
      socket.end(goaway(code));
      setTimeout(() => socket.destroy(), GOAWAY_LINGER_MS).unref();
    }
    this.events.onClose(
      this,
      Object.assign(new Error(message), { code: 'ERR_HTTP2_PROTOCOL_ERROR' }),
      open,
      unwritten,
    );
  }

  private ended(err: Error | null): void {
    if (this.closed) return;
    this.closed = true;
    this.goingAway = true;
    const [open, unwritten] = this.streams.takeAll((id) => this.out.unwritten(id));
    this.events.onClose(this, err, open, unwritten);
  }
}
