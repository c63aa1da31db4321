import { connectionError, H2_CODE } from './errors.ts';
import type { H2Exchange } from './exchange.ts';
import { FLAG, FRAME } from './rules.ts';
import type { H2FrameWriter } from './frame-writer.ts';
import { DEFAULT_WINDOW, frameHeader } from './frames.ts';
import { MAX_WINDOW, MIN_MAX_FRAME_SIZE } from './settings.ts';

/**
 * The sending side of one connection's flow control (RFC 9113 section 6.9): the connection's
 * and each stream's send window, the server's largest frame, and the request bodies they let
 * out. The session hands it the server's SETTINGS and WINDOW_UPDATE figures; a window taken
 * past 2^31-1 is the error the RFC names.
 */
export class H2SendFlow {
  readonly #out: H2FrameWriter;
  readonly #body: Uint8Array | null;
  #connWindow = DEFAULT_WINDOW;
  /** SETTINGS_INITIAL_WINDOW_SIZE: each new stream's window. */
  #streamWindow = DEFAULT_WINDOW;
  /** SETTINGS_MAX_FRAME_SIZE. */
  maxFrame = MIN_MAX_FRAME_SIZE;

  constructor(out: H2FrameWriter, body: Uint8Array | null) {
    this.#out = out;
    this.#body = body;
  }

  /** A stream's request body: its list request's, else the connection's one request's. */
  #bodyOf(ex: H2Exchange): Uint8Array | null {
    return ex.request === null ? this.#body : ex.request.body;
  }

  /** A new stream starts with the server's initial window; its body goes as far as the windows allow. */
  opened(ex: H2Exchange): void {
    ex.sendWindow = this.#streamWindow;
    const body = this.#bodyOf(ex);
    if (body !== null) this.#send(ex, body);
  }

  /** SETTINGS_INITIAL_WINDOW_SIZE changed: the change applies to every open stream's window (section 6.9.2). */
  initialWindow(size: number, open: Iterable<H2Exchange>): void {
    const delta = size - this.#streamWindow;
    const streams = [...open];
    for (const ex of streams) {
      if (ex.sendWindow + delta > MAX_WINDOW) {
        connectionError(
          `SETTINGS_INITIAL_WINDOW_SIZE = ${size} takes stream ${ex.id}'s window above 2^31-1`,
          H2_CODE.FLOW_CONTROL_ERROR,
        );
      }
    }
    this.#streamWindow = size;
    for (const ex of streams) ex.sendWindow += delta;
  }

  /** WINDOW_UPDATE on the connection (stream 0). */
  connectionUpdate(inc: number): void {
    if (inc === 0) connectionError('WINDOW_UPDATE of 0 on the connection (RFC 9113 section 6.9)');
    if (this.#connWindow + inc > MAX_WINDOW) {
      connectionError(
        'WINDOW_UPDATE takes the connection window above 2^31-1 (RFC 9113 section 6.9.1)',
        H2_CODE.FLOW_CONTROL_ERROR,
      );
    }
    this.#connWindow += inc;
  }

  /** WINDOW_UPDATE on a stream: null when it applied, else the stream error's code and message. */
  streamUpdate(ex: H2Exchange, inc: number): { code: number; message: string } | null {
    if (inc === 0) {
      return {
        code: H2_CODE.PROTOCOL_ERROR,
        message: 'WINDOW_UPDATE of 0 on the stream (RFC 9113 section 6.9)',
      };
    }
    if (ex.sendWindow + inc > MAX_WINDOW) {
      return {
        code: H2_CODE.FLOW_CONTROL_ERROR,
        message: "WINDOW_UPDATE takes the stream's window above 2^31-1 (RFC 9113 section 6.9.1)",
      };
    }
    ex.sendWindow += inc;
    return null;
  }

  /** After a window grew: the bodies still waiting go on. */
  flush(open: Iterable<H2Exchange>): void {
    for (const ex of open) {
      const body = this.#bodyOf(ex);
      if (body !== null && ex.bodyOffset < body.length) this.#send(ex, body);
    }
  }

  /** Sends as much of the request body as the flow-control windows allow. */
  #send(ex: H2Exchange, body: Uint8Array): void {
    while (!ex.ended && ex.bodyOffset < body.length) {
      const n = Math.min(body.length - ex.bodyOffset, ex.sendWindow, this.#connWindow, this.maxFrame);
      if (n <= 0 && body.length > 0) return;
      const last = ex.bodyOffset + n === body.length;
      this.#out.send(frameHeader(n, FRAME.DATA, last ? FLAG.END_STREAM : 0, ex.id));
      if (n > 0) this.#out.send(body.subarray(ex.bodyOffset, ex.bodyOffset + n));
      ex.bodyOffset += n;
      ex.sendWindow -= n;
      this.#connWindow -= n;
      if (last) return;
    }
  }
}
