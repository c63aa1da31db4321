import { connectionError, H2_CODE } from './errors.ts';

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

/** Frame types that are about a stream and never about the connection (stream 0), as bits. */
const ON_STREAM =
  (1 << FRAME.DATA) |
  (1 << FRAME.HEADERS) |
  (1 << FRAME.PRIORITY) |
  (1 << FRAME.RST_STREAM) |
  (1 << FRAME.PUSH_PROMISE) |
  (1 << FRAME.CONTINUATION);
/** Frame types about the connection only, as bits. */
const ON_CONNECTION = (1 << FRAME.SETTINGS) | (1 << FRAME.PING) | (1 << FRAME.GOAWAY);

/** Whether a frame type (unknown ones included: they have no bit) is in a set of bits. */
const isIn = (bits: number, type: number): boolean => type < 31 && ((bits >> type) & 1) === 1;

/** Checks a frame header against section 6's per-type rules; throws an H2ConnectionError. */
export function checkFrameHeader(type: number, flags: number, id: number, len: number): void {
  if (id === 0 ? isIn(ON_STREAM, type) : isIn(ON_CONNECTION, type)) {
    connectionError(`${frameName(type)} frame on stream ${id}${id === 0 ? '' : ', not 0'}`);
  }
  switch (type) {
    case FRAME.RST_STREAM:
    case FRAME.WINDOW_UPDATE:
      if (len !== 4) wrongSize(type, len, 'must be 4');
      return;
    case FRAME.PING:
      if (len !== 8) wrongSize(type, len, 'must be 8');
      return;
    case FRAME.GOAWAY:
      if (len < 8) wrongSize(type, len, 'at least 8');
      return;
    case FRAME.SETTINGS:
      if (flags & FLAG.ACK && len !== 0) wrongSize(type, len, 'an ACK must be empty');
      return;
    default:
      return;
  }
}

function wrongSize(type: number, len: number, want: string): never {
  return connectionError(`${frameName(type)} frame of ${len} bytes (${want})`, H2_CODE.FRAME_SIZE_ERROR);
}

/** The padding at the end of a DATA or HEADERS payload (0 unless PADDED); see contentStart. */
export const padLength = (b: Buffer, p: number, flags: number): number => (flags & FLAG.PADDED ? b[p]! : 0);

/**
 * Where a DATA or HEADERS payload's content starts (after its pad length and a HEADERS
 * frame's priority fields), once its padding is known to fit: padding as long as the frame
 * or longer is a PROTOCOL_ERROR (sections 6.1 and 6.2), and counting it would make the body
 * length negative. The content ends padLength() bytes before the payload does.
 */
export function contentStart(b: Buffer, p: number, len: number, flags: number, type: number): number {
  const padded = (flags & FLAG.PADDED) !== 0;
  const from = p + (padded ? 1 : 0) + (type === FRAME.HEADERS && flags & FLAG.PRIORITY ? 5 : 0);
  if (padded) {
    if (len < 1) connectionError(`padded ${frameName(type)} frame without a pad length`);
    if (b[p]! >= len) {
      connectionError(
        `${frameName(type)} frame padding of ${b[p]} bytes is longer than its ${len}-byte payload`,
      );
    }
  }
  if (from + padLength(b, p, flags) > p + len) {
    connectionError(`${frameName(type)} frame too short for its padding and priority fields`);
  }
  return from;
}
