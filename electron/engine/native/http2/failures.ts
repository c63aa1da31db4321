import type { ClassifiedError } from '../../errors.ts';
import { h2ErrorName } from './errors.ts';

/* How the HTTP/2 client words a request it could not get answered, by what the server did. */

export const NO_H2: ClassifiedError = {
  kind: 'protocol',
  message: 'the server does not speak HTTP/2 over TLS (ALPN offered h2, the server refused it)',
};

export const REFUSED_TWICE: ClassifiedError = {
  kind: 'refused-stream',
  message:
    'the server refused the stream (RST_STREAM REFUSED_STREAM), and again when it was sent once more: the request was never processed',
};

export const streamReset = (code: number): ClassifiedError => ({
  kind: 'reset',
  message: `stream reset by the server (RST_STREAM ${h2ErrorName(code)})`,
});

/** A stream above GOAWAY's last stream, not processed on the first connection nor on the next. */
export const goawayTwice = (lastStreamId: number, code: number): ClassifiedError => ({
  kind: 'goaway',
  message: `the server sent GOAWAY (last stream ${lastStreamId}, ${h2ErrorName(code)}) before processing the stream, and again when it was sent once more: the request was never processed`,
});

/** A stream still open when its connection closed: after a GOAWAY (lastStreamId >= 0), or without one. */
export const cutOff = (lastStreamId: number, code: number): ClassifiedError =>
  lastStreamId >= 0
    ? {
        kind: 'goaway',
        message: `stream cut off by GOAWAY (last stream ${lastStreamId}, ${h2ErrorName(code)}): the connection closed before the response was complete`,
      }
    : { kind: 'reset', message: 'HTTP/2 connection closed before the response was complete' };
