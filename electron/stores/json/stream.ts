/**
 * JSON read as it arrives, a chunk at a time, into the same value JSON.parse would give, so a
 * large result file (a day's samples, 100 MB) is never held as one text beside its tree: a
 * file's bytes read whole cost a buffer, then a string of the file's size, then the tree, at
 * once (a 91 MB report peaked at 2 GB). Here only the tree and one chunk are held. Nesting is
 * bounded as it is met (MAX_JSON_DEPTH), never walked recursively. A string value can go
 * elsewhere instead of into the tree (`strings`): History's import streams each file's text,
 * itself JSON, into a parser of its own.
 */
import { MAX_JSON_DEPTH } from '../files.ts';
import {
  CONTROL,
  Frame,
  INDEX_KEY,
  JsonStreamError,
  KeyCache,
  notJson,
  Shape,
  type ShapeCounts,
} from './shapes.ts';
import {
  BACKSLASH,
  closingQuote,
  isLetter,
  NUMBER_BYTE,
  numberOf,
  POWERS_OF_TEN,
  QUOTE,
  unescaped,
  wordOf,
} from './tokens.ts';

/** Where a string value's bytes go instead of the tree: its raw JSON bytes, escapes and all, as they come. */
export interface StringSink {
  /** Bytes of the string between its quotes (still escaped), in order. */
  write(raw: Buffer): void;
  /** The closing quote came; what the tree keeps in the string's place. */
  end(): unknown;
}

/**
 * An incremental JSON parser: write() the bytes in any slices, then end() for the value. Throws
 * a JsonStreamError at the first byte that cannot be JSON. `strings(path)` may name a sink for
 * the string at a path of keys and indexes (["files", 0, "text"]); elsewhere strings are values.
 */
export class JsonStream {
  readonly #stack: Frame[] = [];
  #top: Frame | null = null;
  readonly #path: (string | number)[] = [];
  readonly #strings: ((path: readonly (string | number)[]) => StringSink | null) | null;
  readonly #keys = new KeyCache();
  readonly #shapes = new Shape([], true);
  readonly #counts: ShapeCounts = { shapes: 0, compiled: 0 };
  /** The values of the objects being filled, in order: each frame's from its `at`. */
  readonly #values: unknown[] = [];
  #root: unknown = undefined;
  #done = false;
  /** After a value inside a container: a comma or its close. */
  #after = false;
  #wantKey = false;
  #wantColon = false;
  /** A token cut by the chunk's end: its bytes so far. */
  #partial: Buffer[] = [];
  #partialKind: 'string' | 'number' | 'word' | null = null;
  #partialEscaped = false;
  /** The backslashes the partial string's bytes end with: odd, and a quote next is escaped. */
  #trailingSlashes = 0;
  /** Whether the partial string is a key. */
  #partialKey = false;
  /** A string going to a sink, and whether its last byte so far began an escape. */
  #sink: StringSink | null = null;
  #sinkEscape = false;
  /** A value nested past MAX_JSON_DEPTH was cut (read past, null in its place): the value is not the file's whole. */
  pruned = false;
  /** Inside a value being read past: its depth, and whether in a string of it (after an escape). */
  #skipping = 0;
  #skipInString = false;
  #skipEscape = false;

