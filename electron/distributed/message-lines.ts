/**
 * The shard messages (electron/engine/shards/messages.ts) as a byte stream carries them: a
 * process's stdin and stdout, a pod's log. One JSON object a line, split here and bounded
 * (MAX_MESSAGE_LINE_BYTES) so a broken or hostile stream cannot grow this process's memory. A
 * line goes on as text: whoever receives it parses it and checks it against the schemas (the
 * coordinator, on its own CPU account).
 */
import { MAX_MESSAGE_LINE_BYTES } from '../engine/shards/messages.ts';

export interface LineListener {
  /** One line, without its newline; blank lines are skipped (a log's padding). */
  line(text: string): void;
  /** The stream broke its format (a line too long): what it did, briefly. */
  broken(reason: string): void;
}

/** Splits chunks into lines. */
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
      this.#flush();
      bytes = bytes.subarray(nl + 1);
    }
    this.#add(bytes);
  }

  /** The stream ended: a last line without its newline still counts. */
  end(): void {
    if (!this.#broken) this.#flush();
  }

  #add(bytes: Buffer): void {
    if (bytes.length === 0) return;
    this.#length += bytes.length;
    if (this.#length > this.#limit) {
      this.#broken = true;
      this.#parts = [];
      const mib = this.#limit / 1024 / 1024;
      this.#listener.broken(
        `wrote a line over ${mib >= 1 ? `${Math.round(mib)} MiB` : `${this.#limit} bytes`}`,
      );
      return;
    }
    // Copied: the chunk's buffer may be reused by its stream.
    this.#parts.push(Buffer.from(bytes));
  }

  #flush(): void {
    const text = Buffer.concat(this.#parts, this.#length).toString('utf8').trim();
    this.#parts = [];
    this.#length = 0;
    if (text !== '') this.#listener.line(text);
  }
}

/** Whether a line of a pod's log is a message (a JSON object) rather than its stderr (Node's warnings, an error's last words). */
export const isMessageLine = (text: string): boolean => text.startsWith('{');
