import type net from 'node:net';
import { FLAG, FRAME } from './rules.ts';
import { frameHeader } from './frames.ts';
import { SocketWriter } from '../socket/socket-writer.ts';

/**
 * Every write of one HTTP/2 connection, in order. HEADERS frames of new requests are batched:
 * the requests a read's responses made room for go out together after the read, those
 * started elsewhere at the end of the current task (a microtask), one write per batch
 * instead of one per request. Any other frame flushes the batch first (it may refer to it).
 */
export class H2FrameWriter {
  private readonly writer: SocketWriter;
  private batch: Buffer = Buffer.allocUnsafe(0);
  private batchLength = 0;
  /** The stream of the first HEADERS frame in the batch (ids rise), 0 with an empty batch. */
  private batchFrom = 0;
  /** Set while a read is handled: its requests are flushed when it ends, not on a microtask. */
  reading = false;
  private flushQueued = false;
  private readonly flushBatch = (): void => {
    this.flushQueued = false;
    this.flush();
  };

  constructor(socket: net.Socket) {
    this.writer = new SocketWriter(socket);
  }

  /** Whether the socket's buffer is full (the server is not reading). */
  get backlogged(): boolean {
    return this.writer.backlogged;
  }

  /** Writes a frame (after the batched HEADERS frames, which it may refer to). */
  send(bytes: Uint8Array): void {
    if (this.batchLength > 0) this.flush();
    this.writer.write(bytes);
  }

  /** Whether stream id's HEADERS frame is still in the batch (not written yet). */
  unwritten(id: number): boolean {
    return this.batchFrom !== 0 && id >= this.batchFrom;
  }

  /** Writes the batched HEADERS frames in one write. */
  flush(): void {
    const n = this.batchLength;
    if (n === 0) return;
    this.batchLength = 0;
    this.batchFrom = 0;
    // Bytes the writer consumed at once leave the buffer free for the next batch.
    if (!this.writer.write(this.batch.subarray(0, n))) this.batch = Buffer.allocUnsafe(this.batch.length);
  }

  /** A request's header block on stream id, in one HEADERS frame or, past maxFrame, with CONTINUATION. */
  headers(id: number, block: Buffer, endStream: boolean, maxFrame: number): void {
    if (block.length > maxFrame) {
      const frames: Buffer[] = [];
      for (let off = 0; off < block.length; off += maxFrame) {
        const part = block.subarray(off, off + maxFrame);
        const last = off + maxFrame >= block.length;
        const type = off === 0 ? FRAME.HEADERS : FRAME.CONTINUATION;
        const flags = (last ? FLAG.END_HEADERS : 0) | (off === 0 && endStream ? FLAG.END_STREAM : 0);
        frames.push(frameHeader(part.length, type, flags, id), part);
      }
      this.send(Buffer.concat(frames));
      return;
    }
    const n = block.length;
    this.reserve(9 + n);
    if (this.batchFrom === 0) this.batchFrom = id;
    const f = this.batch;
    const at = this.batchLength;
    // Byte stores and set(): Buffer's write and copy methods check their arguments each call.
    f[at] = n >>> 16;
    f[at + 1] = (n >>> 8) & 0xff;
    f[at + 2] = n & 0xff;
    f[at + 3] = FRAME.HEADERS;
    f[at + 4] = FLAG.END_HEADERS | (endStream ? FLAG.END_STREAM : 0);
    f[at + 5] = id >>> 24;
    f[at + 6] = (id >>> 16) & 0xff;
    f[at + 7] = (id >>> 8) & 0xff;
    f[at + 8] = id & 0xff;
    f.set(block, at + 9);
    this.batchLength = at + 9 + n;
    if (!this.reading && !this.flushQueued) {
      this.flushQueued = true;
      queueMicrotask(this.flushBatch);
    }
  }

  /** Room for n more bytes in the batch. */
  private reserve(n: number): void {
    if (this.batchLength + n <= this.batch.length) return;
    const grown = Buffer.allocUnsafe(Math.max(2 * this.batch.length, this.batchLength + n, 1024));
    this.batch.copy(grown, 0, 0, this.batchLength);
    this.batch = grown;
  }
}
