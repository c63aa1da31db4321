/**
 * The HPACK (RFC 7541) the native HTTP/2 client needs. The static table and the Huffman code
 * are in static-table.ts and huffman.ts.
 *
 * Requests: one header block built once per run (encoder.ts).
 *
 * Responses: a full decoder with a dynamic table per connection (HpackDecoder, one per
 * session). The client announces SETTINGS_HEADER_TABLE_SIZE = 4096, the protocol default: a
 * smaller value is not something a client can rely on (H2O before 2.3 ignores it and refers
 * to its table anyway), and a benchmark client must read whatever a server sends. From a
 * block the client reads :status and, when asked, the Server value. Fields the server adds
 * to its table are decoded and stored whole (later blocks refer to them by index); other
 * fields are skipped undecoded. nginx adds Server, Date, Content-Type, Content-Length and
 * Last-Modified to the table on every response and never refers to them: a field equal, as
 * encoded, to the last one added under the same name reuses that entry without decoding,
 * and a block equal, octet for octet, to the last one decoded that referred to no table
 * entry and changed no table size is not decoded again: its result and its insertions are
 * replayed (what it decodes to depends on its octets alone).
 * Any decoding error is an HpackError: the connection's table can no longer be trusted, so
 * the session closes that connection. So does a block whose header list (RFC 9113 section
 * 6.5.2: name, value and 32 bytes a field) outgrows the decoder's bound: one byte can refer
 * to a 4 KB table entry, so a small block can stand for a huge list.
 */
import { huffmanDecode, huffmanOctets } from './huffman.ts';
import {
  ENTRY_OVERHEAD,
  STATIC_COUNT,
  STATIC_NAMES,
  STATIC_SIZE,
  STATIC_STATUS,
  STATIC_TABLE,
} from './static-table.ts';

/** The table size the client announces and the largest a server's size update may set. */
export const DECODER_TABLE_SIZE = 4096;

/** The names the client reads a value of, and their lengths as raw and as Huffman-coded octets. */
const READ_NAMES = [':status', 'server'];
const READ_NAMES_OCTETS = READ_NAMES.map((name) => name.length);
const READ_NAMES_HUFFMAN_OCTETS = READ_NAMES.map(huffmanOctets);

export interface DecodedHead {
  status: number;
  server: string | null;
}

/** Why a header block could not be read; the connection is then unusable. */
export class HpackError extends Error {
  override readonly name: string = 'HpackError';
}

/** A block whose header list is larger than the decoder accepts (a limit, not a coding error). */
export class HeaderListTooLargeError extends HpackError {
  override readonly name = 'HeaderListTooLargeError';
}

/** A dynamic table entry, with what the client reads from it worked out once on insertion. */
interface Entry {
  name: string;
  value: string;
  size: number;
  /** The status code when this is a :status entry, else 0. */
  status: number;
  isServer: boolean;
}

/**
 * A :status value: three digits from 100 to 999 (600-999 are undefined codes a client counts
 * as a 5xx, RFC 9110 section 15), else MALFORMED_STATUS. A malformed response is a stream
 * error (RFC 9113 section 8.1.1), not a coding one: the session resets that stream only.
 */
function parseStatus(value: string): number {
  return /^[1-9]\d\d$/.test(value) ? Number(value) : MALFORMED_STATUS;
}

/** A header block that can be replayed: its octets, what it was asked, the entries it added in order, its result. */
interface Replay {
  octets: Buffer;
  wantServer: boolean;
  inserted: Entry[];
  head: DecodedHead;
}

/** Whether buf[from, to) holds exactly these octets (Buffer's compare: twice as fast as a loop here). */
function sameOctets(octets: Buffer, buf: Uint8Array, from: number, to: number): boolean {
  return octets.length === to - from && octets.compare(buf, from, to) === 0;
}

/** The status of a block whose :status is not a status code. */
export const MALFORMED_STATUS = -1;

/**
 * The decoding side of one connection's HPACK context: the dynamic table the server's
 * encoder fills (RFC 7541 sections 2.3 and 4), kept as a ring of at most limit / 32 entries
 * (every entry counts 32 bytes or more), newest at `newest`.
 */
export class HpackDecoder {
  /** The announced SETTINGS_HEADER_TABLE_SIZE: no size update may go above it. */
  private readonly limit: number;
  /** The largest header list a block may decode to (the announced SETTINGS_MAX_HEADER_LIST_SIZE). */
  private readonly maxListBytes: number;
  /** The table's current maximum size (the last size update, initially the limit). */
  private capacity: number;
  private size = 0;
  private readonly ring: (Entry | undefined)[];
  private newest = -1;
  private count = 0;
  /** Read position in the block being decoded. */
  private pos = 0;
  /** Per static name index, the last entry added with that name, and its value as encoded. */
  private readonly lastEntry: (Entry | undefined)[] = [];
  private readonly lastOctets: (Uint8Array | undefined)[] = [];
  /** The last block decoded without a table reference or size update, and what it did. */
  private replay: Replay | null = null;

