import type net from 'node:net';
import { DEFAULTS } from '../../../../shared/model/defaults.ts';
import type { DialTiming, Dialer } from '../socket/dial.ts';
import { classifyError, type ClassifiedError } from '../../errors.ts';
import { T_DONE, T_FIRST_BYTE, T_INTENDED, T_START, T_WRITTEN } from '../phases.ts';
import { ResponseParser } from './response-parser.ts';
import type { Http1Request } from '../request-bytes.ts';
import type { Client, ClientOwner, RequestLedger } from '../run-state.ts';
import { SocketWriter } from '../socket/socket-writer.ts';

/** What every HTTP/1.1 client of a run shares. */
export interface Http1Config {
  state: RequestLedger;
  dialer: Dialer;
  /** The request, built once (see request-bytes.ts). */
  request: Http1Request;
  /** `depth` copies of the request back to back (n pipelined go out as its first n); null: one by one. */
  requests: Buffer | null;
  /** A target's list: each send carries the request the chooser names; null: every send is `request`. */
  list: { requests: Http1Request[]; chooser: { next(): number } } | null;
  /** Requests in flight per connection (pipelining depth); 1 without pipelining. */
  depth: number;
  largestWrite: number;
  keepAlive: boolean;
  headRequests: boolean;
}

const MAX_BACKOFF_MS = 100;
const CLOSED: ClassifiedError = {
  kind: 'reset',
  message: 'connection closed by the server before the response was complete',
};

/**
 * One HTTP/1.1 connection slot: a socket (replaced when the server closes it) carrying up
 * to `depth` pipelined requests. Requests live in a ring of typed arrays, so a request costs
 * no allocation. With keep-alive off every request gets its own socket (and TLS handshake).
 *
 * When a reused connection closes cleanly before answering (the server's keep-alive limit,
 * `Connection: close`, an idle-timeout race), the unanswered requests were never processed
 * and are sent again on a new connection, so no count is lost. Any other failure fails the
 * requests it cut off, never one that was not written to that connection: a request counts
 * once it is on the wire.
 *
 * A response that began before the request it would answer was written (a second answer
 * to one request, an answer sent ahead of its request) answers nothing: it is counted apart
 * (Recorder.unsolicited), and the connection, whose answers can no longer be paired with its
 * requests, is closed, as Node's and Go's clients do; the requests not answered on it go out
 * again on a new one. Writes wait for the end of the read being parsed, so whatever a read
 * holds beyond the answers to what was written before it is unsolicited.
 */
export class Http1Client implements Client {
  private readonly cfg: Http1Config;
  private readonly owner: ClientOwner;
  private readonly parser: ResponseParser;
  private readonly intended: Float64Array;
  private readonly startAt: Float64Array;
  private readonly writtenAt: Float64Array;
  /** With a list: the request each slot of the ring carries. */
  private readonly which: Uint16Array | null;
  private head = 0;
  private count = 0;
  /** The first `written` requests of the ring were written to the current socket. */
  private written = 0;
  private socket: net.Socket | null = null;
  /** Writes to `socket` (set with it). */
  private writer: SocketWriter | null = null;
  /** True while a read is parsed: requests started meanwhile go out together after it. */
  private reading = false;
  private dialing: { cancel(): void } | null = null;
  /** Bumped whenever the socket is dropped, so late events of an old socket are ignored. */
  private generation = 0;
  /** Timing of the current socket's dial, until its first response claims it. */
  private dialTiming: DialTiming | null = null;
  private socketResponses = 0;
  private dialFailures = 0;
  private backoff: NodeJS.Timeout | null = null;
  private destroyed = false;

  constructor(cfg: Http1Config, owner: ClientOwner) {
    this.cfg = cfg;
    this.owner = owner;
    this.intended = new Float64Array(cfg.depth);
    this.startAt = new Float64Array(cfg.depth);
    this.writtenAt = new Float64Array(cfg.depth);
    this.which = cfg.list === null ? null : new Uint16Array(cfg.depth);
    this.parser = new ResponseParser(this.onResponse, {
      headRequests: cfg.headRequests,
      maxHeadBytes: DEFAULTS.maxResponseHeaderBytes,
    });
  }

  get free(): number {
    return this.destroyed ? 0 : this.cfg.depth - this.count;
  }

  get inFlight(): number {
    return this.count;
  }

