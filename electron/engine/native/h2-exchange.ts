/* One request on an HTTP/2 stream, as the session and the client track it. */

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
}

/** A fresh exchange, not yet given a stream id or written. */
export function newExchange(intendedAt: number, startAt: number): H2Exchange {
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
  };
}
