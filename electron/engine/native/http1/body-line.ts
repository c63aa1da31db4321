/*
 * The first line of text of a response's body, from the raw bytes of its connection: what the
 * pre-flight shows beside an error status ("404 Not Found: File not found"), so a person sees
 * the server's own words. Only a bounded prefix of the connection is kept (PREVIEW_BYTES), the
 * hot parsers are left alone, and a body that does not fit gives what fits or nothing.
 */

/** Bytes of a connection kept for the preview: the head (or HTTP/2 frames before DATA) and a little body. */
export const PREVIEW_BYTES = 16 * 1024;
/** The longest line shown. */
export const LINE_CHARS = 200;

/** Keeps the first PREVIEW_BYTES of what a connection received. */
export class ConnectionPrefix {
  private readonly chunks: Buffer[] = [];
  private size = 0;

  add(chunk: Buffer): void {
    if (this.size >= PREVIEW_BYTES) return;
    const part = chunk.subarray(0, PREVIEW_BYTES - this.size);
    this.chunks.push(part);
    this.size += part.length;
  }

  bytes(): Buffer {
    return Buffer.concat(this.chunks, this.size);
  }
}

/**
 * The first non-blank line of a body as text, HTML tags taken out (nginx's 404 page begins
 * "<html>" on a line of its own), at most LINE_CHARS characters; null when none.
 */
export function firstLineOf(body: Buffer): string | null {
  const text = body.toString('utf8');
  for (const raw of text.split(/\r?\n/)) {
    const line = raw
      .replace(/<[^>]*>/g, ' ')
      .replace(/\s+/g, ' ')
      .trim();
    if (line !== '') return line.length > LINE_CHARS ? `${line.slice(0, LINE_CHARS - 1)}…` : line;
  }
  return null;
}

/** An HTTP/1.x response's body in the bytes of its connection (de-chunked as far as it goes). */
export function http1Body(raw: Buffer): Buffer {
  const end = raw.indexOf('\r\n\r\n');
  if (end < 0) return Buffer.alloc(0);
  const head = raw.subarray(0, end).toString('latin1');
  const body = raw.subarray(end + 4);
  if (!/^transfer-encoding:[^\r\n]*chunked/im.test(head)) return body;
  const parts: Buffer[] = [];
  let at = 0;
  while (at < body.length) {
    const lineEnd = body.indexOf('\r\n', at);
    if (lineEnd < 0) break;
    const size = Number.parseInt(body.subarray(at, lineEnd).toString('latin1'), 16);
    if (!Number.isFinite(size) || size <= 0) break;
    parts.push(body.subarray(lineEnd + 2, Math.min(body.length, lineEnd + 2 + size)));
    at = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

const DATA = 0x0;
const PADDED = 0x8;
/** The client connection preface's length is not in what the server sends: frames start at 0. */
const FRAME_HEAD = 9;

/** An HTTP/2 stream's DATA payloads in the bytes the server sent (padding removed). */
export function http2Body(raw: Buffer, streamId: number): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  while (at + FRAME_HEAD <= raw.length) {
    const length = raw.readUIntBE(at, 3);
    const type = raw[at + 3];
    const flags = raw[at + 4] ?? 0;
    const stream = raw.readUInt32BE(at + 5) & 0x7fffffff;
    const payload = raw.subarray(at + FRAME_HEAD, Math.min(raw.length, at + FRAME_HEAD + length));
    if (type === DATA && stream === streamId) {
      const pad = flags & PADDED ? (payload[0] ?? 0) : 0;
      const from = flags & PADDED ? 1 : 0;
      parts.push(payload.subarray(from, Math.max(from, payload.length - pad)));
    }
    at += FRAME_HEAD + length;
  }
  return Buffer.concat(parts);
}
