import type net from 'node:net';
import { DEFAULTS } from '../../../shared/model/defaults.ts';
import type { ErrorKind } from '../../../shared/model/result.ts';
import { classifyError, type ClassifiedError } from '../errors.ts';
import type { RunSpec } from '../types.ts';
import { ConnectionPrefix, firstLineOf, http1Body, http2Body } from './http1/body-line.ts';
import { H2_CODE } from './http2/errors.ts';
import { newExchange } from './http2/exchange.ts';
import { cutOff, streamReset } from './http2/failures.ts';
import { encodeRequestBlock } from './hpack/encoder.ts';
import { H2Session } from './http2/session.ts';
import { http1Request, http2Request } from './request-bytes.ts';
import { ResponseParser } from './http1/response-parser.ts';
import { SocketWriter } from './socket/socket-writer.ts';

/*
 * One request on a connection the caller opened (TCP connected, TLS done): the pre-flight's.
 * Its bytes come from the load's request builder and its response goes through the load's
 * parser (HTTP/1.1) or session (HTTP/2), so the pre-flight checks exactly what the load sends
 * and judges the answer by the same rules.
 */

/** What the response told. */
export interface SingleResponse {
  status: number;
  server: string | null;
  bodyBytes: number;
  /** "1.1", "1.0" or "2". */
  httpVersion: string;
  /** The body's first line of text, as far as the first bytes of the connection hold it (http1/body-line.ts). */
  bodyLine: string | null;
}

/** Why the request got no response, named as the load would name it. */
export class ExchangeError extends Error {
  readonly kind: ErrorKind;
  constructor(f: ClassifiedError) {
    super(f.message);
    this.kind = f.kind;
  }
}

const REFUSED: ClassifiedError = {
  kind: 'refused-stream',
  message: 'the server refused the stream (RST_STREAM REFUSED_STREAM): the request was never processed',
};

const CLOSED: ClassifiedError = {
  kind: 'reset',
  message: 'connection closed before the response was complete',
};

/** Sends the spec's request once on the socket; rejects with an ExchangeError. */
export function sendOne(spec: RunSpec, socket: net.Socket): Promise<SingleResponse> {
  return spec.options.protocol === 'h2' ? sendH2(spec, socket) : sendH1(spec, socket);
}

function sendH1(spec: RunSpec, socket: net.Socket): Promise<SingleResponse> {
  const request = http1Request(spec.target, spec.body, {
    keepAlive: spec.options.keepAlive,
    appVersion: spec.appVersion,
  });
  return new Promise<SingleResponse>((resolve, reject) => {
    const fail = (f: ClassifiedError): void => reject(new ExchangeError(f));
    let answered = false;
    const prefix = new ConnectionPrefix();
    const parser = new ResponseParser(
      (status, bodyBytes) => {
        answered = true;
        parser.halt();
        resolve({
          status,
          server: parser.server,
          bodyBytes,
          httpVersion: `1.${parser.minorVersion}`,
          bodyLine: firstLineOf(http1Body(prefix.bytes())),
        });
      },
      { headRequests: spec.target.method === 'HEAD', maxHeadBytes: DEFAULTS.maxResponseHeaderBytes },
    );
    parser.captureServer = true;
    socket.on('data', (chunk: Buffer) => {
      if (answered || parser.error !== null) return;
      prefix.add(chunk);
      if (!parser.execute(chunk, 0, chunk.length)) {
        fail({ kind: 'protocol', message: parser.error ?? 'malformed response' });
      }
    });
    socket.on('error', (err: Error) => fail(classifyError(err)));
    // A body that runs to the close completes there; anything else cut short is a reset.
    socket.on('close', () => {
      if (!answered) parser.finish();
      if (!answered) fail(CLOSED);
    });
    const writer = new SocketWriter(socket);
    writer.write(request.bytes);
    if (request.body !== null) writer.write(request.body);
  });
}

function sendH2(spec: RunSpec, socket: net.Socket): Promise<SingleResponse> {
  const request = http2Request(spec.target, spec.body, spec.appVersion);
  return new Promise<SingleResponse>((resolve, reject) => {
    const fail = (f: ClassifiedError): void => reject(new ExchangeError(f));
    const ex = newExchange(0, performance.now());
    const prefix = new ConnectionPrefix();
    const session = new H2Session(
      socket,
      {
        block: encodeRequestBlock(request.fields),
        body: spec.body !== null && spec.body.byteLength > 0 ? spec.body : null,
        wantServer: () => true,
        maxHeaderBytes: DEFAULTS.maxResponseHeaderBytes,
      },
      {
        onResponse: () =>
          resolve({
            status: ex.status,
            server: ex.server,
            bodyBytes: ex.bodyBytes,
            httpVersion: '2',
            bodyLine: firstLineOf(http2Body(prefix.bytes(), ex.id)),
          }),
        onReset: (_ex, code) => fail(code === H2_CODE.REFUSED_STREAM ? REFUSED : streamReset(code)),
        onStreamError: (_ex, message) => fail({ kind: 'protocol', message }),
        onGoaway: (_s, lastStreamId, code) => {
          if (lastStreamId < ex.id) fail(cutOff(lastStreamId, code));
        },
        onMaxStreams: () => undefined,
        onUnsolicited: () => undefined,
        onClose: (_s, err) =>
          fail(err ? classifyError(err) : { kind: 'reset', message: `HTTP/2 ${CLOSED.message}` }),
      },
    );
    socket.on('data', (chunk: Buffer) => {
      prefix.add(chunk);
      session.onRead(chunk.length, chunk);
    });
    session.request(ex, performance.now());
  });
}