  /** Reads past a value nested too deep from i; where the next token starts. */
  #skip(chunk: Buffer, i: number): number {
    let j = i;
    for (; j < chunk.length && this.#skipping > 0; j++) {
      const c = chunk[j]!;
      if (this.#skipInString) {
        if (this.#skipEscape) this.#skipEscape = false;
        else if (c === BACKSLASH) this.#skipEscape = true;
        else if (c === QUOTE) this.#skipInString = false;
      } else if (c === QUOTE) this.#skipInString = true;
      else if (c === 0x5b || c === 0x7b) this.#skipping++;
      else if (c === 0x5d || c === 0x7d) this.#skipping--;
    }
    if (this.#skipping === 0) this.#value(null);
    return j;
  }

  /** The chunk's next backslash at or after a place (-1: none; -2: not looked for yet in this chunk). */
  #slashAt = -2;

  constructor(opts: { strings?: (path: readonly (string | number)[]) => StringSink | null } = {}) {
    this.#strings = opts.strings ?? null;
  }

  write(chunk: Buffer): void {
    this.#slashAt = -2;
    const n = chunk.length;
    let i = this.#partialKind === null ? 0 : this.#resume(chunk);
    while (i < n) {
      if (this.#skipping > 0) {
        i = this.#skip(chunk, i);
        continue;
      }
      const c = chunk[i]!;
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) {
        i++;
        continue;
      }
      if (this.#done) throw new JsonStreamError('the file has more after its JSON value');
      if (this.#wantColon) {
        if (c !== 0x3a) throw notJson();
        this.#wantColon = false;
        i++;
      } else if (this.#after) {
        i = this.#separator(c, i);
      } else if (this.#wantKey) {
        if (c === 0x7d && this.#top!.key === null && this.#values.length === this.#top!.at) {
          this.#close();
          i++;
        } else if (c === QUOTE) {
          i = this.#string(chunk, i + 1, true);
        } else throw notJson();
      } else if (c === QUOTE) {
        i = this.#string(chunk, i + 1, false);
      } else if (c === 0x7b) {
        this.#open(false);
        this.#wantKey = this.#skipping === 0;
        i++;
      } else if (c === 0x5b) {
        this.#open(true);
        i++;
      } else if (c === 0x5d) {
        // An array's close where a value is due: only right after its open.
        if (this.#top?.array?.length !== 0) throw notJson();
        this.#close();
        i++;
      } else {
        i = NUMBER_BYTE[c] ? this.#number(chunk, i) : this.#word(chunk, i);
      }
    }
  }

  /** The value; throws when the bytes ended before it did. */
  end(): unknown {
    if (this.#partialKind === 'number' || this.#partialKind === 'word') {
      const text = Buffer.concat(this.#partial).toString('latin1');
      const kind = this.#partialKind;
      this.#partial = [];
      this.#partialKind = null;
      this.#value(kind === 'number' ? numberOf(text) : wordOf(text));
    }
    if (!this.#done || this.#partialKind !== null || this.#skipping > 0) {
      throw this.#root === undefined && this.#stack.length === 0 && this.#partialKind === null
        ? new JsonStreamError('the file is empty')
        : notJson();
    }
    return this.#root;
  }

  #separator(c: number, i: number): number {
    const top = this.#top;
    if (!top) throw notJson();
    if (c === 0x2c) {
      this.#after = false;
      if (top.array) this.#path[this.#path.length - 1] = top.array.length;
      else this.#wantKey = true;
      return i + 1;
    }
    if (c === (top.array ? 0x5d : 0x7d)) {
      this.#close();
      return i + 1;
    }
    throw notJson();
  }

  #open(array: boolean): void {
    if (this.#stack.length >= MAX_JSON_DEPTH) {
      // Cut here, as prunedCopy cuts (files.ts): the value nested deeper is read past, null in its place.
      this.pruned = true;
      this.#skipping = 1;
      return;
    }
    const frame = new Frame(array, this.#shapes, this.#values.length);
    this.#stack.push(frame);
    this.#top = frame;
    this.#path.push(array ? 0 : '');
  }

  #close(): void {
    const frame = this.#stack.pop()!;
    this.#top = this.#stack.at(-1) ?? null;
    this.#path.pop();
    this.#wantKey = false;
    if (frame.array) return this.#value(frame.array);
    const object = frame.shape.build(this.#values, frame.at, this.#counts);
    this.#values.length = frame.at;
    this.#value(object);
  }

  /** A value is complete: into its container, or the root. */
  #value(value: unknown): void {
    const top = this.#top;
    this.#after = true;
    if (top === null) {
      this.#root = value;
      this.#done = true;
    } else if (top.array) {
      top.array.push(value);
    } else {
      this.#values.push(value);
      top.shape = top.shape.child(top.key!, top.keyIsIndex, this.#counts);
      top.key = null;
    }
  }

  #key(text: string, index: boolean): void {
    const top = this.#top!;
    top.key = text;
    top.keyIsIndex = index;
    this.#path[this.#path.length - 1] = text;
    this.#wantKey = false;
    this.#wantColon = true;
  }

  #slashFrom(chunk: Buffer, i: number): number {
    if (this.#slashAt === -2 || (this.#slashAt !== -1 && this.#slashAt < i))
      this.#slashAt = chunk.indexOf(BACKSLASH, i);
    return this.#slashAt;
  }

  /** A key or a string value from i (after its opening quote); where the next token starts. */
  #string(chunk: Buffer, i: number, key: boolean): number {
    if (!key && this.#strings !== null) {
      const sink = this.#strings(this.#path);
      if (sink !== null) {
        this.#sink = sink;
        this.#sinkEscape = false;
        return this.#sinkString(chunk, i);
      }
    }
    let close = chunk.indexOf(QUOTE, i);
    const slash = this.#slashFrom(chunk, i);
    const escaped = slash >= 0 && (close < 0 || slash < close);
    if (escaped) close = closingQuote(chunk, i, 0);
    if (close < 0) {
      this.#partialKind = 'string';
      this.#partialKey = key;
      this.#partial = [];
      this.#trailingSlashes = 0;
      this.#partialEscaped = false;
      this.#keepPartial(chunk.subarray(i));
      return chunk.length;
    }
    if (escaped) this.#stringDone(unescaped(chunk.subarray(i, close)), key);
    else if (key) {
      const cached = this.#keys.get(chunk, i, close);
      this.#key(cached.text, cached.index);
    } else {
      const text = chunk.toString('utf8', i, close);
      if (CONTROL.test(text)) throw notJson();
      this.#value(text);
    }
    return close + 1;
  }