  constructor(limit: number = DECODER_TABLE_SIZE, maxListBytes = Infinity) {
    this.limit = limit;
    this.maxListBytes = maxListBytes;
    this.capacity = limit;
    this.ring = new Array<Entry | undefined>(Math.max(1, Math.floor(limit / ENTRY_OVERHEAD)));
  }

  /**
   * Reads :status (and Server when wantServer) from a response header block, updating the
   * table as the block says. status is 0 when the block has no :status (trailers). With
   * `fields`, every field is decoded and appended to it as [name, value]. A field read
   * without decoding counts as many list bytes as it takes in the block (plus 32).
   */
  decode(
    buf: Uint8Array,
    from: number,
    to: number,
    wantServer: boolean,
    fields: [string, string][] | null = null,
  ): DecodedHead {
    const last = this.replay;
    if (
      fields === null &&
      last !== null &&
      last.wantServer === wantServer &&
      sameOctets(last.octets, buf, from, to)
    ) {
      for (const e of last.inserted) this.insert(e);
      return last.head;
    }
    this.pos = from;
    let status = 0;
    let server: string | null = null;
    let fieldSeen = false;
    let listBytes = 0;
    // Whether the block's result depends on its octets alone (no table read, no size update),
    // and the entries it added, in order.
    let replayable = fields === null;
    const inserted: Entry[] = [];
    while (this.pos < to) {
      if (listBytes > this.maxListBytes) this.listTooLarge();
      const start = this.pos;
      const b = buf[this.pos]!;
      if (b & 0x80) {
        // Indexed field (RFC 7541 section 6.1).
        const index = this.int(buf, to, 7);
        fieldSeen = true;
        if (index <= STATIC_COUNT) {
          if (index === 0) throw new HpackError('header block refers to index 0');
          listBytes += STATIC_SIZE[index]!;
          if (STATIC_STATUS[index] !== 0) status = STATIC_STATUS[index]!;
          if (fields !== null) {
            const [name, value] = STATIC_TABLE[index - 1]!;
            fields.push([name, value]);
          }
        } else {
          replayable = false;
          const e = this.entry(index);
          listBytes += e.size;
          if (e.status !== 0) status = e.status;
          else if (e.isServer && wantServer) server = e.value;
          if (fields !== null) fields.push([e.name, e.value]);
        }
        continue;
      }
      if ((b & 0xe0) === 0x20) {
        // Dynamic table size update (section 6.3): only before the block's first field.
        if (fieldSeen) throw new HpackError('dynamic table size update after a header field');
        const max = this.int(buf, to, 5);
        if (max > this.limit) {
          throw new HpackError(
            `server set the dynamic table size to ${max}, above the client's SETTINGS_HEADER_TABLE_SIZE of ${this.limit}`,
          );
        }
        this.capacity = max;
        this.evictFor(0);
        replayable = false;
        continue;
      }
      // Literal: with incremental indexing (01), without (0000) or never indexed (0001).
      fieldSeen = true;
      const indexing = (b & 0x40) !== 0;
      const nameIndex = this.int(buf, to, indexing ? 6 : 4);
      if (nameIndex > STATIC_COUNT) replayable = false;
      if (!indexing && fields === null) {
        // Not stored: its value is read only for :status, or Server when wanted.
        const named = nameIndex === 0 ? this.literalName(buf, to) : this.indexedName(nameIndex);
        if (named === ':status') status = parseStatus(this.string(buf, to));
        else if (named === 'server' && wantServer) server = this.string(buf, to);
        else this.skipString(buf, to);
        listBytes += this.pos - start + ENTRY_OVERHEAD;
        continue;
      }
      const e =
        nameIndex > 0 && nameIndex <= STATIC_COUNT
          ? this.staticNamed(nameIndex, buf, to)
          : this.entryOf(nameIndex === 0 ? this.string(buf, to) : this.indexedName(nameIndex), buf, to);
      listBytes += e.size;
      if (e.status !== 0) status = e.status;
      else if (e.isServer && wantServer) server = e.value;
      if (indexing) {
        this.insert(e);
        inserted.push(e);
      }
      if (fields !== null) fields.push([e.name, e.value]);
    }
    if (listBytes > this.maxListBytes) this.listTooLarge();
    const head = { status, server };
    if (replayable) this.replay = { octets: Buffer.from(buf.subarray(from, to)), wantServer, inserted, head };
    return head;
  }

  private listTooLarge(): never {
    throw new HeaderListTooLargeError(
      `response header list larger than ${this.maxListBytes} bytes (the client's limit)`,
    );
  }

