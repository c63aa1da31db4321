/**
 * The little HPACK (RFC 7541) the native HTTP/2 client needs.
 *
 * Requests: one header block built once per run, with literal fields that never touch the
 * dynamic table, so the same bytes go out on every stream.
 *
 * Responses: the client announces SETTINGS_HEADER_TABLE_SIZE = 0, so the server's encoder
 * keeps no dynamic table (every entry it inserts is evicted at once, RFC 7541 section 4.4).
 * The decoder then only has to walk the block and read :status (static index 8-14, or a
 * literal) and, when asked, the Server value. A reference to the dynamic table is a
 * protocol error.
 */

/** Static table entries with a value the client may meet (RFC 7541 appendix A). */
const STATIC_STATUS: Record<number, number> = { 8: 200, 9: 204, 10: 206, 11: 304, 12: 400, 13: 404, 14: 500 };
const NAME_STATUS = 8;
const NAME_SERVER = 54;
const STATIC_TABLE_SIZE = 61;

/** Static name indexes for the request's fields. */
const NAME_INDEX: Record<string, number> = {
  ':authority': 1,
  ':method': 2,
  ':path': 4,
  ':scheme': 6,
  accept: 19,
  'content-length': 28,
  'content-type': 31,
  'user-agent': 58,
};

function encodeInt(out: number[], value: number, prefixBits: number, firstByte: number): void {
  const max = (1 << prefixBits) - 1;
  if (value < max) {
    out.push(firstByte | value);
    return;
  }
  out.push(firstByte | max);
  let v = value - max;
  while (v >= 128) {
    out.push((v & 127) | 128);
    v = Math.floor(v / 128);
  }
  out.push(v);
}

function encodeString(out: number[], text: string): void {
  const bytes = Buffer.from(text, 'latin1');
  encodeInt(out, bytes.length, 7, 0); // H = 0: raw octets
  for (const b of bytes) out.push(b);
}

/**
 * The header block of a request: pseudo-headers first (RFC 9113 section 8.3), every field
 * a literal without indexing (no dynamic table state on either side).
 */
export function encodeRequestBlock(headers: Record<string, string>): Buffer {
  const out: number[] = [];
  const entries = Object.entries(headers).sort(
    ([a], [b]) => Number(b.startsWith(':')) - Number(a.startsWith(':')),
  );
  for (const [name, value] of entries) {
    const index = NAME_INDEX[name];
    if (index !== undefined) {
      encodeInt(out, index, 4, 0x00);
    } else {
      out.push(0x00);
      encodeString(out, name);
    }
    encodeString(out, value);
  }
  return Buffer.from(out);
}

/**
 * Code lengths of the 257 Huffman symbols (octets 0-255, then EOS) of RFC 7541 appendix B,
 * one base-32 digit each. The code is canonical (codes follow the order of length, then
 * symbol), so the lengths alone define it.
 */
const HUFFMAN_LENGTHS =
  'DNSSSSSSSOUSSUSSSSSSSSUSSSSSSSSS6AACD68BAA8B8666555666666678F6CAD67777777777777777777777878DJDE6F5656566657766656765567' +
  '7777FBEDSKMKKMMMNMNNNNNONOOMNONNNNLMNMNNOMLKMMNNLNMMOLMNNLLMLNMNNKMMMNMMNQQKJMNMPQQQRRQOPJLQRRQROLLQQSRRRKOKLMLLNMMPPOOQ' +
  'NQRQQRRRRRSRRRRRQU';

/** Canonical decoding tables: per code length, the first code, how many codes, and where their symbols start. */
const HUFFMAN = (() => {
  const lengths = [...HUFFMAN_LENGTHS].map((c) => parseInt(c, 32));
  const symbols = lengths.map((_, sym) => sym).sort((a, b) => lengths[a]! - lengths[b]! || a - b);
  const first = new Int32Array(31).fill(-1);
  const count = new Int32Array(31);
  const offset = new Int32Array(31);
  let code = 0;
  let prev = lengths[symbols[0]!]!;
  symbols.forEach((sym, i) => {
    const len = lengths[sym]!;
    if (i > 0) code = (code + 1) << (len - prev);
    prev = len;
    if (first[len] === -1) {
      first[len] = code;
      offset[len] = i;
    }
    count[len]!++;
  });
  return { symbols: Int32Array.from(symbols), first, count, offset };
})();

const EOS = 256;

