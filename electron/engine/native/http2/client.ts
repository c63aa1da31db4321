import type net from 'node:net';
import { DEFAULTS } from '../../../../shared/model/defaults.ts';
import type { Dialer, DialTiming } from '../socket/dial.ts';
import { classifyError, type ClassifiedError } from '../../errors.ts';
import { H2_CODE } from './errors.ts';
import { FewMap } from './few-map.ts';
import { cutOff, goawayTwice, NO_H2, REFUSED_TWICE, streamReset } from './failures.ts';
import { encodeRequestBlock } from '../hpack/encoder.ts';
import { h2ListRequest, newExchange, type H2Exchange, type H2ListRequest } from './exchange.ts';
import { H2Session } from './session.ts';
import { T_DONE, T_FIRST_BYTE, T_INTENDED, T_START, T_WRITTEN } from '../phases.ts';
import type { Client, ClientOwner, RequestLedger } from '../run-state.ts';

export interface Http2Config {
  state: RequestLedger;
  dialer: Dialer;
  /** The request's header fields (pseudo-headers first: request-bytes.ts), encoded once. */
  fields: [string, string][];
  body: Uint8Array | null;
  /** A target's list: each stream carries the request the chooser names; null: `fields` and `body`. */
  list: { requests: H2ListRequest[]; chooser: { next(): number } } | null;
  /** Concurrent streams per connection (the scenario's pipelining, or the open model's cap). */
  streams: number;
  /** Off: one connection per request. */
  keepAlive: boolean;
}

/** A connection and what the client tracks about it. */
interface Conn {
  session: H2Session;
  /** Timing of its dial, until its first response claims it. */
  timing: DialTiming | null;
  /** GOAWAY received: streams above lastStreamId were not processed. */
  goawayLastStreamId: number;
  goawayCode: number;
  /**
   * Whether the connection counted toward the reconnect backoff yet: a response on it resets
   * the backoff, its end before any response raises it (once).
   */
  settled: boolean;
}

const MAX_BACKOFF_MS = 100;

/**
 * One HTTP/2 connection slot on the raw-socket session (session.ts): up to `streams` concurrent
 * requests, capped by the server's SETTINGS_MAX_CONCURRENT_STREAMS. On GOAWAY (nginx sends one after
 * keepalive_requests) the old connection finishes its accepted streams while a new one takes the rest;
 * a stream the server refused (REFUSED_STREAM) or never accepted (above GOAWAY's last stream) is sent
 * again once, so no count is lost to a server's normal turnover, and counts as a 'refused-stream' or
 * 'goaway' error the second time, so a server that refuses everything is not sent an endless stream of
 * retries. A connection that ends before answering anything delays the next dial (a growing backoff,
 * as for a failed dial), so such a server is not sent connections faster than the plan's own. Other
 * resets count as 'reset' errors, apart from HTTP statuses. A frame on a stream the server already
 * ended is counted apart (Recorder.unsolicited), never as a request; the connection it closes hands
 * back the requests it never wrote, which go out on the next. Byte counts are as framed on the wire
 * (compressed headers), like h2load's.
 */
export class Http2Client implements Client {
  private readonly cfg: Http2Config;
  private readonly owner: ClientOwner;
  /** The one request (a list's first without a list), encoded once; its bytes are counted as a list's are. */
  private readonly one: H2ListRequest;
  private conn: Conn | null = null;
  private readonly conns = new Map<H2Session, Conn>();
  private dialing: { cancel(): void } | null = null;
  /** Requests waiting for a connection. */
  private readonly queue: H2Exchange[] = [];
  /** Requests on a stream, by exchange (their connection may be a draining one). */
  private readonly active = new FewMap<H2Exchange, Conn>();
  private limit: number;
  /** Dials that failed and connections that ended unanswered, since the last response: the backoff's exponent. */
  private failedConnections = 0;
  private backoff: NodeJS.Timeout | null = null;
  private destroyed = false;

  constructor(cfg: Http2Config, owner: ClientOwner) {
    this.cfg = cfg;
    this.owner = owner;
    this.limit = cfg.keepAlive ? cfg.streams : 1;
    this.one = h2ListRequest(0, encodeRequestBlock(cfg.fields), cfg.body);
  }

  get free(): number {
    return this.destroyed ? 0 : Math.max(0, this.limit - this.inFlight);
  }

  get inFlight(): number {
    return this.queue.length + this.active.size;
  }

  send(): void {
    const state = this.cfg.state;
    const now = state.times[T_START]!;
    state.started();
    const list = this.cfg.list;
    this.dispatch(
      newExchange(state.times[T_INTENDED]!, now, list && list.requests[list.chooser.next()]!),
      now,
    );
  }

  prepare(): void {
    if (this.conn === null && this.dialing === null && this.backoff === null && !this.destroyed)
      this.connect();
  }