  /**
   * The field a literal with a static name index carries: when its value is encoded as the
   * last one under that name was, that entry again (entries never change), else decoded.
   */
  private staticNamed(nameIndex: number, buf: Uint8Array, end: number): Entry {
    const start = this.pos;
    this.skipString(buf, end);
    const last = this.lastOctets[nameIndex];
    if (last !== undefined && last.length === this.pos - start) {
      let same = true;
      for (let i = 0; i < last.length && same; i++) same = last[i] === buf[start + i];
      if (same) return this.lastEntry[nameIndex]!;
    }
    this.pos = start;
    const e = this.entryOf(STATIC_NAMES[nameIndex]!, buf, end);
    this.lastOctets[nameIndex] = new Uint8Array(buf.subarray(start, this.pos));
    this.lastEntry[nameIndex] = e;
    return e;
  }

  /** A field of the given name whose value is the string literal at this.pos. */
  private entryOf(name: string, buf: Uint8Array, end: number): Entry {
    const value = this.string(buf, end);
    return {
      name,
      value,
      size: name.length + value.length + ENTRY_OVERHEAD,
      status: name === ':status' ? parseStatus(value) : 0,
      isServer: name === 'server',
    };
  }

  /** The name at a static or dynamic index (literal fields). */
  private indexedName(index: number): string {
    return index <= STATIC_COUNT ? STATIC_NAMES[index]! : this.entry(index).name;
  }

  /**
   * Reads a literal name that will not be stored, as far as needed: the names the client
   * reads (:status, server) are decoded, any other is skipped and returned as ''. Its length
   * tells most apart before decoding: "etag" or "accept-ranges" never are.
   */
  private literalName(buf: Uint8Array, end: number): string {
    const start = this.pos;
    const huffman = this.pos < end && (buf[this.pos]! & 0x80) !== 0;
    const from = this.skipString(buf, end);
    const octets = this.pos - from;
    const lengths = huffman ? READ_NAMES_HUFFMAN_OCTETS : READ_NAMES_OCTETS;
    if (octets !== lengths[0] && octets !== lengths[1]) return '';
    this.pos = start;
    return this.string(buf, end);
  }

  /** The dynamic table, newest entry first, and its size (RFC 7541 section 4.1). */
  get table(): { entries: [string, string][]; size: number } {
    const entries: [string, string][] = [];
    for (let k = 0; k < this.count; k++) {
      const e = this.entry(STATIC_COUNT + 1 + k);
      entries.push([e.name, e.value]);
    }
    return { entries, size: this.size };
  }

  /** The dynamic entry at an index above the static table (62 is the newest). */
  private entry(index: number): Entry {
    const k = index - STATIC_COUNT - 1;
    if (k >= this.count) {
      throw new HpackError(
        `header block refers to index ${index}, beyond the table (${STATIC_COUNT} static and ${this.count} dynamic entries)`,
      );
    }
    const n = this.ring.length;
    return this.ring[(this.newest - k + n) % n]!;
  }

  /** Adds an entry, evicting the oldest ones to make room (section 4.4). */
  private insert(e: Entry): void {
    if (e.size > this.capacity) {
      // Larger than the whole table: it empties the table and is not added.
      this.evictFor(this.capacity + 1);
      return;
    }
    this.evictFor(e.size);
    this.newest = (this.newest + 1) % this.ring.length;
    this.ring[this.newest] = e;
    this.count++;
    this.size += e.size;
  }

  /** Evicts the oldest entries until `room` more bytes fit under the capacity (or none are left). */
  private evictFor(room: number): void {
    const n = this.ring.length;
    while (this.count > 0 && this.size + room > this.capacity) {
      const oldest = (this.newest - this.count + 1 + n) % n;
      this.size -= this.ring[oldest]!.size;
      this.ring[oldest] = undefined;
      this.count--;
    }
  }

  /** An integer with an N-bit prefix (section 5.1), starting at this.pos. */
  private int(buf: Uint8Array, end: number, prefixBits: number): number {
    const max = (1 << prefixBits) - 1;
    let value = buf[this.pos++]! & max;
    if (value < max) return value;
    let shift = 0;
    for (;;) {
      if (this.pos >= end) throw new HpackError('truncated integer in a header block');
      const b = buf[this.pos++]!;
      value += (b & 127) * 2 ** shift;
      shift += 7;
      if ((b & 128) === 0) return value;
      if (shift > 28) throw new HpackError('integer too large in a header block');
    }
  }

  /** Moves past a string literal (section 5.2); returns where its octets start. */
  private skipString(buf: Uint8Array, end: number): number {
    if (this.pos >= end) throw new HpackError('truncated string in a header block');
    const len = this.int(buf, end, 7);
    const from = this.pos;
    this.pos += len;
    if (this.pos > end) throw new HpackError('truncated string in a header block');
    return from;
  }

  /** Reads a string literal, raw or Huffman-coded. */
  private string(buf: Uint8Array, end: number): string {
    const huffman = this.pos < end && (buf[this.pos]! & 0x80) !== 0;
    const from = this.skipString(buf, end);
    if (!huffman) return Buffer.from(buf.buffer, buf.byteOffset + from, this.pos - from).toString('latin1');
    const text = huffmanDecode(buf, from, this.pos);
    if (text === null) throw new HpackError('invalid Huffman coding in a header block');
    return text;
  }
}