  send(): void {
    const t = this.cfg.state.times;
    const now = t[T_START]!;
    const depth = this.cfg.depth;
    let i = this.head + this.count;
    if (i >= depth) i -= depth;
    this.intended[i] = t[T_INTENDED]!;
    this.startAt[i] = now;
    if (this.which !== null) this.which[i] = this.cfg.list!.chooser.next();
    this.count++;
    this.cfg.state.started();
    if (this.socket !== null) {
      if (this.reading) return;
      this.writtenAt[i] = now;
      this.written++;
      this.writeRequests(1, i);
      const request = this.requestAt(i);
      this.cfg.state.recorder.sent(request.bodyBytes, request.length);
    } else if (this.dialing === null && this.backoff === null) {
      this.retryConnect();
    }
  }

  prepare(): void {
    if (this.socket === null && this.dialing === null && this.backoff === null && !this.destroyed) {
      this.connect();
    }
  }

  sweep(now: number): void {
    if (this.count === 0 || now - this.startAt[this.head]! <= this.cfg.state.timeoutMs) return;
    // Requests pipelined behind a stuck one cannot be answered before it: they time out too.
    this.dropSocket();
    this.fail(this.count, this.cfg.state.timedOut, now);
  }

  destroy(): void {
    this.destroyed = true;
    if (this.backoff !== null) clearTimeout(this.backoff);
    this.backoff = null;
    // May run inside this client's own response callback (the run just ended): parse no further.
    this.parser.halt();
    this.dropSocket();
  }

  private connect(): void {
    const generation = ++this.generation;
    this.dialing = this.cfg.dialer.dial(
      (n, buf) => {
        if (generation === this.generation) this.onRead(n, buf);
      },
      (err, socket, timing) => {
        if (generation !== this.generation || this.destroyed) {
          socket?.destroy();
          return;
        }
        this.dialing = null;
        if (err !== null || socket === null) {
          this.dialFailures++;
          // Nothing was written: every request waiting for this connection fails with it.
          this.fail(this.count, classifyError(err), performance.now());
          return;
        }
        this.dialFailures = 0;
        // Reset only now, not when dialling: connect() may run inside the parser's callback for
        // the old socket's last response, and a reset there would un-halt it mid-read.
        this.parser.reset();
        this.socket = socket;
        this.writer = new SocketWriter(socket, this.cfg.largestWrite);
        this.dialTiming = timing;
        this.socketResponses = 0;
        let lastError: Error | null = null;
        socket.on('error', (e: Error) => (lastError = e));
        socket.on('close', () => {
          if (generation === this.generation) this.onClosed(lastError);
        });
        this.writeQueued(false);
      },
    );
  }

  /**
   * Writes the requests not yet written (they waited for a connection, or for a read's end:
   * `afterRead`, then they go out at the read's time), in one write.
   */
  private writeQueued(afterRead: boolean): void {
    const now = afterRead ? this.parser.now : performance.now();
    const n = this.count - this.written;
    if (n === 0) return;
    const cfg = this.cfg;
    const depth = cfg.depth;
    const recorder = cfg.state.recorder;
    const from = (this.head + this.written) % depth;
    for (let k = 0; k < n; k++) {
      let i = this.head + this.written;
      if (i >= depth) i -= depth;
      this.writtenAt[i] = now;
      this.written++;
      const request = this.requestAt(i);
      recorder.sent(request.bodyBytes, request.length);
    }
    this.writeRequests(n, from);
  }

  /** The request ring slot i carries. */
  private requestAt(i: number): Http1Request {
    return this.which === null ? this.cfg.request : this.cfg.list!.requests[this.which[i]!]!;
  }

  /** Writes n slots' requests from slot `from`: n copies of the one request in one buffer when they fit, else one by one. */
  private writeRequests(n: number, from: number): void {
    const { request, requests } = this.cfg;
    const writer = this.writer!;
    if (this.which !== null) {
      for (let k = 0, i = from; k < n; k++, i = i + 1 === this.cfg.depth ? 0 : i + 1) {
        const r = this.requestAt(i);
        writer.write(r.bytes);
        if (r.body !== null) writer.write(r.body);
      }
    } else if (n === 1 && request.body === null) writer.write(request.bytes);
    else if (requests !== null) writer.write(requests.subarray(0, n * request.length));
    else {
      for (let k = 0; k < n; k++) {
        writer.write(request.bytes);
        if (request.body !== null) writer.write(request.body);
      }
    }
  }

  private onRead(n: number, buf: Buffer): void {
    const parser = this.parser;
    const now = performance.now();
    parser.now = now;
    this.reading = true;
    const ok = parser.execute(buf, 0, n);
    this.reading = false;
    if (!ok) {
      // The requests written fail with the response (bytes with none written answer nothing);
      // those not written yet go out on a new connection.
      const written = this.written;
      if (written === 0) this.cfg.state.recorder.unsolicited();
      this.dropSocket();
      this.fail(written, { kind: 'protocol', message: parser.error ?? 'malformed response' }, now);
      this.resume();
    } else if (this.socket !== null && this.count > this.written) {
      // The requests this read's responses made room for: one write for all of them.
      this.writeQueued(true);
    }
  }

