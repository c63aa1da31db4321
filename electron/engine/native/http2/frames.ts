import { FLAG, FRAME } from './rules.ts';
import { SETTING } from './settings.ts';
import { DECODER_TABLE_SIZE } from '../hpack/decoder.ts';

/* The frames the HTTP/2 client writes besides HEADERS (frame-writer.ts batches those). */

const PREFACE = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'latin1');

/** Receive windows: large, so flow control never throttles a response (h2load uses 2^30 - 1 too). */
export const RECEIVE_WINDOW = 2 ** 30;
/** The windows before SETTINGS say otherwise (RFC 9113 section 6.9.2). */
export const DEFAULT_WINDOW = 65_535;

export function frameHeader(length: number, type: number, flags: number, id: number): Buffer {
  const h = Buffer.allocUnsafe(9);
  h.writeUIntBE(length, 0, 3);
  h[3] = type;
  h[4] = flags;
  h.writeUInt32BE(id, 5);
  return h;
}

function u32(v: number): Buffer {
  const b = Buffer.allocUnsafe(4);
  b.writeUInt32BE(v, 0);
  return b;
}

export function windowUpdate(id: number, increment: number): Buffer {
  const f = frameHeader(4, FRAME.WINDOW_UPDATE, 0, id);
  return Buffer.concat([f, u32(increment)]);
}

export function rstStream(id: number, code: number): Buffer {
  return Buffer.concat([frameHeader(4, FRAME.RST_STREAM, 0, id), u32(code)]);
}

/** GOAWAY with last stream 0: the client accepts no streams of the server's. */
export function goaway(code: number): Buffer {
  return Buffer.concat([frameHeader(8, FRAME.GOAWAY, 0, 0), u32(0), u32(code)]);
}

export const settingsAck = (): Buffer => frameHeader(0, FRAME.SETTINGS, FLAG.ACK, 0);

/** The answer to a PING: its 8 bytes of data sent back. */
export const pingAck = (data: Uint8Array): Buffer =>
  Buffer.concat([frameHeader(8, FRAME.PING, FLAG.ACK, 0), data]);

/**
 * The client's SETTINGS: the default HPACK table size (said outright, see hpack/decoder.ts), no push,
 * large stream windows, the header list limit; plus the connection window.
 */
export function preamble(maxHeaderBytes: number): Buffer {
  const pairs: [number, number][] = [
    [SETTING.HEADER_TABLE_SIZE, DECODER_TABLE_SIZE],
    [SETTING.ENABLE_PUSH, 0],
    [SETTING.INITIAL_WINDOW_SIZE, RECEIVE_WINDOW],
    [SETTING.MAX_HEADER_LIST_SIZE, maxHeaderBytes],
  ];
  const settings = Buffer.alloc(9 + 6 * pairs.length);
  settings.writeUIntBE(6 * pairs.length, 0, 3);
  settings[3] = FRAME.SETTINGS;
  pairs.forEach(([key, value], i) => {
    settings.writeUInt16BE(key, 9 + 6 * i);
    settings.writeUInt32BE(value, 11 + 6 * i);
  });
  return Buffer.concat([PREFACE, settings, windowUpdate(0, RECEIVE_WINDOW - DEFAULT_WINDOW)]);
}
