/*
 * The head of an HTTP/1.x response, judged and read for what framing needs: the status line,
 * and Content-Length, Transfer-Encoding, Connection (and Server when asked) among the header
 * lines, scanned byte by byte; no header object is built. response-parser.ts frames the
 * response with it, in the native engine, the autocannon engine and the pre-flight alike, so
 * every response is judged by one set of rules:
 *
 * - status line: "HTTP/1.x", then a three-digit status code 100-999. Codes 600-999 are not
 *   defined, and RFC 9110 section 15 has a client treat them as a 5xx: they are counted as
 *   responses under their own code. Anything else (HTTP/2.0 on an HTTP/1.1 connection, a
 *   code of four digits) is a protocol error.
 * - header lines (RFC 9112 section 5): a name of token characters, the colon right after it
 *   (no whitespace between), a value without NUL or a bare CR (RFC 9110 section 5.5: a
 *   recipient rejects them or replaces them; rejecting keeps the framing unambiguous). A line
 *   folded onto the next (obs-fold) continues the field's value, read as a space (RFC 9112
 *   section 5.2); a whitespace-led line right after the status line is ignored (section 2.2).
 * - Content-Length: digits; the same value repeated (in several lines or as a list) is one
 *   value (RFC 9110 section 8.6); different values are a protocol error.
 * - Transfer-Encoding overrides Content-Length (RFC 9112 section 6.3): chunked as the final
 *   coding frames the body; any other coding runs to the connection's close.
 */

export const CR = 13;
export const LF = 10;
export const SPACE = 32;
export const TAB = 9;
const COLON = 58;
const COMMA = 44;
const NUL = 0;

const NAME_CONTENT_LENGTH = Buffer.from('content-length');
const NAME_TRANSFER_ENCODING = Buffer.from('transfer-encoding');
const NAME_CONNECTION = Buffer.from('connection');
const NAME_SERVER = Buffer.from('server');

/** Content-Length digits beyond which a length is no longer an exact number here. */
const MAX_LENGTH_DIGITS = 15;

/** tchar (RFC 9110 section 5.6.2): the characters of a header name. */
const TCHAR = new Uint8Array(256);
for (const c of "!#$%&'*+-.^_`|~") TCHAR[c.charCodeAt(0)] = 1;
for (let c = 48; c <= 57; c++) TCHAR[c] = 1;
for (let c = 65; c <= 90; c++) TCHAR[c] = TCHAR[c + 32] = 1;

