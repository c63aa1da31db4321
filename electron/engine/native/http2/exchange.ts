/* What an HTTP/2 session and its client share: the request on a stream, the session's events and settings. */

/** One request on a stream. The session fills in what it learns. */
export interface H2Exchange {
  id: number;
  intendedAt: number;
  startAt: number;
  writtenAt: number;
  firstByteAt: number;
  status: number;
  bodyBytes: number;
  /** Every byte of this stream's frames as they came (9-byte frame headers, compressed headers, data). */
  wireBytes: number;
  server: string | null;
  /** Request body bytes not yet sent (flow control). */
  bodyOffset: number;
  /** This stream's send window (for the request body). */
  sendWindow: number;
  received: number;
  /** Settled: answered, failed or abandoned; later frames for it are dropped. */
  ended: boolean;
  /** Times the request went out again after the server refused it or left it unprocessed. */
  retries: number;
  /** The request of a target's list this stream carries; null: the session's one request. */
  request: H2ListRequest | null;
}

/** One request of a list, ready for the wire: its header block encoded once, its body, its bytes as framed. */
export interface H2ListRequest {
  index: number;
  block: Buffer;
  body: Uint8Array | null;
  /** Bytes on the wire: the HEADERS frame and the DATA frames (16 KiB each at most). */
  wireBytes: number;
}

/** Bytes of a request on the wire: its HEADERS frame, and its body in DATA frames of 16 KiB at most. */
function h2RequestBytes(block: Buffer, body: Uint8Array | null): number {
  const bodyBytes = body?.byteLength ?? 0;
  return 9 + block.length + (body === null ? 0 : 9 * Math.ceil(bodyBytes / 16_384) + bodyBytes);
}

export function h2ListRequest(index: number, block: Buffer, body: Uint8Array | null): H2ListRequest {
  const b = body !== null && body.byteLength > 0 ? body : null;
  return { index, block, body: b, wireBytes: h2RequestBytes(block, b) };
}

/** A fresh exchange, not yet given a stream id or written. */
export function newExchange(
  intendedAt: number,
  startAt: number,
  request: H2ListRequest | null = null,
): H2Exchange {
  return {
    id: 0,
    intendedAt,
    startAt,
    writtenAt: 0,
    firstByteAt: 0,
    status: 0,
    bodyBytes: 0,
    wireBytes: 0,
    server: null,
    bodyOffset: 0,
    sendWindow: 0,
    received: 0,
    ended: false,
    retries: 0,
    request,
  };
}

/** What a session tells its client; `Session` is the H2Session (a parameter, so this module needs none). */
export interface H2SessionEvents<Session> {
  /** A stream's response is complete. */
  onResponse(ex: H2Exchange): void;
  /** A stream was reset by the server (RST_STREAM with this code). */
  onReset(ex: H2Exchange, code: number): void;
  /** A stream broke the protocol (the session reset it); the rest of the connection goes on. */
  onStreamError(ex: H2Exchange, message: string): void;
  /** The server sent GOAWAY: streams above lastStreamId were not processed. */
  onGoaway(session: Session, lastStreamId: number, code: number): void;
  /** The server's SETTINGS_MAX_CONCURRENT_STREAMS. */
  onMaxStreams(session: Session, max: number): void;
  /**
   * The server sent a frame on a stream it had already ended (an answer to no request); the
   * connection closes with a STREAM_CLOSED error next (onClose).
   */
  onUnsolicited(session: Session): void;
  /**
   * The connection ended (error null when it closed cleanly). `open`: its streams whose request
   * went out; `unwritten`: those whose HEADERS frame was still waiting to be written (never on
   * the wire, so never seen by the server).
   */
  onClose(session: Session, err: Error | null, open: H2Exchange[], unwritten: H2Exchange[]): void;
}

export interface H2SessionConfig {
  /** The request's header block (see hpack/encoder.ts), the same on every stream. */
  block: Buffer;
  body: Uint8Array | null;
  /** Whether the first response's Server value is still wanted. */
  wantServer: () => boolean;
  /**
   * The largest response header block (HEADERS and CONTINUATION payloads) and decoded
   * header list the client accepts; announced as SETTINGS_MAX_HEADER_LIST_SIZE.
   */
  maxHeaderBytes: number;
}
