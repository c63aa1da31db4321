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

  /** Decodes a slice of the string's bytes; what it stands for goes out in one piece (escapes only shrink). */
  write(raw: Buffer): void {
    let data = raw;
    if (this.#pending.length > 0) {
      data = Buffer.concat([this.#pending, raw]);
      this.#pending = Buffer.alloc(0);
    }
    const out = Buffer.allocUnsafe(data.length + 3);
    let n = 0;
    let from = 0;
    let i = data.indexOf(BACKSLASH);
    while (i >= 0) {
      if (i > from) n = this.#plain(out, n, data, from, i);
      const kind = data[i + 1];
      if (kind === undefined || (kind === 0x75 && i + 6 > data.length)) {
        this.#pending = Buffer.from(data.subarray(i));
        from = data.length;
        break;
      }
      if (kind === 0x75) {
        const hex = data.toString('latin1', i + 2, i + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw notJson();
        n = this.#unit(out, n, parseInt(hex, 16));
        from = i + 6;
      } else {
        const byte = SIMPLE[kind];
        if (byte === undefined) throw notJson();
        n = this.#flushHigh(out, n);
        out[n++] = byte;
        from = i + 2;
      }
      i = data.indexOf(BACKSLASH, from);
    }
    if (from < data.length) n = this.#plain(out, n, data, from, data.length);
    if (n > 0) this.#out(out.subarray(0, n));
  }

  /** The string ended: an escape left half-way is not JSON; a lone surrogate is U+FFFD, as JSON.parse gives it to UTF-8. */
  end(): void {
    if (this.#pending.length > 0) throw notJson();
    const out = Buffer.alloc(3);
    const n = this.#flushHigh(out, 0);
    if (n > 0) this.#out(out.subarray(0, n));
  }

  #plain(out: Buffer, n: number, data: Buffer, from: number, to: number): number {
    const at = this.#flushHigh(out, n);
    return at + data.copy(out, at, from, to);
  }

  /** A \uXXXX code unit: a pair's high half waits for its low one; the rest is written as UTF-8. */
  #unit(out: Buffer, n: number, code: number): number {
    if (code >= 0xd800 && code <= 0xdbff) {
      const at = this.#flushHigh(out, n);
      this.#high = code;
      return at;
    }
    if (code >= 0xdc00 && code <= 0xdfff && this.#high !== null) {
      const point = 0x10000 + ((this.#high - 0xd800) << 10) + (code - 0xdc00);
      this.#high = null;
      return n + out.write(String.fromCodePoint(point), n, 'utf8');
    }
    const at = this.#flushHigh(out, n);
    return at + out.write(String.fromCharCode(code), at, 'utf8');
  }

  #flushHigh(out: Buffer, n: number): number {
    if (this.#high === null) return n;
    this.#high = null;
    return n + out.write('\ufffd', n, 'utf8');
  }
}
