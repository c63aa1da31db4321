/**
 * A JSON string's contents decoded as they arrive: its escapes (\" \\ \n \u00e9, surrogate
 * pairs) turned back into the UTF-8 bytes they stand for, the rest passed as it is. What a
 * file's text sent inside a JSON body is, byte for byte, without the body's string ever being
 * held (History's import posts its files as JSON strings: host/import-body.ts).
 */
import { notJson } from './shapes.ts';

const BACKSLASH = 0x5c;
const SIMPLE: Record<number, number> = {
  0x22: 0x22, // "
  0x5c: 0x5c, // \
  0x2f: 0x2f, // /
  0x62: 0x08, // b
  0x66: 0x0c, // f
  0x6e: 0x0a, // n
  0x72: 0x0d, // r
  0x74: 0x09, // t
};

export class EscapedBytes {
  readonly #out: (bytes: Buffer) => void;
  /** An escape cut by a chunk's end: its bytes so far (at most "\uXXXX"). */
  #pending = Buffer.alloc(0);
  /** A high surrogate waiting for its low one. */
  #high: number | null = null;

  constructor(out: (bytes: Buffer) => void) {
    this.#out = out;
  }

  write(raw: Buffer): void {
    let data = raw;
    if (this.#pending.length > 0) {
      data = Buffer.concat([this.#pending, raw]);
      this.#pending = Buffer.alloc(0);
    }
    let from = 0;
    let i = data.indexOf(BACKSLASH);
    while (i >= 0) {
      if (i > from) this.#plain(data.subarray(from, i));
      const kind = data[i + 1];
      if (kind === undefined) {
        this.#pending = Buffer.from(data.subarray(i));
        return;
      }
      if (kind === 0x75) {
        if (i + 6 > data.length) {
          this.#pending = Buffer.from(data.subarray(i));
          return;
        }
        const hex = data.toString('latin1', i + 2, i + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw notJson();
        this.#unit(parseInt(hex, 16));
        from = i + 6;
      } else {
        const byte = SIMPLE[kind];
        if (byte === undefined) throw notJson();
        this.#plain(Buffer.from([byte]));
        from = i + 2;
      }
      i = data.indexOf(BACKSLASH, from);
    }
    if (from < data.length) this.#plain(data.subarray(from));
  }

  /** The string ended: an escape left half-way is not JSON; a lone surrogate is U+FFFD, as JSON.parse gives it to UTF-8. */
  end(): void {
    if (this.#pending.length > 0) throw notJson();
    this.#flushHigh();
  }

  #plain(bytes: Buffer): void {
    this.#flushHigh();
    this.#out(bytes);
  }

  #unit(code: number): void {
    if (code >= 0xd800 && code <= 0xdbff) {
      this.#flushHigh();
      this.#high = code;
      return;
    }
    if (code >= 0xdc00 && code <= 0xdfff && this.#high !== null) {
      const point = 0x10000 + ((this.#high - 0xd800) << 10) + (code - 0xdc00);
      this.#high = null;
      this.#out(Buffer.from(String.fromCodePoint(point), 'utf8'));
      return;
    }
    this.#flushHigh();
    this.#out(Buffer.from(String.fromCharCode(code), 'utf8'));
  }

  #flushHigh(): void {
    if (this.#high === null) return;
    this.#high = null;
    this.#out(Buffer.from('\ufffd', 'utf8'));
  }
}
