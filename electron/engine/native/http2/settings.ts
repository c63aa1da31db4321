import { connectionError, H2_CODE } from './errors.ts';

/**
 * The server's SETTINGS (RFC 9113 section 6.5), each value checked against the range the
 * RFC gives before the session uses it: a MAX_FRAME_SIZE of 0 would otherwise split a
 * request's header block into empty frames forever.
 */

export const SETTING = {
  HEADER_TABLE_SIZE: 0x1,
  ENABLE_PUSH: 0x2,
  MAX_CONCURRENT_STREAMS: 0x3,
  INITIAL_WINDOW_SIZE: 0x4,
  MAX_FRAME_SIZE: 0x5,
  MAX_HEADER_LIST_SIZE: 0x6,
} as const;

/** The smallest and largest SETTINGS_MAX_FRAME_SIZE (section 6.5.2); the smallest is also the default. */
export const MIN_MAX_FRAME_SIZE = 16_384;
export const MAX_MAX_FRAME_SIZE = 2 ** 24 - 1;
/** The largest flow-control window (section 6.9.1). */
export const MAX_WINDOW = 2 ** 31 - 1;

/** What the session acts on; a value is null when this frame did not set it. */
export interface SettingsChange {
  maxConcurrentStreams: number | null;
  initialWindowSize: number | null;
  maxFrameSize: number | null;
}

/**
 * Reads a SETTINGS frame's payload (not an ACK) in order, later values of a key winning, and
 * throws an H2ConnectionError for a value the RFC forbids. HEADER_TABLE_SIZE bounds the
 * table of our encoder, which never adds to it (request fields are literals without
 * indexing), and MAX_HEADER_LIST_SIZE is advisory: both are accepted whatever their value.
 * Unknown settings are ignored, as section 6.5.2 requires.
 */
export function readSettings(b: Buffer, at: number, len: number): SettingsChange {
  if (len % 6 !== 0) {
    connectionError(`SETTINGS frame of ${len} bytes, not a multiple of 6`, H2_CODE.FRAME_SIZE_ERROR);
  }
  const change: SettingsChange = { maxConcurrentStreams: null, initialWindowSize: null, maxFrameSize: null };
  for (let q = at; q < at + len; q += 6) {
    const key = b.readUInt16BE(q);
    const value = b.readUInt32BE(q + 2);
    switch (key) {
      case SETTING.ENABLE_PUSH:
        // A server must not send 1 (section 8.4) and no endpoint any other value but 0.
        if (value !== 0)
          connectionError(
            `server sent SETTINGS_ENABLE_PUSH = ${value}; only 0 is allowed from a server (RFC 9113 section 6.5.2)`,
          );
        break;
      case SETTING.MAX_CONCURRENT_STREAMS:
        change.maxConcurrentStreams = value;
        break;
      case SETTING.INITIAL_WINDOW_SIZE:
        if (value > MAX_WINDOW) {
          connectionError(
            `server sent SETTINGS_INITIAL_WINDOW_SIZE = ${value}, above the largest window 2^31-1 (RFC 9113 section 6.5.2)`,
            H2_CODE.FLOW_CONTROL_ERROR,
          );
        }
        change.initialWindowSize = value;
        break;
      case SETTING.MAX_FRAME_SIZE:
        if (value < MIN_MAX_FRAME_SIZE || value > MAX_MAX_FRAME_SIZE) {
          connectionError(
            `server sent SETTINGS_MAX_FRAME_SIZE = ${value}, outside ${MIN_MAX_FRAME_SIZE}..${MAX_MAX_FRAME_SIZE} (RFC 9113 section 6.5.2)`,
          );
        }
        change.maxFrameSize = value;
        break;
      default:
        break;
    }
  }
  return change;
}
