/**
 * How the streaming JSON parser (stream.ts) builds objects and keys as JSON.parse does, at its
 * speed and size: one compiled literal per shape of keys, keys decoded once, index keys kept
 * in a dictionary.
 */

/** A control character, which JSON allows in a string only escaped. */
// eslint-disable-next-line no-control-regex -- JSON's own rule is about these very characters.
export const CONTROL = /[\u0000-\u001f]/;
/** A key V8 keeps as an array index (a status code: "200"). */
export const INDEX_KEY = /^(?:0|[1-9]\d{0,8})$/;
/** The largest array index: set and deleted, it makes an object keep its indexes in a dictionary. */
const LAST_INDEX = 2 ** 32 - 2;

/** Why the text is not JSON, in words that never quote it (a file may hold secrets). */
export class JsonStreamError extends Error {
  override readonly name = 'JsonStreamError';
}

export const notJson = (): JsonStreamError =>
  new JsonStreamError('the file is not valid JSON (truncated, or edited by hand?)');

/**
 * The keys of an object, in order, as a node of a tree of every key sequence met: objects of one
 * shape (every sample has the same keys) are built by one compiled literal, which gives V8's
 * own layout at once (in-object fields, no keyed store per field) and costs no per-object key
 * list. A shape with "__proto__" or an index key ("200"), or past the bounds, is built by hand.
 */
export class Shape {
  readonly keys: readonly string[];
  /** Whether a literal can build it: no "__proto__" (a literal would set the prototype) and no index key. */
  readonly literal: boolean;
  readonly #children = new Map<string, Shape>();
  #build: Builder | null = null;
  #uses = 0;

  constructor(keys: readonly string[], literal: boolean) {
    this.keys = keys;
    this.literal = literal;
  }

  child(key: string, index: boolean, counts: ShapeCounts): Shape {
    let next = this.#children.get(key);
    if (next === undefined) {
      const literal = this.literal && !index && key !== '__proto__' && this.keys.length < MAX_LITERAL_KEYS;
      if (counts.shapes >= MAX_SHAPES) return new Shape([...this.keys, key], false);
      counts.shapes++;
      next = new Shape([...this.keys, key], literal);
      this.#children.set(key, next);
    }
    return next;
  }

  /** The object of these keys and values[at...], as JSON.parse makes it. */
  build(values: unknown[], at: number, counts: ShapeCounts): Record<string, unknown> {
    if (this.#build === null && this.literal && ++this.#uses >= 2 && counts.compiled < MAX_COMPILED) {
      counts.compiled++;
      // The keys are written as JSON string literals: no text of the file becomes code. A shape's
      // literal builds its objects 1.6 times as fast as a keyed store per field (10 s against 16
      // for a 91 MB file), in V8's own layout.
      const fields = this.keys.map((k, i) => `${JSON.stringify(k)}: v[a + ${i}]`).join(', ');
      // eslint-disable-next-line @typescript-eslint/no-implied-eval -- see above: only string literals are generated.
      this.#build = new Function('v', 'a', `return { ${fields} };`) as Builder;
    }
    if (this.#build !== null) return this.#build(values, at);
    const object: Record<string, unknown> = {};
    let indexed = false;
    for (let i = 0; i < this.keys.length; i++) {
      const key = this.keys[i]!;
      const value = values[at + i];
      if (!indexed && INDEX_KEY.test(key)) {
        // An object's first index key ("200") would make V8 give it a flat array up to that
        // index (2.6 KB for "200"); JSON.parse keeps such keys in a dictionary, and so does this.
        object[LAST_INDEX] = null;
        delete object[LAST_INDEX];
        indexed = true;
      }
      // As JSON.parse: an own property, "__proto__" too (never the prototype).
      if (key === '__proto__')
        Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
      else object[key] = value;
    }
    return object;
  }
}

type Builder = (values: unknown[], at: number) => Record<string, unknown>;

export interface ShapeCounts {
  shapes: number;
  compiled: number;
}

const MAX_LITERAL_KEYS = 64;
const MAX_SHAPES = 20_000;
const MAX_COMPILED = 2_000;

/** An array or object being filled; one shape for both, so the hot paths see one. */
export class Frame {
  readonly array: unknown[] | null;
  /** An object's keys so far, and where its values begin in the parser's value stack. */
  shape: Shape;
  readonly at: number;
  /** An object's key whose value is due. */
  key: string | null = null;
  keyIsIndex = false;
  constructor(array: boolean, shape: Shape, at: number) {
    this.array = array ? [] : null;
    this.shape = shape;
    this.at = at;
  }
}

/** A key met before, by its bytes: most keys repeat (every sample has the same), so each is decoded once. */
interface CachedKey {
  bytes: Buffer;
  text: string;
  index: boolean;
}

const MAX_CACHED_KEY = 64;
const MAX_CACHED_KEYS = 4096;

export class KeyCache {
  readonly #keys = new Map<number, CachedKey>();

  /** The key of bytes [from, to) of a chunk (no escape in it), decoded once and kept. */
  get(chunk: Buffer, from: number, to: number): CachedKey {
    const length = to - from;
    if (length > MAX_CACHED_KEY) return decodedKey(chunk, from, to);
    let hash = length;
    for (let i = from; i < to; i++) hash = (Math.imul(hash, 31) + chunk[i]!) | 0;
    const hit = this.#keys.get(hash);
    if (hit && hit.bytes.length === length && chunk.compare(hit.bytes, 0, length, from, to) === 0) return hit;
    const key = decodedKey(chunk, from, to);
    if (!hit && this.#keys.size < MAX_CACHED_KEYS) this.#keys.set(hash, key);
    return key;
  }
}

function decodedKey(chunk: Buffer, from: number, to: number): CachedKey {
  const text = chunk.toString('utf8', from, to);
  if (CONTROL.test(text)) throw notJson();
  return { bytes: Buffer.from(chunk.subarray(from, to)), text, index: INDEX_KEY.test(text) };
}