/** Decodes a Huffman-coded string (RFC 7541 section 5.2); null when the coding is invalid. */
export function huffmanDecode(buf: Uint8Array, from: number, to: number): string | null {
  const { symbols, first, count, offset } = HUFFMAN;
  const out: number[] = [];
  let code = 0;
  let len = 0;
  for (let i = from; i < to; i++) {
    const byte = buf[i]!;
    for (let bit = 7; bit >= 0; bit--) {
      code = (code << 1) | ((byte >> bit) & 1);
      len++;
      const k = code - first[len]!;
      if (first[len] !== -1 && k >= 0 && k < count[len]!) {
        const sym = symbols[offset[len]! + k]!;
        if (sym === EOS) return null;
        out.push(sym);
        code = 0;
        len = 0;
      } else if (len >= 30) {
        return null;
      }
    }
  }
  // Padding: fewer than 8 bits, all ones (a prefix of EOS).
  if (len >= 8 || code !== (1 << len) - 1) return null;
  return Buffer.from(out).toString('latin1');
}

export interface DecodedHead {
  status: number;
  server: string | null;
}

/** Why a header block could not be read; the connection is then unusable. */
export class HpackError extends Error {
  override readonly name = 'HpackError';
}

function decodeInt(buf: Uint8Array, at: { pos: number }, end: number, prefixBits: number): number {
  const max = (1 << prefixBits) - 1;
  let value = buf[at.pos++]! & max;
  if (value < max) return value;
  let shift = 0;
  for (;;) {
    if (at.pos >= end) throw new HpackError('truncated integer in a header block');
    const b = buf[at.pos++]!;
    value += (b & 127) * 2 ** shift;
    shift += 7;
    if ((b & 128) === 0) return value;
    if (shift > 28) throw new HpackError('integer too large in a header block');
  }
}

/** Skips a string literal, or returns its value when wanted (null when its Huffman coding is invalid). */
function readString(buf: Uint8Array, at: { pos: number }, end: number, want: boolean): string | null {
  if (at.pos >= end) throw new HpackError('truncated string in a header block');
  const huffman = (buf[at.pos]! & 0x80) !== 0;
  const len = decodeInt(buf, at, end, 7);
  const from = at.pos;
  at.pos += len;
  if (at.pos > end) throw new HpackError('truncated string in a header block');
  if (!want) return null;
  if (!huffman) return Buffer.from(buf.buffer, buf.byteOffset + from, len).toString('latin1');
  return huffmanDecode(buf, from, at.pos);
}

/**
 * Reads :status (and Server when wantServer) from a response header block. status is 0
 * when the block has no :status (trailers).
 */
export function decodeResponseBlock(
  buf: Uint8Array,
  from: number,
  to: number,
  wantServer: boolean,
): DecodedHead {
  const at = { pos: from };
  let status = 0;
  let server: string | null = null;
  while (at.pos < to) {
    const b = buf[at.pos]!;
    if (b & 0x80) {
      const index = decodeInt(buf, at, to, 7);
      if (index === 0 || index > STATIC_TABLE_SIZE) {
        throw new HpackError(
          `header block refers to index ${index} though the client keeps no dynamic table`,
        );
      }
      const s = STATIC_STATUS[index];
      if (s !== undefined) status = s;
      continue;
    }
    if ((b & 0xe0) === 0x20) {
      // Dynamic table size update: only 0 is allowed (the client's SETTINGS_HEADER_TABLE_SIZE).
      if (decodeInt(buf, at, to, 5) !== 0)
        throw new HpackError('server grew the dynamic table beyond the client setting of 0');
      continue;
    }
    // Literal: with incremental indexing (01), without (0000) or never indexed (0001).
    const nameIndex = decodeInt(buf, at, to, (b & 0x40) !== 0 ? 6 : 4);
    if (nameIndex > STATIC_TABLE_SIZE) {
      throw new HpackError(
        `header block refers to index ${nameIndex} though the client keeps no dynamic table`,
      );
    }
    let name = nameIndex;
    if (nameIndex === 0) {
      const literal = readString(buf, at, to, true);
      name = literal === ':status' ? NAME_STATUS : literal === 'server' ? NAME_SERVER : -1;
    }
    if (name === NAME_STATUS) {
      const value = readString(buf, at, to, true);
      const n = value !== null && /^\d{3}$/.test(value) ? Number(value) : NaN;
      if (!(n >= 100 && n <= 599)) throw new HpackError('malformed :status in a response');
      status = n;
    } else if (name === NAME_SERVER && wantServer) {
      server = readString(buf, at, to, true);
    } else {
      readString(buf, at, to, false);
    }
    // An incrementally indexed entry is evicted at once from a table of size 0.
  }
  return { status, server };
}
