/*
 * The head of an HTTP/1.1 response, read for what framing needs: the status line, and
 * Content-Length, Transfer-Encoding, Connection (and Server when asked) among the header
 * lines, scanned byte by byte; no header object is built. response-parser.ts frames the
 * response with it.
 */

export const CR = 13;
export const LF = 10;
export const SPACE = 32;
export const TAB = 9;
const COLON = 58;

const NAME_CONTENT_LENGTH = Buffer.from('content-length');
const NAME_TRANSFER_ENCODING = Buffer.from('transfer-encoding');
const NAME_CONNECTION = Buffer.from('connection');
const NAME_SERVER = Buffer.from('server');

/** What a head says; filled in place by readHead (one per parser, no allocation per response). */
export interface HeadFields {
  status: number;
  /** HTTP minor version: 1 for HTTP/1.1, 0 for HTTP/1.0. */
  minor: number;
  /** -1 without a Content-Length. */
  contentLength: number;
  chunked: boolean;
  /** The server closes the connection after this response. */
  close: boolean;
  /** The Server value, when asked for and present. */
  server: string | null;
}

export const emptyHead = (): HeadFields => ({
  status: 0,
  minor: 1,
  contentLength: -1,
  chunked: false,
  close: false,
  server: null,
});

/** Case-insensitive compare of buf[at, at+name.length) with a lower-case ASCII name. */
function nameIs(buf: Uint8Array, at: number, len: number, name: Uint8Array): boolean {
  if (len !== name.length) return false;
  for (let i = 0; i < len; i++) if ((buf[at + i]! | 0x20) !== name[i]) return false;
  return true;
}

const isSeparator = (c: number): boolean => c === SPACE || c === TAB || c === 44; /* , */

/** Does buf[from, to) contain `word` as a comma/space separated token (case-insensitive)? */
function hasToken(buf: Uint8Array, from: number, to: number, word: string): boolean {
  const n = word.length;
  for (let i = from; i + n <= to; i++) {
    let match = true;
    for (let j = 0; j < n; j++) {
      if ((buf[i + j]! | 0x20) !== word.charCodeAt(j)) {
        match = false;
        break;
      }
    }
    if (!match) continue;
    const before = i === from ? SPACE : buf[i - 1]!;
    const after = i + n === to ? SPACE : buf[i + n]!;
    if (isSeparator(before) && isSeparator(after)) return true;
  }
  return false;
}

/**
 * Reads the status line and framing headers of buf[from, to) (to is just past CRLFCRLF) into
 * `out`; returns why the head is not valid HTTP, or null.
 */
export function readHead(
  buf: Buffer,
  from: number,
  to: number,
  captureServer: boolean,
  out: HeadFields,
): string | null {
  // "HTTP/1.x SSS"
  if (
    to - from < 16 ||
    buf[from] !== 72 /* H */ ||
    buf[from + 1] !== 84 ||
    buf[from + 2] !== 84 ||
    buf[from + 3] !== 80 ||
    buf[from + 4] !== 47 /* / */ ||
    buf[from + 5] !== 49 /* 1 */ ||
    buf[from + 6] !== 46 /* . */ ||
    buf[from + 8] !== SPACE ||
    (buf[from + 12] !== SPACE && buf[from + 12] !== CR)
  ) {
    return 'response does not start with an HTTP/1.x status line';
  }
  const minor = buf[from + 7]! - 48;
  const d0 = buf[from + 9]! - 48;
  const d1 = buf[from + 10]! - 48;
  const d2 = buf[from + 11]! - 48;
  if (minor < 0 || minor > 9 || d0 < 1 || d0 > 5 || d1 < 0 || d1 > 9 || d2 < 0 || d2 > 9) {
    return 'malformed status line';
  }
  out.status = d0 * 100 + d1 * 10 + d2;
  out.minor = minor;
  out.server = null;

  let contentLength = -1;
  let chunked = false;
  let connClose = minor === 0;
  // Skip the status line.
  let i = from + 12;
  while (buf[i] !== LF) i++;
  i++;
  const headEnd = to - 2; // the final empty line's CRLF
  while (i < headEnd) {
    const lineStart = i;
    let colon = -1;
    while (buf[i] !== LF) {
      if (colon === -1 && buf[i] === COLON) colon = i;
      i++;
    }
    const lineEnd = buf[i - 1] === CR ? i - 1 : i;
    i++;
    if (colon <= lineStart) continue; // not a header line (or empty name): ignore it
    let v = colon + 1;
    while (v < lineEnd && (buf[v] === SPACE || buf[v] === TAB)) v++;
    let ve = lineEnd;
    while (ve > v && (buf[ve - 1] === SPACE || buf[ve - 1] === TAB)) ve--;
    const nameLen = colon - lineStart;
    switch (nameLen) {
      case 14:
        if (nameIs(buf, lineStart, nameLen, NAME_CONTENT_LENGTH)) {
          let n = 0;
          if (v === ve) return 'empty Content-Length';
          for (let k = v; k < ve; k++) {
            const c = buf[k]! - 48;
            if (c < 0 || c > 9) return 'malformed Content-Length';
            n = n * 10 + c;
          }
          if (contentLength !== -1 && contentLength !== n) return 'conflicting Content-Length headers';
          contentLength = n;
        }
        break;
      case 17:
        if (nameIs(buf, lineStart, nameLen, NAME_TRANSFER_ENCODING)) {
          // chunked must be the final coding; anything else is read until close.
          chunked = ve - v >= 7 && hasToken(buf, ve - 7 === v ? v : ve - 8, ve, 'chunked');
        }
        break;
      case 10:
        if (nameIs(buf, lineStart, nameLen, NAME_CONNECTION)) {
          if (hasToken(buf, v, ve, 'close')) connClose = true;
          else if (minor === 0 && hasToken(buf, v, ve, 'keep-alive')) connClose = false;
        }
        break;
      case 6:
        if (captureServer && nameIs(buf, lineStart, nameLen, NAME_SERVER)) {
          out.server = buf.toString('latin1', v, ve);
        }
        break;
    }
  }
  out.contentLength = contentLength;
  out.chunked = chunked;
  out.close = connClose;
  return null;
}
