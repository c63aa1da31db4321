/**
 * The shard messages (electron/engine/shards/messages.ts) as a byte stream carries them: a
 * process's stdin and stdout, a pod's log. One JSON object a line; a line is bounded
 * (MAX_MESSAGE_LINE_BYTES) so a broken or hostile stream cannot grow this process's memory,
 * and what is not JSON is said as the stream's fault. The objects are checked against the
 * schemas by whoever receives them.
 */
import { MAX_MESSAGE_LINE_BYTES } from '../engine/shards/messages.ts';

export interface LineListener {
  /** One line, parsed as JSON. */
  message(value: unknown): void;
  /** The stream broke its format (a line too long, not JSON): what it said, briefly. */
  broken(reason: string): void;
  /**
   * A line that is not JSON, where the stream may carry some (a pod's log holds its stderr
   * too: Node's own warnings, an error's last words): given here instead of breaking the stream.
   */
  said?(text: string): void;
}

/** Splits chunks into lines, each parsed as JSON; blank lines are skipped (a log's padding). */
export class MessageLines {
  readonly #listener: LineListener;
  #parts: Buffer[] = [];
  #length = 0;
  #broken = false;
  readonly #limit: number;

  constructor(listener: LineListener, limit = MAX_MESSAGE_LINE_BYTES) {
    this.#listener = listener;
    this.#limit = limit;
  }

  push(chunk: Buffer | string): void {
    if (this.#broken) return;
    let bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    for (let nl = bytes.indexOf(0x0a); nl >= 0 && !this.#broken; nl = bytes.indexOf(0x0a)) {
      this.#add(bytes.subarray(0, nl));
      if (this.#broken) return;
      this.#line(Buffer.concat(this.#parts, this.#length));
      this.#parts = [];
      this.#length = 0;
      bytes = bytes.subarray(nl + 1);
    }
    this.#add(bytes);
  }

  /** The stream ended: a last line without its newline still counts. */
  end(): void {
    if (this.#broken || this.#length === 0) return;
    this.#line(Buffer.concat(this.#parts, this.#length));
    this.#parts = [];
    this.#length = 0;
  }

  #add(bytes: Buffer): void {
    if (bytes.length === 0) return;
    this.#length += bytes.length;
    if (this.#length > this.#limit) {
      this.#broken = true;
      this.#parts = [];
      const mib = this.#limit / 1024 / 1024;
      this.#listener.broken(`wrote a line over ${mib >= 1 ? `${Math.round(mib)} MiB` : `${this.#limit} bytes`}`);
      return;
    }
    // Copied: the chunk's buffer may be reused by its stream.
    this.#parts.push(Buffer.from(bytes));
  }

  #line(bytes: Buffer): void {
    const text = bytes.toString('utf8').trim();
    if (text === '') return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      if (this.#listener.said) {
        this.#listener.said(text.slice(0, 500));
        return;
      }
      this.#broken = true;
      this.#listener.broken(`wrote a line that is not a message: ${text.slice(0, 120)}`);
      return;
    }
    this.#listener.message(value);
  }
}
