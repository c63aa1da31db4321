import { connectionError, H2_CODE } from './errors.ts';
import { frameName } from './rules.ts';
import { MIN_MAX_FRAME_SIZE } from './settings.ts';

/** The largest frame the server may send: the client never raises SETTINGS_MAX_FRAME_SIZE. */
const MAX_FRAME_RECEIVED = MIN_MAX_FRAME_SIZE;

function frameTooLarge(type: number, len: number): never {
  return connectionError(
    `${frameName(type)} frame of ${len} bytes, above the ${MAX_FRAME_RECEIVED}-byte SETTINGS_MAX_FRAME_SIZE the client allows (RFC 9113 section 4.2)`,
    H2_CODE.FRAME_SIZE_ERROR,
  );
}

/** Gets one whole frame: its 9-byte header at `at`, then `len` bytes of payload. */
export type FrameHandler = (b: Buffer, at: number, len: number) => void;

/**
 * Cuts one HTTP/2 connection's reads into frames. A frame's length is checked against the
 * limit before the rest of it is awaited, so a frame is never buffered past it; a frame split
 * across reads is kept (copied: the read buffer is reused) until the read that completes it.
 */
export class H2FrameReader {
  /** Partial frame kept from the previous read. */
  private pending: Buffer | null = null;
  private readonly onFrame: FrameHandler;
  /** True once the connection closed: the rest of the read is dropped. */
  private readonly stopped: () => boolean;

  constructor(onFrame: FrameHandler, stopped: () => boolean) {
    this.onFrame = onFrame;
    this.stopped = stopped;
  }

  /** The first n bytes of buf, read now; throws a connection error for a frame above the limit. */
  read(buf: Buffer, n: number): void {
    let pos = 0;
    if (this.pending !== null) {
      pos = this.completePending(buf, n);
      if (pos < 0 || this.stopped()) return;
    }
    while (n - pos >= 9) {
      const len = (buf[pos]! << 16) | (buf[pos + 1]! << 8) | buf[pos + 2]!;
      // Checked before waiting for the rest: a frame is never buffered past the limit.
      if (len > MAX_FRAME_RECEIVED) frameTooLarge(buf[pos + 3]!, len);
      if (n - pos < 9 + len) break;
      this.onFrame(buf, pos, len);
      pos += 9 + len;
      if (this.stopped()) return;
    }
    if (pos < n) this.pending = Buffer.from(buf.subarray(pos, n));
  }

  /**
   * Finishes the frame the last read left partial with only the bytes it lacks (not the whole
   * read: a large response splits frames across nearly every read). Returns where the next
   * frame starts in buf, or -1 when this read did not complete it either.
   */
  private completePending(buf: Buffer, n: number): number {
    const kept = this.pending!;
    this.pending = null;
    if (kept.length < 9 && kept.length + n < 9) {
      this.pending = Buffer.concat([kept, buf.subarray(0, n)]);
      return -1;
    }
    const byte = (i: number): number => (i < kept.length ? kept[i]! : buf[i - kept.length]!);
    const len = (byte(0) << 16) | (byte(1) << 8) | byte(2);
    if (len > MAX_FRAME_RECEIVED) frameTooLarge(byte(3), len);
    const take = 9 + len - kept.length;
    if (take > n) {
      this.pending = Buffer.concat([kept, buf.subarray(0, n)]);
      return -1;
    }
    this.onFrame(Buffer.concat([kept, buf.subarray(0, take)]), 0, len);
    return take;
  }
}
