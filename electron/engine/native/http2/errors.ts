/** RFC 9113 section 7 error codes, and the two kinds of error section 5.4 tells apart. */
export const H2_CODE = {
  NO_ERROR: 0x0,
  PROTOCOL_ERROR: 0x1,
  INTERNAL_ERROR: 0x2,
  FLOW_CONTROL_ERROR: 0x3,
  SETTINGS_TIMEOUT: 0x4,
  STREAM_CLOSED: 0x5,
  FRAME_SIZE_ERROR: 0x6,
  REFUSED_STREAM: 0x7,
  CANCEL: 0x8,
  COMPRESSION_ERROR: 0x9,
  CONNECT_ERROR: 0xa,
  ENHANCE_YOUR_CALM: 0xb,
  INADEQUATE_SECURITY: 0xc,
  HTTP_1_1_REQUIRED: 0xd,
} as const;

const NAMES = Object.keys(H2_CODE);

export const h2ErrorName = (code: number): string => NAMES[code] ?? `0x${code.toString(16)}`;

/**
 * A connection error (RFC 9113 section 5.4.1): the session answers with GOAWAY carrying
 * this code and closes the connection; every stream still open on it fails.
 */
export class H2ConnectionError extends Error {
  override readonly name = 'H2ConnectionError';
  readonly h2Code: number;
  constructor(h2Code: number, message: string) {
    super(message);
    this.h2Code = h2Code;
  }
}

/**
 * A frame on a stream the server already ended (RFC 9113 section 5.1: a STREAM_CLOSED
 * connection error): an answer to no request, which the client counts apart.
 */
export class UnsolicitedFrameError extends H2ConnectionError {
  constructor(message: string) {
    super(H2_CODE.STREAM_CLOSED, message);
  }
}

/** Throws a PROTOCOL_ERROR connection error, or another code when given. */
export function connectionError(message: string, code: number = H2_CODE.PROTOCOL_ERROR): never {
  throw new H2ConnectionError(code, message);
}
