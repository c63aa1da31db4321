import { connectionError, H2_CODE } from './h2-errors.ts';

/**
 * The framing rules of RFC 9113 section 6 that need nothing but the frame header: which
 * frames belong on stream 0, fixed payload lengths, and padding that must fit inside the
 * frame. A frame that breaks one is a connection error, thrown before any of it is used.
 */

export const FRAME = {
  DATA: 0x0,
  HEADERS: 0x1,
  PRIORITY: 0x2,
  RST_STREAM: 0x3,
  SETTINGS: 0x4,
  PUSH_PROMISE: 0x5,
  PING: 0x6,
  GOAWAY: 0x7,
  WINDOW_UPDATE: 0x8,
  CONTINUATION: 0x9,
} as const;

export const FLAG = { END_STREAM: 0x1, ACK: 0x1, END_HEADERS: 0x4, PADDED: 0x8, PRIORITY: 0x20 } as const;

const NAMES = Object.keys(FRAME);
export const frameName = (type: number): string => NAMES[type] ?? `frame type 0x${type.toString(16)}`;

/** Frames that are about a stream and never about the connection (stream 0). */
const ON_STREAM = new Set<number>([
  FRAME.DATA,
  FRAME.HEADERS,
  FRAME.PRIORITY,
  FRAME.RST_STREAM,
  FRAME.PUSH_PROMISE,
  FRAME.CONTINUATION,
]);
/** Frames about the connection only. */
const ON_CONNECTION = new Set<number>([FRAME.SETTINGS, FRAME.PING, FRAME.GOAWAY]);

/** Checks a frame header against section 6's per-type rules; throws an H2ConnectionError. */
export function checkFrameHeader(type: number, flags: number, id: number, len: number): void {
  if (id === 0 && ON_STREAM.has(type)) connectionError(`${frameName(type)} frame on stream 0`);
  if (id !== 0 && ON_CONNECTION.has(type)) connectionError(`${frameName(type)} frame on stream ${id}, not 0`);
  const size = (want: string): never =>
    connectionError(`${frameName(type)} frame of ${len} bytes (${want})`, H2_CODE.FRAME_SIZE_ERROR);
  switch (type) {
    case FRAME.RST_STREAM:
    case FRAME.WINDOW_UPDATE:
      if (len !== 4) size('must be 4');
      return;
    case FRAME.PING:
      if (len !== 8) size('must be 8');
      return;
    case FRAME.GOAWAY:
      if (len < 8) size('at least 8');
      return;
    case FRAME.SETTINGS:
      if (flags & FLAG.ACK && len !== 0) size('an ACK must be empty');
      return;
    default:
      return;
  }
}

/**
 * The [from, to) range of a DATA or HEADERS payload without its padding (and a HEADERS
 * frame's priority fields). Padding as long as the frame or longer is a PROTOCOL_ERROR
 * (sections 6.1 and 6.2): counting it would make the body length negative.
 */
export function unpadded(b: Buffer, p: number, len: number, flags: number, type: number): [number, number] {
  let from = p;
  let to = p + len;
  if (flags & FLAG.PADDED) {
    if (len < 1) connectionError(`padded ${frameName(type)} frame without a pad length`);
    const pad = b[from++]!;
    to -= pad;
    if (to < from) {
      connectionError(
        `${frameName(type)} frame padding of ${pad} bytes is longer than its ${len}-byte payload`,
      );
    }
  }
  if (type === FRAME.HEADERS && flags & FLAG.PRIORITY) from += 5;
  if (from > to) connectionError(`${frameName(type)} frame too short for its padding and priority fields`);
  return [from, to];
}