  sweep(now: number): void {
    const limit = this.cfg.state.timeoutMs;
    const f = this.cfg.state.timedOut;
    let expired = 0;
    for (const [ex, conn] of this.active) {
      if (now - ex.startAt <= limit) continue;
      this.active.delete(ex);
      conn.session.cancel(ex);
      this.cfg.state.failed(f, now, ex.request?.index);
      expired++;
    }
    let waitedOut = false;
    for (let i = this.queue.length - 1; i >= 0; i--) {
      const ex = this.queue[i]!;
      if (now - ex.startAt <= limit) continue;
      this.queue.splice(i, 1);
      ex.ended = true;
      this.cfg.state.failed(f, now, ex.request?.index);
      expired++;
      waitedOut = true;
    }
    if (waitedOut && this.dialing !== null) {
      // A request waited its whole timeout for a connection: the dial is stuck (a handshake
      // that never finishes). Give it up, as the HTTP/1.1 client does, and dial anew.
      this.dialing.cancel();
      this.dialing = null;
      if (this.queue.length > 0 && this.backoff === null) this.retryConnect();
    }
    if (expired > 0) this.owner.onFree(this);
  }

  destroy(): void {
    this.destroyed = true;
    if (this.backoff !== null) clearTimeout(this.backoff);
    this.backoff = null;
    this.dialing?.cancel();
    this.dialing = null;
    for (const ex of this.active.keys()) ex.ended = true;
    for (const c of this.conns.values()) c.session.destroy();
    this.conn = null;
  }

  /** Starts a request on the current connection, or queues it for the next one. */
  private dispatch(ex: H2Exchange, now: number): void {
    const conn = this.conn;
    if (conn !== null && conn.session.usable) {
      ex.ended = false;
      ex.status = 0;
      ex.bodyBytes = 0;
      ex.wireBytes = 0;
      ex.firstByteAt = 0;
      ex.bodyOffset = 0;
      ex.received = 0;
      this.active.set(ex, conn);
      conn.session.request(ex, now);
      const r = ex.request ?? this.one;
      this.cfg.state.recorder.sent(r.body?.byteLength ?? 0, r.wireBytes);
      return;
    }
    if (conn !== null) this.retire(conn);
    this.queue.push(ex);
    if (this.dialing === null && this.backoff === null) this.retryConnect();
  }

  private retryConnect(): void {
    if (this.destroyed) return;
    if (this.failedConnections === 0) {
      this.connect();
      return;
    }
    this.backoff = setTimeout(
      () => {
        this.backoff = null;
        if (!this.destroyed && this.conn === null && this.dialing === null && this.queue.length > 0)
          this.connect();
      },
      Math.min(MAX_BACKOFF_MS, 2 ** (this.failedConnections - 1)),
    );
  }

  private connect(): void {
    // Reads reach the session created once the dial completes (none arrive before).
    let session: H2Session | null = null;
    const dialing = this.cfg.dialer.dial(
      (n, buf) => session?.onRead(n, buf),
      (err, socket, timing) => {
        if (this.dialing !== dialing || this.destroyed) {
          socket?.destroy();
          return;
        }
        this.dialing = null;
        const noH2 =
          err === null
            ? this.cfg.dialer.endpoint.secure &&
              (socket as net.Socket & { alpnProtocol?: string | false }).alpnProtocol !== 'h2'
            : (err as NodeJS.ErrnoException).code === 'ERR_SSL_TLSV1_ALERT_NO_APPLICATION_PROTOCOL';
        if (err !== null || socket === null || noH2) {
          socket?.destroy();
          this.failedConnections++;
          this.failQueued(noH2 ? NO_H2 : classifyError(err));
          return;
        }
        session = new H2Session(
          socket,
          {
            block: this.one.block,
            body: this.one.body,
            wantServer: () => this.cfg.state.wantsDocument,
            maxHeaderBytes: DEFAULTS.maxResponseHeaderBytes,
          },
          this.sessionEvents,
        );
        const conn: Conn = { session, timing, goawayLastStreamId: -1, goawayCode: 0, settled: false };
        this.conns.set(session, conn);
        this.conn = conn;
        const now = performance.now();
        for (const ex of this.queue.splice(0)) this.dispatch(ex, now);
      },
    );
    this.dialing = dialing;
  }

  /** Stops opening streams on a connection; a new one is dialled for what remains. */
  private retire(conn: Conn): void {
    conn.session.goingAway = true;
    if (this.conn === conn) this.conn = null;
    this.closeIfIdle(conn);
    if (this.queue.length > 0 && this.dialing === null && this.backoff === null) this.retryConnect();
  }

  /** A connection ended: if it never answered, the next dial waits as after a failed one. */
  private ended(conn: Conn): void {
    if (conn.settled) return;
    conn.settled = true;
    this.failedConnections++;
  }

  /** Sends a request the server did not process once more, or fails it with `failure` when it was already sent again. */
  private again(ex: H2Exchange, now: number, failure: ClassifiedError): void {
    if (ex.retries === 0 && !this.destroyed) {
      ex.retries++;
      this.dispatch(ex, now);
      return;
    }
    ex.ended = true;
    this.cfg.state.failed(failure, now, ex.request?.index);
    this.owner.onFree(this);
  }