/** What a head says; filled in place by readHead (one per parser, no allocation per response). */
export interface HeadFields {
  status: number;
  /** HTTP minor version: 1 for HTTP/1.1, 0 for HTTP/1.0. */
  minor: number;
  /** -1 without a Content-Length, or when Transfer-Encoding overrides it. */
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

/** Separators between a value's tokens; CR and LF are a fold's, read as a space. */
const isSeparator = (c: number): boolean => c === SPACE || c === TAB || c === COMMA || c === CR || c === LF;
const isBlank = (c: number): boolean => c === SPACE || c === TAB || c === CR || c === LF;

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

/** Whether the last coding of a Transfer-Encoding value buf[from, to) is chunked. */
function lastIsChunked(buf: Uint8Array, from: number, to: number): boolean {
  let end = to;
  while (end > from && isSeparator(buf[end - 1]!)) end--;
  let start = end;
  while (start > from && !isSeparator(buf[start - 1]!)) start--;
  return end - start === 7 && hasToken(buf, start, end, 'chunked');
}

/**
 * A Content-Length value buf[from, to): one number, or the same number listed again; -2 when
 * it is empty or not digits, -3 when the listed numbers differ.
 */
function contentLengthOf(buf: Uint8Array, from: number, to: number): number {
  let value = -1;
  let i = from;
  while (i < to) {
    while (i < to && isBlank(buf[i]!)) i++;
    let n = 0;
    let digits = 0;
    while (i < to) {
      const d = buf[i]! - 48;
      if (d < 0 || d > 9) break;
      n = n * 10 + d;
      digits++;
      i++;
    }
    while (i < to && isBlank(buf[i]!)) i++;
    if (digits === 0 || digits > MAX_LENGTH_DIGITS || (i < to && buf[i] !== COMMA)) return -2;
    if (value !== -1 && value !== n) return -3;
    value = n;
    i++;
  }
  return value === -1 ? -2 : value;
}

/** "0x00" for a byte the message names. */
const hex = (c: number): string => `0x${c.toString(16).padStart(2, '0')}`;

/** The header name of a line, for a message ("x-bad"). */
const nameAt = (buf: Buffer, from: number, to: number): string =>
  JSON.stringify(buf.toString('latin1', from, Math.min(to, from + 40)));

const isDigit = (c: number | undefined): boolean => c !== undefined && c >= 48 && c <= 57;

/** Why the status line buf[from, ...) is not valid, or null; sets status and minor. */
function readStatusLine(buf: Buffer, from: number, to: number, out: HeadFields): string | null {
  if (
    to - from < 16 ||
    buf[from] !== 72 /* H */ ||
    buf[from + 1] !== 84 ||
    buf[from + 2] !== 84 ||
    buf[from + 3] !== 80 ||
    buf[from + 4] !== 47 /* / */ ||
    !isDigit(buf[from + 5]) ||
    buf[from + 6] !== 46 /* . */ ||
    !isDigit(buf[from + 7]) ||
    buf[from + 8] !== SPACE
  ) {
    return 'response does not start with an HTTP/1.x status line';
  }
  if (buf[from + 5] !== 49 /* 1 */) {
    return `the status line says ${buf.toString('latin1', from, from + 8)}: an HTTP/1.x connection is answered in HTTP/1.x (RFC 9112 section 2.3)`;
  }
  let end = from + 9;
  while (end < to && isDigit(buf[end])) end++;
  const after = buf[end];
  if (end - (from + 9) !== 3 || buf[from + 9] === 48 || (after !== SPACE && after !== CR && after !== LF)) {
    let code = from + 9;
    while (code < to && buf[code] !== SPACE && buf[code] !== CR && buf[code] !== LF) code++;
    return `malformed status code ${nameAt(buf, from + 9, code)}: three digits from 100 to 999 (RFC 9110 section 15)`;
  }
  out.status = (buf[from + 9]! - 48) * 100 + (buf[from + 10]! - 48) * 10 + (buf[from + 11]! - 48);
  out.minor = buf[from + 7]! - 48;
  for (let i = end; buf[i] !== LF; i++) {
    const c = buf[i]!;
    if (c === NUL || (c === CR && buf[i + 1] !== LF))
      return `${hex(c)} in the status line (RFC 9110 section 5.5)`;
  }
  return null;
}

/**
 * What the framing headers of the head being read said so far. One object for every parse (a
 * parse runs to its end synchronously): a head parsed anew (a new Date, once a second per
 * connection) allocates nothing.
 */
const framing = { contentLength: -1, transferEncoding: false, chunked: false, close: false };

/**
 * Reads the status line and framing headers of buf[from, to) (to is just past CRLFCRLF) into
 * `out`; returns why the head is not valid HTTP/1.x, or null.
 */
export function readHead(
  buf: Buffer,
  from: number,
  to: number,
  captureServer: boolean,
  out: HeadFields,
): string | null {
  const bad = readStatusLine(buf, from, to, out);
  if (bad !== null) return bad;
  const minor = out.minor;
  out.server = null;
  framing.contentLength = -1;
  framing.transferEncoding = false;
  framing.chunked = false;
  framing.close = minor === 0;

  let i = from + 12;
  while (buf[i] !== LF) i++;
  i++;
  const headEnd = to - 2; // the final empty line's CRLF
  // The field being read: its name and value (a fold extends the value to a later line).
  let name = -1;
  let nameLen = 0;
  let v = 0;
  let ve = 0;
  while (i <= headEnd) {
    const lineStart = i;
    const folded = i < headEnd && (buf[i] === SPACE || buf[i] === TAB);
    let colon = -1;
    let j = i;
    for (; buf[j] !== LF; j++) {
      const c = buf[j]!;
      if (c === NUL) return `NUL (0x00) in header line ${nameAt(buf, lineStart, j)} (RFC 9110 section 5.5)`;
      if (c === CR && buf[j + 1] !== LF) {
        return `a bare CR in header line ${nameAt(buf, lineStart, j)} (RFC 9112 section 2.2)`;
      }
      if (colon === -1 && c === COLON) colon = j;
    }
    const lineEnd = buf[j - 1] === CR ? j - 1 : j;
    i = j + 1;
    if (folded) {
      // obs-fold: the previous field's value goes on (the bytes between are read as spaces);
      // right after the status line there is none, and the line is ignored.
      if (name >= 0) ve = lineEnd;
      continue;
    }
    // The line ends the field before it: act on that one first.
    if (name >= 0) {
      const why = readField(buf, name, nameLen, v, ve, minor, captureServer, out);
      if (why !== null) return why;
      name = -1;
    }
    if (lineStart >= headEnd) break;
    if (colon === -1)
      return `header line ${nameAt(buf, lineStart, lineEnd)} has no colon (RFC 9112 section 5)`;
    if (colon === lineStart) return `header line ${nameAt(buf, lineStart, lineEnd)} has no name`;
    for (let k = lineStart; k < colon; k++) {
      const c = buf[k]!;
      if (TCHAR[c] === 1) continue;
      return c === SPACE || c === TAB
        ? `whitespace between header name ${nameAt(buf, lineStart, k)} and its colon (RFC 9112 section 5.1)`
        : `${hex(c)} in header name ${nameAt(buf, lineStart, colon)} (RFC 9110 section 5.1)`;
    }
    name = lineStart;
    nameLen = colon - lineStart;
    v = colon + 1;
    ve = lineEnd;
  }
  if (name >= 0) {
    const why = readField(buf, name, nameLen, v, ve, minor, captureServer, out);
    if (why !== null) return why;
  }

  // Transfer-Encoding overrides Content-Length (RFC 9112 section 6.3).
  out.contentLength = framing.transferEncoding ? -1 : framing.contentLength;
  out.chunked = framing.chunked;
  out.close = framing.close;
  return null;
}

/** Acts on one field: its name at buf[name, name + nameLen), its value buf[v, ve) (folds included). */
function readField(
  buf: Buffer,
  name: number,
  nameLen: number,
  v: number,
  ve: number,
  minor: number,
  captureServer: boolean,
  out: HeadFields,
): string | null {
  let a = v;
  while (a < ve && isBlank(buf[a]!)) a++;
  let b = ve;
  while (b > a && isBlank(buf[b - 1]!)) b--;
  switch (nameLen) {
    case 14:
      if (nameIs(buf, name, nameLen, NAME_CONTENT_LENGTH)) {
        if (a === b) return 'empty Content-Length';
        const n = contentLengthOf(buf, a, b);
        if (n === -2) return `malformed Content-Length ${nameAt(buf, a, b)} (RFC 9110 section 8.6)`;
        if (n === -3 || (framing.contentLength !== -1 && framing.contentLength !== n))
          return 'conflicting Content-Length headers';
        framing.contentLength = n;
      }
      break;
    case 17:
      if (nameIs(buf, name, nameLen, NAME_TRANSFER_ENCODING)) {
        framing.transferEncoding = true;
        // chunked must be the final coding (of the last line); anything else is read until close.
        framing.chunked = lastIsChunked(buf, a, b);
      }
      break;
    case 10:
      if (nameIs(buf, name, nameLen, NAME_CONNECTION)) {
        if (hasToken(buf, a, b, 'close')) framing.close = true;
        else if (minor === 0 && hasToken(buf, a, b, 'keep-alive')) framing.close = false;
      }
      break;
    case 6:
      if (captureServer && nameIs(buf, name, nameLen, NAME_SERVER)) {
        out.server = buf.toString('latin1', a, b).replace(/\r?\n[ \t]*/g, ' ');
      }
      break;
  }
  return null;
}
