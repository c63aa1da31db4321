/**
 * Incremental HTTP/1.1 response parser: the native engine's, the autocannon engine's (in
 * place of its own: autocannon/parser.ts) and the pre-flight's, so every response is framed
 * and judged one way (the rules are response-head.ts's).
 *
 * It frames responses (status line, headers, Content-Length or chunked bodies, HEAD, 1xx,
 * 204 and 304 without a body, bodies delimited by the connection's close) and counts bytes;
 * it never decodes a body or builds a header object. The head of a response is scanned byte
 * by byte for the four headers that matter (Content-Length, Transfer-Encoding, Connection,
 * and Server when asked: response-head.ts). Input may arrive split at any byte, and one read
 * may hold many pipelined responses.
 *
 * The caller may pass a reused read buffer (net's `onread`): anything the parser keeps
 * across calls (a head split between reads) is copied.
 */
import { CR, emptyHead, LF, readHead, SPACE, TAB, type HeadFields } from './response-head.ts';

/** Called once per complete final response, synchronously from execute() or finish(). */
export type ResponseCallback = (
  status: number,
  bodyBytes: number,
  totalBytes: number,
  /** The server will close the connection after this response (no more responses follow). */
  close: boolean,
) => void;

export interface ResponseParserOptions {
  /** Every request on this connection is HEAD: responses carry no body whatever they say. */
  headRequests: boolean;
  /** A head longer than this is a protocol error (protects memory from a runaway peer). */
  maxHeadBytes: number;
}

const SEMICOLON = 59;

/**
 * Where CRLFCRLF (a head's end) begins in buf[from, end), or -1. A loop, where Buffer's
 * indexOf left an object behind on every call (a head parsed anew: a new Date each second on
 * every connection).
 */
function headEndIn(buf: Uint8Array, from: number, end: number): number {
  for (let i = from + 3; i < end; i++) {
    if (buf[i] === LF && buf[i - 1] === CR && buf[i - 2] === LF && buf[i - 3] === CR) return i - 3;
  }
  return -1;
}
/** Longer heads are parsed every time rather than kept for comparison. */
const MAX_REMEMBERED_HEAD = 4096;

// States. Plain numbers (no enum: the code runs through Node's type stripping).
const HEAD = 0;
const BODY_LENGTH = 1;
const BODY_UNTIL_CLOSE = 2;
const CHUNK_SIZE = 3;
const CHUNK_EXTENSION = 4;
const CHUNK_SIZE_LF = 5;
const CHUNK_DATA = 6;
const CHUNK_DATA_CR = 7;
const CHUNK_DATA_LF = 8;
const TRAILER_LINE_START = 9;
const TRAILER_LINE = 10;
const TRAILER_LAST_LF = 11;
const TRAILER_LINE_LF = 12;
const FAILED = 13;
const HALTED = 14;

function hexValue(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  const l = c | 0x20;
  if (l >= 97 && l <= 102) return l - 87;
  return -1;
}

export class ResponseParser {
  private state = HEAD;
  private readonly onResponse: ResponseCallback;
  private readonly headRequests: boolean;
  private readonly maxHeadBytes: number;
  /** Head bytes kept from earlier reads while its end has not arrived. */
  private pending: Buffer | null = null;
  /** The head being read. */
  private readonly head = emptyHead();
  /** The last head parsed in full (a copy) and what it said; see parseHead(). */
  private lastHead: Buffer | null = null;
  private readonly last = emptyHead();

  // The response being parsed.
  private status = 0;
  private close = false;
  private remaining = 0;
  private bodyBytes = 0;
  private totalBytes = 0;
  private chunkDigits = 0;
  private trailerLineEmpty = true;
  /** True from the first byte of a response until it completes. */
  private inResponse = false;

  /** Set by the caller before execute(): when the bytes being parsed were read. */
  now = 0;
  /** `now` of the read that brought the current (or last completed) response's first byte. */
  firstByteAt = 0;
  /** When true, the next head's Server header is captured into `server`. */
  captureServer = false;
  server: string | null = null;
  /** HTTP minor version of the last status line (1 for HTTP/1.1, 0 for HTTP/1.0). */
  minorVersion = 1;
  /** Why parsing failed; once set, the connection is unusable. */
  error: string | null = null;

  constructor(onResponse: ResponseCallback, opts: ResponseParserOptions) {
    this.onResponse = onResponse;
    this.headRequests = opts.headRequests;
    this.maxHeadBytes = opts.maxHeadBytes;
  }

  /** True between responses: no byte of an unfinished response has been seen. */
  get idle(): boolean {
    return !this.inResponse;
  }

