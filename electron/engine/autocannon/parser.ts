import { DEFAULTS } from '../../../shared/model/defaults.ts';
import { ResponseParser } from '../native/http1/response-parser.ts';

/*
 * autocannon's response parser, replaced by the native engine's (native/http1/response-parser.ts
 * and http1/response-head.ts), so both engines frame and judge every response by one set of rules.
 * autocannon 9 gives each client an http-parser-js parser, which reads a negative or
 * non-numeric Content-Length as a length (a negative or NaN body), counts a status of 600 or
 * more as non-2xx with no status code (and waits out the timeout on a four-digit one),
 * accepts NUL in a header value, checks its header limit per read rather than per head,
 * takes a 1xx for the final response, reads a chunk size that is not hexadecimal as the last
 * chunk, and cannot tell a response from one answering no request. autocannon's client
 * calls `parser.execute(chunk)` for each read, and is told of a response by the handlers it
 * sets on the parser (the end of the head, the end of the message): the shim keeps that
 * contract and calls them for each response the native parser completes.
 */

/** http-parser-js's slots for the handlers autocannon's client sets on its parser. */
const K_ON_HEADERS_COMPLETE = 2;
const K_ON_MESSAGE_COMPLETE = 4;

/** What autocannon's client sees of its parser: execute(), and the handler slots it fills. */
export interface ParserShim {
  execute(chunk: Buffer): void;
  [K_ON_HEADERS_COMPLETE]?: (info: { statusCode: number }) => void;
  [K_ON_MESSAGE_COMPLETE]?: () => void;
}

/** What a client's reads tell the load generator. */
export interface ReadEvents {
  /**
   * A response that answers the oldest request, read in full: autocannon's own handlers run
   * right after (its 'response' event, then its next send).
   */
  answered(status: number, bodyBytes: number, totalBytes: number, close: boolean): void;
  /** A response that began before the request it would answer was written: it answers none. */
  unsolicited(): void;
  /** The read ended (the parser's error when it broke the rules, else null). */
  readEnded(error: string | null): void;
}

/**
 * The requests on a client's connection and the parser reading its answers. Each request's
 * write time is kept, oldest first, beside autocannon's own queue of them: a response whose
 * first byte came before the oldest unanswered request was written answers nothing.
 */
export class ClientReader {
  readonly parser: ResponseParser;
  readonly shim: ParserShim;
  /** Write times (performance.now()) of the requests on the connection not answered yet. */
  readonly writtenAt: number[] = [];
  /** True while a read is parsed: sends asked for meanwhile wait for its end. */
  reading = false;
  /** The parser starts afresh with the next read (a new connection). */
  private resetPending = false;

  constructor(opts: { headRequests: boolean; outstanding: () => number }, events: ReadEvents) {
    const parser = new ResponseParser(
      (status, bodyBytes, totalBytes, close) => {
        const oldest = this.writtenAt[0];
        if (opts.outstanding() === 0 || oldest === undefined || oldest >= parser.firstByteAt) {
          parser.halt();
          events.unsolicited();
          return;
        }
        this.writtenAt.shift();
        // The server closes after it: what follows in the read is not this connection's.
        if (close) parser.halt();
        events.answered(status, bodyBytes, totalBytes, close);
        this.shim[K_ON_HEADERS_COMPLETE]?.({ statusCode: status });
        this.shim[K_ON_MESSAGE_COMPLETE]?.();
      },
      { headRequests: opts.headRequests, maxHeadBytes: DEFAULTS.maxResponseHeaderBytes },
    );
    this.parser = parser;
    this.shim = {
      execute: (chunk: Buffer) => {
        if (this.resetPending) {
          this.resetPending = false;
          parser.reset();
        }
        parser.now = performance.now();
        this.reading = true;
        const ok = parser.execute(chunk, 0, chunk.length);
        this.reading = false;
        events.readEnded(ok ? null : (parser.error ?? 'malformed response'));
      },
    };
  }

  /** A request was written now. */
  wrote(): void {
    this.writtenAt.push(performance.now());
  }

  /** The connection is replaced: nothing more of this one is parsed, the next read starts afresh. */
  replaced(): void {
    this.parser.halt();
    this.resetPending = true;
    this.writtenAt.length = 0;
  }

  /** Its requests were dropped (lost or to be sent again): what is being parsed is no one's. */
  dropped(): void {
    this.writtenAt.length = 0;
    if (!this.reading) this.parser.reset();
  }
}
