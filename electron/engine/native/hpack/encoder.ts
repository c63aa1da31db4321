/*
 * The request side of HPACK: one header block built once per run, with literal fields that
 * never touch the server's dynamic table, so the same bytes go out on every stream.
 */

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
export function encodeRequestBlock(fields: readonly (readonly [string, string])[]): Buffer {
  const out: number[] = [];
  const entries = [...fields].sort(([a], [b]) => Number(b.startsWith(':')) - Number(a.startsWith(':')));
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