  /** Forget any partial response (the connection was replaced). */
  reset(): void {
    this.state = HEAD;
    this.pending = null;
    this.inResponse = false;
    this.error = null;
  }

  /** Stops the execute() in progress after the current response (its connection is closing). */
  halt(): void {
    this.state = HALTED;
    this.pending = null;
  }

  /**
   * Parses buf[start, end). Returns false when the input is not valid HTTP (see `error`);
   * the caller must then drop the connection.
   */
  execute(buf: Buffer, start: number, end: number): boolean {
    let pos = start;
    while (pos < end && this.state !== HALTED) {
      switch (this.state) {
        case HEAD: {
          pos = this.parseHead(buf, pos, end);
          if (pos < 0) return this.error === null;
          break;
        }
        case BODY_UNTIL_CLOSE: {
          this.countBody(end - pos);
          pos = end;
          break;
        }
        case BODY_LENGTH:
        case CHUNK_DATA: {
          // Counted, never copied or decoded.
          const n = Math.min(this.remaining, end - pos);
          this.countBody(n);
          this.remaining -= n;
          pos += n;
          if (this.remaining > 0) break;
          if (this.state === BODY_LENGTH) this.complete();
          else this.state = CHUNK_DATA_CR;
          break;
        }
        default: {
          // Chunk framing and trailers: a byte at a time (a few bytes per chunk). Counted
          // first: the last byte completes the response.
          this.totalBytes++;
          if (!this.framingByte(buf[pos]!)) return false;
          pos++;
        }
      }
    }
    return true;
  }

  /**
   * The connection ended. Completes a response whose body runs until the close; returns
   * false when a response was cut short (the caller counts it as a reset).
   */
  finish(): boolean {
    if (this.state === BODY_UNTIL_CLOSE) {
      this.close = true;
      this.complete();
      return true;
    }
    return !this.inResponse;
  }

  private fail(message: string): boolean {
    this.error = message;
    this.state = FAILED;
    return false;
  }

  /** parseHead's answer to a head that outgrew maxHeadBytes without ending. */
  private headTooLarge(): number {
    this.fail(`response head larger than ${this.maxHeadBytes} bytes`);
    return -1;
  }

  private countBody(n: number): void {
    this.bodyBytes += n;
    this.totalBytes += n;
  }

  /**
   * Handles the head of a response starting at pos. Returns the position after the head
   * (the body follows in the same read), or -1 when the head is incomplete or invalid.
   */
  private parseHead(buf: Buffer, pos: number, end: number): number {
    if (this.pending === null) {
      // Tolerate empty lines before a status line (RFC 9112 section 2.2).
      while (pos < end && (buf[pos] === CR || buf[pos] === LF)) pos++;
      if (pos === end) return -1;
      if (!this.inResponse) {
        this.inResponse = true;
        this.firstByteAt = this.now;
        this.totalBytes = 0;
      }
      // Most heads repeat the last one byte for byte (a server answers the same request the
      // same way; the Date changes once a second): then its parse is the last one's.
      const last = this.lastHead;
      if (last !== null && !this.captureServer) {
        const to = pos + last.length;
        if (
          to <= end &&
          buf[to - 1] === LF &&
          buf[to - 2] === CR &&
          buf[to - 3] === LF &&
          buf.compare(last, 0, last.length, pos, to) === 0
        ) {
          this.minorVersion = this.last.minor;
          this.headRead(this.last, last.length);
          return to;
        }
      }
      const at = headEndIn(buf, pos, end);
      if (at !== -1) {
        if (at + 4 - pos > this.maxHeadBytes) return this.headTooLarge();
        return this.headParsed(buf, pos, at + 4) ? at + 4 : -1;
      }
      if (end - pos > this.maxHeadBytes) return this.headTooLarge();
      this.pending = Buffer.from(buf.subarray(pos, end));
      return -1;
    }
    // A head split across reads: join what we have and look again (from just before the seam).
    const prev = this.pending;
    const joined = Buffer.concat([prev, buf.subarray(pos, end)]);
    const at = headEndIn(joined, Math.max(0, prev.length - 3), joined.length);
    if (at === -1) {
      if (joined.length > this.maxHeadBytes) return this.headTooLarge();
      this.pending = joined;
      return -1;
    }
    this.pending = null;
    // The limit is on the head, however the reads split it.
    if (at + 4 > this.maxHeadBytes) return this.headTooLarge();
    if (!this.headParsed(joined, 0, at + 4)) return -1;
    return pos + (at + 4 - prev.length);
  }

