/**
 * A hostile HTTP/2 server for the native client's hardening tests: h2c with prior knowledge
 * on a raw TCP socket, framing by hand, so a test can send what node:http2 never would
 * (SETTINGS out of range, CONTINUATION floods, padding longer than the frame, GOAWAY on
 * every connection...). It records what the client sent back (GOAWAY codes, RST_STREAMs,
 * ACKs), so a test can assert the client's answer, not just that it survived.
 */
import type net from 'node:net';
import { H2_CODE } from '../../electron/engine/native/http2/errors.ts';
import { FLAG, FRAME } from '../../electron/engine/native/http2/rules.ts';
import { startRawServer } from './servers.ts';

export { FLAG, FRAME, H2_CODE };

/** HPACK: ":status: 200", static table index 8, as an indexed field. */
export const STATUS_200 = Buffer.from([0x88]);

const PREFACE_LENGTH = 24;

export function frame(type: number, flags: number, id: number, payload: Buffer = Buffer.alloc(0)): Buffer {
  const h = Buffer.alloc(9);
  h.writeUIntBE(payload.length, 0, 3);
  h[3] = type;
  h[4] = flags;
  h.writeUInt32BE(id, 5);
  return Buffer.concat([h, payload]);
}

export function settingsFrame(pairs: readonly (readonly [number, number])[]): Buffer {
  const p = Buffer.alloc(6 * pairs.length);
  pairs.forEach(([key, value], i) => {
    p.writeUInt16BE(key, i * 6);
    p.writeUInt32BE(value, i * 6 + 2);
  });
  return frame(FRAME.SETTINGS, 0, 0, p);
}

export function goawayFrame(lastStreamId: number, code: number): Buffer {
  return frame(FRAME.GOAWAY, 0, 0, Buffer.concat([u32(lastStreamId), u32(code)]));
}

export function u32(v: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(v, 0);
  return b;
}

/** One connection as the test's handlers see it. */
export interface FaultConnection {
  readonly socket: net.Socket;
  /** Its index among the connections the server accepted, from 0. */
  readonly index: number;
  send(bytes: Buffer): void;
  /** HEADERS (:status 200) and DATA with END_STREAM: a complete response. */
  respond(streamId: number, body?: Buffer): void;
}

export interface FaultHandlers {
  /** After the client's preface; the server's own SETTINGS go first unless this sends them. */
  onConnect?(c: FaultConnection): void;
  /** A request: the client's HEADERS frame on a new stream. Default: respond(). */
  onRequest?(c: FaultConnection, streamId: number): void;
}

export interface FaultServer {
  url: string;
  readonly connections: number;
  /** HEADERS frames the client sent (streams it opened). */
  readonly streams: number;
  /** Each HEADERS frame's header block as the client sent it, with its connection's index. */
  readonly requestBlocks: readonly { connection: number; stream: number; block: Buffer }[];
  /** Error codes of the GOAWAY frames the client sent. */
  readonly goawayCodes: readonly number[];
  /** [stream, code] of the RST_STREAM frames the client sent. */
  readonly resets: readonly (readonly [number, number])[];
  /** Resolves once every connection accepted so far has closed (what the client sent is all in). */
  idle(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts the server on 127.0.0.1. Without onConnect it sends empty SETTINGS; without
 * onRequest it answers every stream with 200 and `body` (default "ok"). It acknowledges the
 * client's SETTINGS, so a well-behaved client (the engine's node:http2 pre-flight) is served.
 */
export async function startH2FaultServer(
  handlers: FaultHandlers = {},
  body = Buffer.from('ok'),
): Promise<FaultServer> {
  let accepted = 0;
  let streams = 0;
  const requestBlocks: { connection: number; stream: number; block: Buffer }[] = [];
  const goawayCodes: number[] = [];
  const resets: [number, number][] = [];
  const open = new Set<net.Socket>();
  let waiters: (() => void)[] = [];
  const server = await startRawServer((socket) => {
    open.add(socket);
    socket.on('close', () => {
      open.delete(socket);
      if (open.size > 0) return;
      for (const w of waiters) w();
      waiters = [];
    });
    socket.on('error', () => undefined);
    socket.setNoDelay(true);
    const c: FaultConnection = {
      socket,
      index: accepted++,
      send: (bytes) => {
        if (!socket.destroyed) socket.write(bytes);
      },
      respond: (id, data = body) => {
        c.send(
          Buffer.concat([
            frame(FRAME.HEADERS, FLAG.END_HEADERS, id, STATUS_200),
            frame(FRAME.DATA, FLAG.END_STREAM, id, data),
          ]),
        );
      },
    };
    let buf = Buffer.alloc(0);
    let prefaced = false;
    socket.on('data', (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      if (!prefaced) {
        if (buf.length < PREFACE_LENGTH) return;
        buf = buf.subarray(PREFACE_LENGTH);
        prefaced = true;
        if (handlers.onConnect) handlers.onConnect(c);
        else c.send(settingsFrame([]));
      }
      while (buf.length >= 9) {
        const len = buf.readUIntBE(0, 3);
        if (buf.length < 9 + len) break;
        const type = buf[3]!;
        const flags = buf[4]!;
        const id = buf.readUInt32BE(5) & 0x7fffffff;
        const payload = buf.subarray(9, 9 + len);
        buf = buf.subarray(9 + len);
        if (type === FRAME.HEADERS) {
          streams++;
          requestBlocks.push({ connection: c.index, stream: id, block: Buffer.from(payload) });
          if (handlers.onRequest) handlers.onRequest(c, id);
          else c.respond(id);
        } else if (type === FRAME.GOAWAY) goawayCodes.push(payload.readUInt32BE(4));
        else if (type === FRAME.RST_STREAM) resets.push([id, payload.readUInt32BE(0)]);
        else if (type === FRAME.SETTINGS && (flags & FLAG.ACK) === 0)
          c.send(frame(FRAME.SETTINGS, FLAG.ACK, 0));
      }
    });
  });
  return {
    url: server.url,
    get connections() {
      return server.connections;
    },
    get streams() {
      return streams;
    },
    requestBlocks,
    goawayCodes,
    resets,
    idle: () => (open.size === 0 ? Promise.resolve() : new Promise<void>((resolve) => waiters.push(resolve))),
    close: () => server.close(),
  };
}
