import { connectionError, H2_CODE } from './errors.ts';
import { FLAG } from './rules.ts';

/**
 * A response header block spread over a HEADERS frame and its CONTINUATION frames (RFC 9113
 * section 6.10). A block must be decoded whole to keep the HPACK table in step, so one that
 * outgrows the limit (a CONTINUATION flood) costs the connection, before it is buffered any
 * further.
 */
export class H2HeaderBlock {
  private readonly maxBytes: number;
  /** Fragments so far; null when no block awaits CONTINUATION. */
  private parts: Buffer[] | null = null;
  /** The stream the awaited block is for, and whether its HEADERS frame ended the stream. */
  stream = 0;
  endStream = false;
  /** Bytes of the block being received, over its HEADERS and CONTINUATION frames. */
  private bytes = 0;

  constructor(maxBytes: number) {
    this.maxBytes = maxBytes;
  }

  /** True while a block awaits CONTINUATION: no other frame may come between. */
  get open(): boolean {
    return this.parts !== null;
  }

  /** A HEADERS frame's fragment (from..to of b); held when the block goes on in CONTINUATION. */
  headers(b: Buffer, from: number, to: number, id: number, flags: number): void {
    this.bytes = 0;
    this.count(to - from);
    if (flags & FLAG.END_HEADERS) return;
    this.parts = [Buffer.from(b.subarray(from, to))];
    this.stream = id;
    this.endStream = (flags & FLAG.END_STREAM) !== 0;
  }

  /** A CONTINUATION frame's payload; the whole block once it ends (END_HEADERS), else null. */
  continuation(b: Buffer, p: number, len: number, flags: number): Buffer | null {
    if (this.parts === null) connectionError('CONTINUATION frame without a HEADERS frame before it');
    this.count(len);
    this.parts.push(Buffer.from(b.subarray(p, p + len)));
    if ((flags & FLAG.END_HEADERS) === 0) return null;
    const block = Buffer.concat(this.parts);
    this.parts = null;
    return block;
  }

  private count(n: number): void {
    this.bytes += n;
    if (this.bytes > this.maxBytes) {
      connectionError(
        `response header block larger than ${this.maxBytes} bytes (the client's limit)`,
        H2_CODE.ENHANCE_YOUR_CALM,
      );
    }
  }
}