  /** Reads the head buf[from, to) (to is just past CRLFCRLF) and acts on it. */
  private headParsed(buf: Buffer, from: number, to: number): boolean {
    const h = this.head;
    const invalid = readHead(buf, from, to, this.captureServer, h);
    if (invalid !== null) return this.fail(invalid);
    this.minorVersion = h.minor;
    if (h.server !== null) this.server = h.server;
    // The status line and the framing headers are all the head says (the Server value aside,
    // which is read only when captured): an identical head gets the same answer.
    if (to - from <= MAX_REMEMBERED_HEAD && !this.captureServer) {
      // Copied into the last one's buffer when it fits: a new Date is the same length.
      const length = to - from;
      if (this.lastHead === null || this.lastHead.length !== length)
        this.lastHead = Buffer.allocUnsafe(length);
      buf.copy(this.lastHead, 0, from, to);
      Object.assign(this.last, h);
    }
    this.headRead(h, to - from);
    return true;
  }

  /** Acts on a parsed head: counts it and sets up (or completes) its body. */
  private headRead(h: HeadFields, headBytes: number): void {
    const { status, contentLength } = h;
    this.status = status;
    this.close = h.close;
    this.bodyBytes = 0;
    this.totalBytes += headBytes;
    // 1xx informational: no body; the final response to the same request follows (its
    // bytes count towards that response, and its arrival is the first byte).
    if (status < 200) return;
    if (this.headRequests || status === 204 || status === 304) {
      this.complete();
      return;
    }
    if (h.chunked) {
      this.state = CHUNK_SIZE;
      this.chunkDigits = 0;
      this.remaining = 0;
    } else if (contentLength >= 0) {
      this.remaining = contentLength;
      if (contentLength === 0) this.complete();
      else this.state = BODY_LENGTH;
    } else {
      this.state = BODY_UNTIL_CLOSE;
      this.close = true;
    }
  }

  /** One byte of chunk framing or trailer. */
  private framingByte(c: number): boolean {
    switch (this.state) {
      case CHUNK_SIZE: {
        const h = hexValue(c);
        if (h >= 0) {
          if (++this.chunkDigits > 12) return this.fail('chunk size too large');
          this.remaining = this.remaining * 16 + h;
          return true;
        }
        if (this.chunkDigits === 0) return this.fail('malformed chunk size');
        if (c === CR) this.state = CHUNK_SIZE_LF;
        else if (c === SEMICOLON || c === SPACE || c === TAB) this.state = CHUNK_EXTENSION;
        else if (c === LF) this.chunkSizeDone();
        else return this.fail('malformed chunk size');
        return true;
      }
      case CHUNK_EXTENSION:
        if (c === CR) this.state = CHUNK_SIZE_LF;
        else if (c === LF) this.chunkSizeDone();
        return true;
      case CHUNK_SIZE_LF:
        if (c !== LF) return this.fail('chunk size line not ended by CRLF');
        this.chunkSizeDone();
        return true;
      case CHUNK_DATA_CR:
        if (c === CR) this.state = CHUNK_DATA_LF;
        else if (c === LF) this.nextChunk();
        else return this.fail('chunk data not followed by CRLF');
        return true;
      case CHUNK_DATA_LF:
        if (c !== LF) return this.fail('chunk data not followed by CRLF');
        this.nextChunk();
        return true;
      case TRAILER_LINE_START:
        if (c === CR) this.state = TRAILER_LAST_LF;
        else if (c === LF) this.complete();
        else this.state = TRAILER_LINE;
        return true;
      case TRAILER_LINE:
        if (c === CR) this.state = TRAILER_LINE_LF;
        else if (c === LF) this.state = TRAILER_LINE_START;
        return true;
      case TRAILER_LINE_LF:
        if (c !== LF) return this.fail('trailer line not ended by CRLF');
        this.state = TRAILER_LINE_START;
        return true;
      case TRAILER_LAST_LF:
        if (c !== LF) return this.fail('trailers not ended by CRLF');
        this.complete();
        return true;
      default:
        return this.fail('parser used after a failure');
    }
  }

  private chunkSizeDone(): void {
    this.chunkDigits = 0;
    if (this.remaining === 0) this.state = TRAILER_LINE_START;
    else this.state = CHUNK_DATA;
  }

  private nextChunk(): void {
    this.state = CHUNK_SIZE;
    this.remaining = 0;
  }

  private complete(): void {
    this.state = HEAD;
    this.inResponse = false;
    this.captureServer = false;
    // The callback may halt() the parser (its connection closes).
    this.onResponse(this.status, this.bodyBytes, this.totalBytes, this.close);
  }
}
