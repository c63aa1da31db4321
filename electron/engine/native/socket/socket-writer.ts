import type net from 'node:net';
import type tls from 'node:tls';
import { getSystemErrorName } from 'node:util';
import { streamWrap, type WriteReq } from './stream-handle.ts';

/**
 * Writes a connection's bytes straight to its socket handle, past Node's Writable stream.
 *
 * `socket.write()` costs a WriteWrap, a callback, a nextTick and the Writable's bookkeeping
 * per call: in a closed loop on loopback that was a third of the engine's own (user-space)
 * instructions per request. The handle's `writeBuffer(req, bytes)` is what `socket.write()`
 * ends in; called directly it writes at once (a plain TCP socket: libuv's try-write, the
 * same system call) and reports whether the bytes went out synchronously. Only then is the
 * request object reused; an asynchronous write (the kernel buffer full, or any TLS write,
 * which completes from an immediate) keeps its own, with the bytes referenced until done.
 *
 * A TLS handle takes one write at a time (Node's TLSWrap aborts the process on a second
 * one), so while a TLS write is in flight later bytes are queued and go out together, in
 * one `writev`, when it completes. Every write of a socket must then go through its writer,
 * which is the rule for the native clients from the moment a connection is ready.
 *
 * A TLS write completes from an immediate, and its `oncomplete` is a MakeCallback into JS:
 * in a closed loop one per request, 1.7k of the 25k user-space instructions a keep-alive
 * https request costs Node and OpenSSL (cachegrind). A TLS write's request carries no
 * `oncomplete` (Node then calls nothing) until a later write finds it still in flight
 * (its native half, which `getAsyncId()` answers -1 for once done, still there): only then
 * is the callback set, to flush the queue. A failed TLS write is then not reported by the
 * write (a TLS socket's transport fails its reads too, which end the socket); the rare
 * write still in flight when the next comes, and every plain TCP write, report as before.
 *
 * The handle API is Node's internal stream_wrap binding (see stream-handle.ts). When it is
 * missing, or the socket's Writable holds bytes of its own when the writer is made, the
 * writer falls back to `socket.write()` for the socket's life. The test is made once: a write
 * asks only whether the socket still has its handle (destroy() drops it), a plain field,
 * where `socket.destroyed` and `socket.writableLength` are getters through the stream
 * classes, 3% of the engine thread's samples per TLS request (perf, https, 100 connections).
 */

interface StreamHandle {
  writeBuffer(req: WriteReq, bytes: Uint8Array): number;
  writev(req: WriteReq, chunks: Uint8Array[], allBuffers: true): number;
}

/** A TLS write's request: Node's AsyncWrap answers -1 once the native half is gone (the write done). */
interface TlsWriteReq extends Omit<WriteReq, 'oncomplete'> {
  oncomplete: ((status: number) => void) | undefined;
  getAsyncId(): number;
}

/**
 * The record size for a connection whose writes hold at most `largestWrite` bytes: the
 * smallest power of two from OpenSSL's minimum (512) that holds one, or null for the default
 * (16 KiB, 2^14). Node runs OpenSSL with SSL_MODE_RELEASE_BUFFERS: every SSL_write allocates
 * a write buffer of one full record plus overhead (16,569 bytes by default, a large-chunk
 * malloc and free per request) and frees it after; a smaller record size makes it a buffer
 * malloc's thread cache serves. One write still goes out as one record, as before.
 */
export function recordSizeFor(largestWrite: number): number | null {
  let size = 512;
  while (size < largestWrite) size *= 2;
  return size >= 16 * 1024 ? null : size;
}

/** The socket's handle (null once destroyed), a field of net.Socket. */
const handleField = (socket: net.Socket): unknown => (socket as unknown as { _handle?: unknown })._handle;

/** Whether a write request tells when its write is done (AsyncWrap's getAsyncId), which the TLS path needs. */
const tlsDirect =
  typeof (streamWrap?.WriteWrap.prototype as Partial<TlsWriteReq> | undefined)?.getAsyncId === 'function';

function handleOf(socket: net.Socket): StreamHandle | null {
  const h = handleField(socket) as Partial<StreamHandle> | null | undefined;
  return h && typeof h.writeBuffer === 'function' && typeof h.writev === 'function'
    ? (h as StreamHandle)
    : null;
}

/** Bytes waiting to be written above which a connection counts as backlogged (Node's highWaterMark). */
const BACKLOG_BYTES = 16 * 1024;

function writeError(status: number): NodeJS.ErrnoException {
  let code: string;
  try {
    code = getSystemErrorName(status);
  } catch {
    code = `E${-status}`;
  }
  return Object.assign(new Error(`write ${code}`), { code, errno: status, syscall: 'write' });
}

