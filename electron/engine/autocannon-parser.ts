import { DEFAULTS } from '../../shared/model/defaults.ts';

/*
 * The parts of http-parser-js (the parser autocannon 9 gives each client) the autocannon
 * runner hooks, and the hooks themselves. Left alone, that parser reads a chunk size that is
 * not hexadecimal ("zz") as the last chunk and reports the reply as a clean 200, and a 1xx
 * interim response (100 Continue, 103 Early Hints) as a whole response, so autocannon counts
 * it and times the final one against the next request (or, with none queued, crashes on it).
 */

/** The state machine's fields and methods the hooks use (http-parser-js 0.5). */
export interface ParserInternals {
  execute(chunk: Buffer): number | Error;
  finish(): Error | undefined;
  reinitialize(type: string): void;
  consumeLine(): string | undefined;
  /** The state's name; also the name of the method that handles it. */
  state: string;
  /** A line read in part, awaiting its end. */
  line: string;
  body_bytes: number | null;
  maxHeaderSize: number;
  BODY_CHUNKHEAD(this: ParserInternals): void;
  /** kOnHeadersComplete; a true return tells the parser the response has no body. */
  2: (info: unknown) => unknown;
  /** kOnBody */
  3: (chunk: Buffer, start: number, length: number) => void;
  /** kOnMessageComplete */
  4: () => unknown;
}

export const PARSER_RESPONSE = 'RESPONSE';
const K_ON_HEADERS_COMPLETE = 2;
const K_ON_BODY = 3;
const K_ON_MESSAGE_COMPLETE = 4;
/** Chunk size (RFC 9112 section 7.1): hex digits (12 at most, as the native parser allows), optional extensions. */
const CHUNK_SIZE_LINE = /^([0-9A-Fa-f]{1,12})[ \t]*(?:;.*)?$/;

/** What the hooks need to know and tell about the response being read. */
export interface ParsedResponse {
  /** Body bytes of the response being received. */
  bodyBytes: number;
  /** The response being received said Connection: close (or is HTTP/1.0 without keep-alive). */
  closeAfter: boolean;
  /** Final responses completed on the current connection. */
  responses: number;
}

/** Whether the parser stands between two responses (nothing of the next one read yet). */
export function parserIdle(parser: ParserInternals): boolean {
  return parser.state === `${PARSER_RESPONSE}_LINE` && parser.line === '';
}

/** Whether the response being read has its body delimited by the connection's close. */
export function bodyUntilClose(parser: ParserInternals): boolean {
  return parser.state === 'BODY_RAW';
}

/**
 * Replaces autocannon's body callback (which appends every chunk to a string) with a byte
 * count, ends HEAD, 204 and 304 answers at their headers (autocannon waits for a body), notes
 * a Connection: close answer (autocannon ignores it), reads 1xx interim responses past (the
 * final response to the same request follows), reads chunk sizes strictly, raises the
 * header limit to the engine's one (http-parser-js has 80 KB, restored on every
 * reinitialize), and turns an unparsable response, or one nobody asked for, into
 * onProtocolError (autocannon ignores the parser's error and feeds it more bytes).
 */
export function hookParser(
  parser: ParserInternals,
  st: ParsedResponse,
  opts: { isHead: boolean; outstanding: () => number },
  onProtocolError: (message: string) => void,
): void {
  (parser.constructor as unknown as { maxHeaderSize: number }).maxHeaderSize =
    DEFAULTS.maxResponseHeaderBytes;
  parser.maxHeaderSize = DEFAULTS.maxResponseHeaderBytes;
  let interim = false;
  parser[K_ON_BODY] = (_chunk, _start, length) => {
    st.bodyBytes += length;
  };
  const onHeaders = parser[K_ON_HEADERS_COMPLETE];
  parser[K_ON_HEADERS_COMPLETE] = (info) => {
    const { statusCode = 0, shouldKeepAlive } = info as { statusCode?: number; shouldKeepAlive?: boolean };
    if (statusCode >= 100 && statusCode < 200 && statusCode !== 101) {
      interim = true;
      return true;
    }
    onHeaders(info);
    st.closeAfter = shouldKeepAlive === false;
    return opts.isHead || statusCode === 204 || statusCode === 304;
  };
  const onComplete = parser[K_ON_MESSAGE_COMPLETE];
  parser[K_ON_MESSAGE_COMPLETE] = () => {
    if (interim) {
      interim = false;
      return undefined;
    }
    if (opts.outstanding() === 0) {
      onProtocolError('response received without a request');
      return undefined;
    }
    st.responses++;
    return onComplete();
  };
  parser.BODY_CHUNKHEAD = function (this: ParserInternals) {
    const line = this.consumeLine();
    if (line === undefined) return;
    const size = CHUNK_SIZE_LINE.exec(line);
    if (size === null) throw new Error(`malformed chunk size ${JSON.stringify(line.slice(0, 40))}`);
    this.body_bytes = parseInt(size[1]!, 16);
    this.state = this.body_bytes === 0 ? 'BODY_CHUNKTRAILERS' : 'BODY_CHUNK';
  };
  const execute = parser.execute.bind(parser);
  parser.execute = (chunk: Buffer) => {
    const r = execute(chunk);
    if (r instanceof Error) onProtocolError(r.message);
    return r;
  };
}