  private closeIfIdle(conn: Conn): void {
    if (conn.session.goingAway && conn.session.active === 0) {
      this.conns.delete(conn.session);
      conn.session.destroy();
    }
  }

  private readonly sessionEvents = {
    onResponse: (ex: H2Exchange): void => {
      const conn = this.active.get(ex);
      if (conn === undefined || ex.ended) return;
      this.active.delete(ex);
      ex.ended = true;
      const state = this.cfg.state;
      const now = conn.session.readAt;
      if (!conn.settled) {
        conn.settled = true;
        this.failedConnections = 0;
      }
      if (state.httpVersion === null) state.httpVersion = '2';
      if (ex.firstByteAt === 0) ex.firstByteAt = now;
      const t = state.times;
      t[T_INTENDED] = ex.intendedAt;
      t[T_START] = ex.startAt;
      t[T_WRITTEN] = ex.writtenAt;
      t[T_FIRST_BYTE] = ex.firstByteAt;
      t[T_DONE] = now;
      // The first response on a connection carries its opening (the timing phases' setup).
      const setup = conn.timing;
      conn.timing = null;
      state.response(ex.status, ex.bodyBytes, ex.wireBytes, ex.server, ex.request?.index, setup);
      if (!this.cfg.keepAlive) this.retire(conn);
      else this.closeIfIdle(conn);
      this.owner.onFree(this);
    },

    onReset: (ex: H2Exchange, code: number): void => {
      const conn = this.active.get(ex);
      if (conn === undefined) return;
      this.active.delete(ex);
      if (code === H2_CODE.REFUSED_STREAM) {
        // Not processed (RFC 9113 section 8.7): sent again, keeping its start and intended times.
        this.again(ex, performance.now(), REFUSED_TWICE);
        this.closeIfIdle(conn);
        return;
      }
      this.cfg.state.failed(streamReset(code), performance.now(), ex.request?.index);
      this.closeIfIdle(conn);
      this.owner.onFree(this);
    },

    onStreamError: (ex: H2Exchange, message: string): void => {
      const conn = this.active.get(ex);
      if (conn === undefined) return;
      this.active.delete(ex);
      this.cfg.state.failed({ kind: 'protocol', message }, performance.now(), ex.request?.index);
      this.closeIfIdle(conn);
      this.owner.onFree(this);
    },

    onGoaway: (session: H2Session, lastStreamId: number, code: number): void => {
      const conn = this.conns.get(session);
      if (conn === undefined) return;
      // A second GOAWAY may lower the last stream, never raise it (RFC 9113 section 6.8).
      conn.goawayLastStreamId =
        conn.goawayLastStreamId < 0 ? lastStreamId : Math.min(conn.goawayLastStreamId, lastStreamId);
      conn.goawayCode = code;
      this.ended(conn);
      // Streams above the last one were never processed: they go out on a new connection.
      const now = performance.now();
      const unprocessed: H2Exchange[] = [];
      for (const [ex, c] of this.active) {
        if (c === conn && ex.id > conn.goawayLastStreamId) {
          this.active.delete(ex);
          session.forget(ex);
          unprocessed.push(ex);
        }
      }
      this.retire(conn);
      for (const ex of unprocessed)
        this.again(ex, now, goawayTwice(conn.goawayLastStreamId, conn.goawayCode));
    },

    onMaxStreams: (_session: H2Session, max: number): void => {
      if (this.cfg.keepAlive) this.limit = Math.max(1, Math.min(this.cfg.streams, max));
    },

    onUnsolicited: (): void => this.cfg.state.recorder.unsolicited(),

    onClose: (session: H2Session, err: Error | null, open: H2Exchange[], unwritten: H2Exchange[]): void => {
      const conn = this.conns.get(session);
      this.conns.delete(session);
      if (conn === undefined || this.destroyed) return;
      if (this.conn === conn) this.conn = null;
      this.ended(conn);
      // Never on the wire: they go out on the next connection, as if they had waited for it.
      for (const ex of unwritten) if (this.active.delete(ex)) this.queue.push(ex);
      const now = performance.now();
      let failed = 0;
      for (const ex of open) {
        if (!this.active.has(ex)) continue;
        this.active.delete(ex);
        if (conn.goawayLastStreamId >= 0 && ex.id > conn.goawayLastStreamId) {
          this.again(ex, now, goawayTwice(conn.goawayLastStreamId, conn.goawayCode));
          continue;
        }
        ex.ended = true;
        const f = err ? classifyError(err) : cutOff(conn.goawayLastStreamId, conn.goawayCode);
        this.cfg.state.failed(f, now, ex.request?.index);
        failed++;
      }
      if (failed > 0) this.owner.onFree(this);
      if (this.queue.length > 0 && this.dialing === null && this.backoff === null) this.retryConnect();
    },
  };

  private failQueued(f: ClassifiedError): void {
    const now = performance.now();
    for (const ex of this.queue.splice(0)) {
      ex.ended = true;
      this.cfg.state.failed(f, now, ex.request?.index);
    }
    this.owner.onFree(this);
  }
}