  // An arrow property: the parser calls it once per response, with no binding cost.
  private readonly onResponse = (
    status: number,
    bodyBytes: number,
    totalBytes: number,
    close: boolean,
  ): void => {
    const parser = this.parser;
    const now = parser.now;
    const state = this.cfg.state;
    const i = this.head;
    if (this.written === 0 || this.writtenAt[i]! >= parser.firstByteAt) {
      // It began before the oldest unanswered request was written: it answers none.
      state.recorder.unsolicited();
      parser.halt();
      this.dropSocket();
      this.resume();
      return;
    }
    this.head = i + 1 === this.cfg.depth ? 0 : i + 1;
    this.count--;
    this.written--;
    this.socketResponses++;
    if (state.httpVersion === null) state.httpVersion = `1.${parser.minorVersion}`;
    const wantsServer = state.wantsDocument;
    const t = state.times;
    t[T_INTENDED] = this.intended[i]!;
    t[T_START] = this.startAt[i]!;
    t[T_WRITTEN] = this.writtenAt[i]!;
    t[T_FIRST_BYTE] = parser.firstByteAt;
    t[T_DONE] = now;
    // The first response on a connection carries its opening (the timing phases' setup).
    const setup = this.dialTiming;
    this.dialTiming = null;
    state.response(
      status,
      bodyBytes,
      totalBytes,
      parser.server,
      this.which === null ? -1 : this.which[i]!,
      setup,
    );
    if (wantsServer) parser.captureServer = state.wantsDocument;
    if (close || !this.cfg.keepAlive) {
      // The server answers nothing more on this connection: what was pipelined behind
      // this response was never processed, and goes out again on a new connection.
      parser.halt();
      this.dropSocket();
    }
    this.owner.onFree(this);
    this.resume();
  };

  /** Opens a new connection for requests that wait for one, unless one is on its way. */
  private resume(): void {
    if (
      this.count > this.written &&
      this.socket === null &&
      this.dialing === null &&
      this.backoff === null &&
      !this.destroyed
    ) {
      this.retryConnect();
    }
  }

  /** The socket closed without us closing it. */
  private onClosed(err: Error | null): void {
    const reused = this.socketResponses > 0;
    this.socket = null;
    this.writer = null;
    this.dialTiming = null;
    this.generation++;
    const now = performance.now();
    this.parser.now = now;
    // A body delimited by the close completes here (and may start new requests).
    const clean = this.parser.finish();
    this.parser.reset();
    if (this.written > 0) {
      if (clean && reused && (err === null || classifyError(err).kind === 'reset')) {
        // Closed between responses on a reused connection: resend on a new one.
        this.written = 0;
      } else {
        this.fail(this.written, err ? classifyError(err) : CLOSED, now);
      }
    }
    if (this.count > 0 && this.dialing === null && this.backoff === null && !this.destroyed)
      this.retryConnect();
  }

  /** Reconnects, after a short growing pause when connecting keeps failing (a dead server is not hammered). */
  private retryConnect(): void {
    if (this.dialFailures === 0) {
      this.connect();
      return;
    }
    const delay = Math.min(MAX_BACKOFF_MS, 2 ** (this.dialFailures - 1));
    this.backoff = setTimeout(() => {
      this.backoff = null;
      if (!this.destroyed && this.count > this.written && this.socket === null && this.dialing === null)
        this.connect();
    }, delay);
  }

  private dropSocket(): void {
    this.generation++;
    this.written = 0;
    this.dialTiming = null;
    if (this.socket !== null) {
      this.socket.destroy();
      this.socket = null;
      this.writer = null;
    }
    if (this.dialing !== null) {
      this.dialing.cancel();
      this.dialing = null;
    }
  }

  /** Fails the `n` oldest requests with one failure, then tells the owner there is room. */
  private fail(n: number, f: ClassifiedError, now: number): void {
    if (n === 0) return;
    const depth = this.cfg.depth;
    for (let k = 0; k < n; k++) {
      const i = this.head;
      this.head = i + 1 === depth ? 0 : i + 1;
      this.count--;
      if (this.written > 0) this.written--;
      this.cfg.state.failed(f, now, this.which === null ? -1 : this.which[i]!);
    }
    this.owner.onFree(this);
    if (
      this.count > 0 &&
      this.socket === null &&
      this.dialing === null &&
      this.backoff === null &&
      !this.destroyed
    ) {
      this.retryConnect();
    }
  }
}