export class SocketWriter {
  private readonly socket: net.Socket;
  private readonly handle: StreamHandle | null;
  private readonly tls: boolean;
  /** Reused for writes that complete synchronously (plain TCP); null after an asynchronous one. */
  private req: WriteReq | null = null;
  /**
   * TLS: two write requests taken in turn, one per write. Node frees a request's native half
   * once its oncomplete has returned, so the write that oncomplete starts (the queued bytes)
   * takes the other one; any later write finds both free. (Node still makes the native half
   * per write; what is saved is a JS object per TLS request for the collector.)
   */
  private tlsReqs: [TlsWriteReq, TlsWriteReq] | null = null;
  private tlsTurn = 0;
  /** TLS: the last write's request, until it is known to be done (null: none in flight). */
  private lastTls: TlsWriteReq | null = null;
  /** TLS: a write is in flight with its oncomplete set; later bytes wait in `queued`. */
  private inFlight = false;
  private queued: Uint8Array[] = [];
  /** Bytes handed over and not yet written: TLS's queue, and plain TCP's asynchronous writes. */
  private waiting = 0;
  private readonly onTlsComplete = (status: number): void => {
    this.inFlight = false;
    this.lastTls = null;
    this.waiting = 0;
    for (const q of this.queued) this.waiting += q.byteLength;
    if (status < 0) return this.fail(status);
    if (this.queued.length > 0) this.flushQueued();
  };
  private readonly onTcpComplete = (status: number): void => {
    if (status < 0) this.fail(status);
  };

  /**
   * For a connected socket (TLS handshake done) that nothing else writes to. `largestWrite`:
   * the most bytes one write will carry, when the caller knows it (TLS: see recordSizeFor).
   */
  constructor(socket: net.Socket, largestWrite: number | null = null) {
    this.socket = socket;
    this.tls = (socket as Partial<tls.TLSSocket>).encrypted === true;
    // Bytes already in the Writable (written before the writer was made) keep every write there, in order.
    this.handle =
      streamWrap === null || socket.writableLength > 0 || (this.tls && !tlsDirect) ? null : handleOf(socket);
    const record = largestWrite === null ? null : recordSizeFor(largestWrite);
    if (this.tls && this.handle !== null && record !== null)
      (socket as tls.TLSSocket).setMaxSendFragment(record);
  }

  /**
   * Whether more than BACKLOG_BYTES wait to be written (a peer that stopped reading): what
   * the Writable's writableNeedDrain says, for writes that bypass it.
   */
  get backlogged(): boolean {
    return this.waiting > BACKLOG_BYTES || this.socket.writableNeedDrain;
  }

  /** Whether writes bypass the Writable (false: every write is a socket.write()). */
  get direct(): boolean {
    return this.handle !== null;
  }

  /**
   * Writes the bytes (in order with every earlier write). Returns true when they were sent
   * or copied before returning, so the caller may reuse the buffer; false when it must stay
   * untouched.
   */
  write(bytes: Uint8Array): boolean {
    const socket = this.socket;
    const handle = this.handle;
    if (handle === null) {
      if (socket.destroyed) return true;
      socket.write(bytes);
      return false;
    }
    // destroy() drops the handle (and closes it).
    if (handleField(socket) !== handle) return true;
    if (this.tls) {
      const last = this.lastTls;
      if (last !== null && (this.inFlight || last.getAsyncId() !== -1)) {
        // Still in flight: its completion (now called) sends these after it.
        last.oncomplete = this.onTlsComplete;
        this.inFlight = true;
        this.queued.push(bytes);
        this.waiting += bytes.byteLength;
        return false;
      }
      const req = this.nextTlsReq();
      req.oncomplete = undefined;
      this.lastTls = req;
      const err = handle.writeBuffer(req as unknown as WriteReq, bytes);
      if (err !== 0) {
        this.lastTls = null;
        this.fail(err);
      }
      // TLSWrap encrypts (or copies) the bytes before returning.
      return true;
    }
    let req = this.req;
    if (req === null) {
      req = new streamWrap!.WriteWrap();
      req.oncomplete = this.onTcpComplete;
      this.req = req;
    }
    const err = handle.writeBuffer(req, bytes);
    if (err !== 0) {
      this.fail(err);
      return true;
    }
    if (streamWrap!.streamBaseState[streamWrap!.kLastWriteWasAsync] === 0) return true;
    // libuv holds the bytes until the write completes; the next write gets its own request.
    req.buffer = bytes;
    const length = bytes.byteLength;
    this.waiting += length;
    req.oncomplete = (status: number): void => {
      this.waiting -= length;
      this.onTcpComplete(status);
    };
    this.req = null;
    return false;
  }

  private flushQueued(): void {
    const chunks = this.queued;
    this.queued = [];
    if (handleField(this.socket) !== this.handle) return;
    const req = this.nextTlsReq();
    req.buffer = chunks;
    // Queued writes are rare (a write still in flight): this one reports its completion.
    req.oncomplete = this.onTlsComplete;
    this.lastTls = req;
    this.inFlight = true;
    const err = this.handle!.writev(req as unknown as WriteReq, chunks, true);
    if (err !== 0) {
      this.inFlight = false;
      this.lastTls = null;
      this.fail(err);
    }
  }

  private nextTlsReq(): TlsWriteReq {
    let reqs = this.tlsReqs;
    if (reqs === null) {
      const make = (): TlsWriteReq => new streamWrap!.WriteWrap() as unknown as TlsWriteReq;
      reqs = this.tlsReqs = [make(), make()];
    }
    const req = reqs[this.tlsTurn]!;
    this.tlsTurn ^= 1;
    return req;
  }

  /** A failed write ends the connection as the Writable would: 'error', then 'close'. */
  private fail(status: number): void {
    this.queued = [];
    this.waiting = 0;
    if (!this.socket.destroyed) this.socket.destroy(writeError(status));
  }
}