  #stringDone(text: string, key: boolean): void {
    if (key) this.#key(text, INDEX_KEY.test(text));
    else this.#value(text);
  }

  /** Keeps bytes of a string the chunk cut, noting its escapes and the backslashes it ends with. */
  #keepPartial(bytes: Buffer): void {
    this.#partial.push(Buffer.from(bytes));
    this.#partialEscaped ||= bytes.includes(BACKSLASH);
    let slashes = 0;
    for (let j = bytes.length - 1; j >= 0 && bytes[j] === BACKSLASH; j--) slashes++;
    this.#trailingSlashes = slashes === bytes.length ? this.#trailingSlashes + slashes : slashes;
  }

  /** A string going to its sink from i: its raw bytes up to the closing quote. */
  #sinkString(chunk: Buffer, i: number): number {
    let j = i;
    let escape = this.#sinkEscape;
    for (; j < chunk.length; j++) {
      const c = chunk[j]!;
      if (escape) escape = false;
      else if (c === BACKSLASH) escape = true;
      else if (c === QUOTE) break;
    }
    if (j > i) this.#sink!.write(chunk.subarray(i, j));
    if (j === chunk.length) {
      this.#sinkEscape = escape;
      this.#partialKind = 'string';
      return j;
    }
    const sink = this.#sink!;
    this.#sink = null;
    this.#partialKind = null;
    this.#value(sink.end());
    return j + 1;
  }

  /** Goes on with a token the chunk before cut; where the next token starts. */
  #resume(chunk: Buffer): number {
    const kind = this.#partialKind!;
    if (kind === 'string' && this.#sink !== null) return this.#sinkString(chunk, 0);
    if (kind === 'string') {
      const close = closingQuote(chunk, 0, this.#trailingSlashes);
      if (close < 0) {
        this.#keepPartial(chunk);
        return chunk.length;
      }
      const raw = Buffer.concat([...this.#partial, chunk.subarray(0, close)]);
      const escaped = this.#partialEscaped || chunk.subarray(0, close).includes(BACKSLASH);
      this.#partial = [];
      this.#partialKind = null;
      const text = escaped ? unescaped(raw) : raw.toString('utf8');
      if (!escaped && CONTROL.test(text)) throw notJson();
      this.#stringDone(text, this.#partialKey);
      return close + 1;
    }
    let j = 0;
    while (j < chunk.length && (kind === 'number' ? NUMBER_BYTE[chunk[j]!] : isLetter(chunk[j]!))) j++;
    this.#partial.push(Buffer.from(chunk.subarray(0, j)));
    if (j === chunk.length) return j;
    const text = Buffer.concat(this.#partial).toString('latin1');
    this.#partial = [];
    this.#partialKind = null;
    this.#value(kind === 'number' ? numberOf(text) : wordOf(text));
    return j;
  }

  #number(chunk: Buffer, i: number): number {
    let j = i;
    let digits = 0;
    let mantissa = 0;
    let fraction = -1;
    let plain = true;
    if (chunk[j] === 0x2d) j++;
    while (j < chunk.length) {
      const c = chunk[j]!;
      if (c >= 0x30 && c <= 0x39) {
        mantissa = mantissa * 10 + (c - 0x30);
        digits++;
        if (fraction >= 0) fraction++;
      } else if (c === 0x2e && fraction < 0) fraction = 0;
      else if (NUMBER_BYTE[c]) plain = false;
      else break;
      j++;
    }
    if (j === chunk.length) {
      this.#partialKind = 'number';
      this.#partial = [Buffer.from(chunk.subarray(i))];
      return j;
    }
    // The common numbers need no text: up to 15 digits and a short fraction are exact in a
    // double, and one division by an exact power of ten rounds as Number() does (Clinger's fast path).
    const start = chunk[i] === 0x2d ? i + 1 : i;
    const leadingZero = chunk[start] === 0x30 && j - start > 1 && chunk[start + 1] !== 0x2e;
    if (plain && digits > 0 && digits <= 15 && fraction !== 0 && !leadingZero && fraction <= 22) {
      const magnitude = fraction > 0 ? mantissa / POWERS_OF_TEN[fraction]! : mantissa;
      this.#value(chunk[i] === 0x2d ? -magnitude : magnitude);
    } else this.#value(numberOf(chunk.toString('latin1', i, j)));
    return j;
  }

  #word(chunk: Buffer, i: number): number {
    let j = i;
    while (j < chunk.length && isLetter(chunk[j]!)) j++;
    if (j === i) throw notJson();
    if (j === chunk.length) {
      this.#partialKind = 'word';
      this.#partial = [Buffer.from(chunk.subarray(i))];
      return j;
    }
    this.#value(wordOf(chunk.toString('latin1', i, j)));
    return j;
  }
}
