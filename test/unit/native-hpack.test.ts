import { describe, expect, it } from 'vitest';
import { encodeRequestBlock } from '../../electron/engine/native/hpack/encoder.ts';
import { huffmanDecode } from '../../electron/engine/native/hpack/huffman.ts';
import {
  DECODER_TABLE_SIZE,
  HeaderListTooLargeError,
  HpackDecoder,
  HpackError,
} from '../../electron/engine/native/hpack/decoder.ts';

const hex = (s: string): Buffer => Buffer.from(s.replace(/\s+/g, ''), 'hex');

/** Decodes blocks in turn on one decoder; per block, its header list, :status and table after it. */
function decodeAll(decoder: HpackDecoder, blocks: Buffer[]) {
  return blocks.map((block) => {
    const fields: [string, string][] = [];
    const head = decoder.decode(block, 0, block.length, true, fields);
    return { fields, status: head.status, server: head.server, table: decoder.table };
  });
}

/** A table entry as RFC 7541 appendix C lists it: name, value and its size (name + value + 32). */
const sized = (entries: [string, string][]) => ({
  entries,
  size: entries.reduce((sum, [n, v]) => sum + n.length + v.length + 32, 0),
});

describe('HPACK for the native HTTP/2 client', () => {
  it('decodes Huffman strings (RFC 7541 appendix C.4)', () => {
    const www = hex('f1e3 c2e5 f23a 6ba0 ab90 f4ff');
    expect(huffmanDecode(www, 0, www.length)).toBe('www.example.com');
    const noCache = hex('a8eb 1064 9cbf');
    expect(huffmanDecode(noCache, 0, noCache.length)).toBe('no-cache');
    const custom = hex('25a8 49e9 5bb8 e8b4 bf');
    expect(huffmanDecode(custom, 0, custom.length)).toBe('custom-value');
  });

  it('rejects invalid Huffman padding', () => {
    // "3" (011001) padded with zeros instead of ones.
    expect(huffmanDecode(Buffer.from([0b01100100]), 0, 1)).toBeNull();
    // A whole byte of padding is too much.
    expect(huffmanDecode(Buffer.from([0x64, 0x02, 0xff]), 0, 3)).toBeNull();
    // EOS (30 ones) inside a string, even as its last code.
    expect(huffmanDecode(hex('ffff fffc'), 0, 4)).toBeNull();
    expect(huffmanDecode(hex('1fff ffff f0'), 0, 5)).toBeNull();
  });

  it('decodes the RFC 7541 C.3 requests: three blocks sharing one table, no Huffman', () => {
    const blocks = [
      hex('8286 8441 0f77 7777 2e65 7861 6d70 6c65 2e63 6f6d'),
      hex('8286 84be 5808 6e6f 2d63 6163 6865'),
      hex('8287 85bf 400a 6375 7374 6f6d 2d6b 6579 0c63 7573 746f 6d2d 7661 6c75 65'),
    ];
    const authority: [string, string] = [':authority', 'www.example.com'];
    const first: [string, string][] = [[':method', 'GET'], [':scheme', 'http'], [':path', '/'], authority];
    const out = decodeAll(new HpackDecoder(), blocks);
    expect(out.map((o) => o.fields)).toEqual([
      first,
      [...first, ['cache-control', 'no-cache']],
      [
        [':method', 'GET'],
        [':scheme', 'https'],
        [':path', '/index.html'],
        authority,
        ['custom-key', 'custom-value'],
      ],
    ]);
    expect(out.map((o) => o.table)).toEqual([
      sized([authority]),
      sized([['cache-control', 'no-cache'], authority]),
      sized([['custom-key', 'custom-value'], ['cache-control', 'no-cache'], authority]),
    ]);
    expect(out.map((o) => o.table.size)).toEqual([57, 110, 164]);
    expect(out.map((o) => o.status)).toEqual([0, 0, 0]);
  });

  describe('decodes the RFC 7541 C.5 / C.6 responses, evicting from a 256-byte table', () => {
    const date1 = 'Mon, 21 Oct 2013 20:13:21 GMT';
    const date2 = 'Mon, 21 Oct 2013 20:13:22 GMT';
    const url = 'https://www.example.com';
    const cookie = 'foo=ASDJKHQKBZXOQWEOPIUAXQWEOIU; max-age=3600; version=1';
    const lists: [string, string][][] = [
      [
        [':status', '302'],
        ['cache-control', 'private'],
        ['date', date1],
        ['location', url],
      ],
      [
        [':status', '307'],
        ['cache-control', 'private'],
        ['date', date1],
        ['location', url],
      ],
      [
        [':status', '200'],
        ['cache-control', 'private'],
        ['date', date2],
        ['location', url],
        ['content-encoding', 'gzip'],
        ['set-cookie', cookie],
      ],
    ];
    const tables = [
      sized([
        ['location', url],
        ['date', date1],
        ['cache-control', 'private'],
        [':status', '302'],
      ]),
      // :status 302 evicted to make room for :status 307.
      sized([
        [':status', '307'],
        ['location', url],
        ['date', date1],
        ['cache-control', 'private'],
      ]),
      // Four entries evicted along the block: only its own three remain.
      sized([
        ['set-cookie', cookie],
        ['content-encoding', 'gzip'],
        ['date', date2],
      ]),
    ];
    const coded = {
      'C.5 (raw literals)': [
        hex(`4803 3330 3258 0770 7269 7661 7465 611d 4d6f 6e2c 2032 3120 4f63 7420 3230 3133
             2032 303a 3133 3a32 3120 474d 546e 1768 7474 7073 3a2f 2f77 7777 2e65 7861 6d70
             6c65 2e63 6f6d`),
        hex('4803 3330 37c1 c0bf'),
        hex(`88c1 611d 4d6f 6e2c 2032 3120 4f63 7420 3230 3133 2032 303a 3133 3a32 3220 474d
             54c0 5a04 677a 6970 7738 666f 6f3d 4153 444a 4b48 514b 425a 584f 5157 454f 5049
             5541 5851 5745 4f49 553b 206d 6178 2d61 6765 3d33 3630 303b 2076 6572 7369 6f6e
             3d31`),
      ],
      'C.6 (Huffman)': [
        hex(`4882 6402 5885 aec3 771a 4b61 96d0 7abe 9410 54d4 44a8 2005 9504 0b81 66e0 82a6
             2d1b ff6e 919d 29ad 1718 63c7 8f0b 97c8 e9ae 82ae 43d3`),
        hex('4883 640e ffc1 c0bf'),
        hex(`88c1 6196 d07a be94 1054 d444 a820 0595 040b 8166 e084 a62d 1bff c05a 839b d9ab
             77ad 94e7 821d d7f2 e6c7 b335 dfdf cd5b 3960 d5af 2708 7f36 72c1 ab27 0fb5 291f
             9587 3160 65c0 03ed 4ee5 b106 3d50 07`),
      ],
    };
    for (const [name, blocks] of Object.entries(coded)) {
      it(name, () => {
        const out = decodeAll(new HpackDecoder(256), blocks);
        expect(out.map((o) => o.fields)).toEqual(lists);
        expect(out.map((o) => o.table)).toEqual(tables);
        expect(out.map((o) => o.table.size)).toEqual([222, 222, 215]);
        expect(out.map((o) => o.status)).toEqual([302, 307, 200]);
      });
    }

    it('reads :status from the table without listing fields (the hot path), same table states', () => {
      const decoder = new HpackDecoder(256);
      const heads = coded['C.6 (Huffman)'].map((b) => decoder.decode(b, 0, b.length, false));
      expect(heads).toEqual([
        { status: 302, server: null },
        { status: 307, server: null },
        { status: 200, server: null },
      ]);
      expect(decoder.table).toEqual(tables[2]);
    });
  });

  it('reads a static :status and a Server value, raw or Huffman-coded', () => {
    // Indexed :status 200 (static 8); server (static name 54) raw "nginx".
    const raw = Buffer.concat([Buffer.from([0x88, 0x0f, 54 - 15, 5]), Buffer.from('nginx')]);
    expect(new HpackDecoder().decode(raw, 0, raw.length, true)).toEqual({ status: 200, server: 'nginx' });
    // :status 404 (static 13), server Huffman "nginx" as nginx sends it.
    const huff = Buffer.concat([Buffer.from([0x8d, 0x0f, 54 - 15, 0x84]), hex('aa63 55e7')]);
    expect(new HpackDecoder().decode(huff, 0, huff.length, true)).toEqual({ status: 404, server: 'nginx' });
    expect(new HpackDecoder().decode(huff, 0, huff.length, false)).toEqual({ status: 404, server: null });
  });

  it('reads a Server value the server indexed, then referred to by index, as H2O does', () => {
    const decoder = new HpackDecoder();
    // Literal with incremental indexing, static name 54 (server), raw "h2o/2.2.5"; :status 200.
    const first = Buffer.concat([Buffer.from([0x88, 0x40 | 54, 9]), Buffer.from('h2o/2.2.5')]);
    expect(decoder.decode(first, 0, first.length, false)).toEqual({ status: 200, server: null });
    expect(decoder.table).toEqual(sized([['server', 'h2o/2.2.5']]));
    // Second response: :status 200, then index 62 (the newest dynamic entry).
    const second = Buffer.from([0x88, 0x80 | 62]);
    expect(decoder.decode(second, 0, second.length, true)).toEqual({ status: 200, server: 'h2o/2.2.5' });
    expect(decoder.decode(second, 0, second.length, false)).toEqual({ status: 200, server: null });
  });

  it("keeps nginx's table: the same five fields added on every response, a new Date read anew", () => {
    // nginx 1.22's response to GET /test.html: :status 200 (indexed); server, date,
    // content-type, content-length and last-modified with incremental indexing (static
    // names, Huffman values); etag and accept-ranges without indexing, literal names.
    const block = hex(`
      8876 89aa 6355 e580 ae21 2e1f 6196 d07a be94 640a 693f 7504 0138 a003 71b1 5c69
      b531 68df 5f87 497c a589 d34d 1f5c 0135 6c96 d07a be94 640a 693f 7504 0138 a003
      71b1 5c69 b531 68df 0083 2a47 378a fe5c 8c04 91c2 c8b3 7fcf 0089 1908 5ad2 b583
      aa62 a384 8fd2 4a8f`);
    const date = 'Mon, 30 Nov 2026 01:52:45 GMT';
    const added: [string, string][] = [
      ['last-modified', date],
      ['content-length', '5'],
      ['content-type', 'text/html'],
      ['date', date],
      ['server', 'nginx/1.22.1'],
    ];
    const listed = new HpackDecoder();
    const fields: [string, string][] = [];
    listed.decode(block, 0, block.length, false, fields);
    expect(fields).toEqual([
      [':status', '200'],
      ['server', 'nginx/1.22.1'],
      ['date', date],
      ['content-type', 'text/html'],
      ['content-length', '5'],
      ['last-modified', date],
      ['etag', '"6b0cd6ed-5"'],
      ['accept-ranges', 'bytes'],
    ]);

    const decoder = new HpackDecoder();
    expect(decoder.decode(block, 0, block.length, true)).toEqual({ status: 200, server: 'nginx/1.22.1' });
    expect(decoder.decode(block, 0, block.length, false)).toEqual({ status: 200, server: null });
    expect(decoder.decode(block, 0, block.length, true)).toEqual({ status: 200, server: 'nginx/1.22.1' });
    expect(decoder.table).toEqual(sized([...added, ...added, ...added]));
    expect(listed.table).toEqual(sized(added));
    // A second later: Date added raw with a new value (static name 33), then referred to (62).
    const later = 'Mon, 30 Nov 2026 01:52:46 GMT';
    const next = Buffer.concat([
      Buffer.from([0x88, 0x40 | 33, later.length]),
      Buffer.from(later),
      Buffer.from([0x80 | 62]),
    ]);
    const nextFields: [string, string][] = [];
    decoder.decode(next, 0, next.length, false, nextFields);
    expect(nextFields).toEqual([
      [':status', '200'],
      ['date', later],
      ['date', later],
    ]);
    expect(decoder.table.entries.slice(0, 2)).toEqual([['date', later], added[0]]);
    // The same bytes as the first Date again: decoded again, not confused with the later one.
    decoder.decode(block, 0, block.length, false);
    expect(decoder.table.entries.slice(0, 6)).toEqual([...added, ['date', later]]);
    // 21 entries of 47 to 74 bytes, none evicted from 4096.
    expect(decoder.table.size).toBe(4 * sized(added).size + 32 + 4 + later.length);
  });

  it('replays a repeated block only when its octets alone decide it, from a copy of them', () => {
    // :status 200, then server (static name 54) with incremental indexing, raw value.
    const serverBlock = (value: string) =>
      Buffer.concat([Buffer.from([0x88, 0x40 | 54, value.length]), Buffer.from(value)]);
    const decoder = new HpackDecoder();
    const read = Buffer.alloc(64);
    const a = serverBlock('a');
    a.copy(read, 10);
    expect(decoder.decode(read, 10, 10 + a.length, true)).toEqual({ status: 200, server: 'a' });
    expect(decoder.decode(read, 10, 10 + a.length, true)).toEqual({ status: 200, server: 'a' });
    // Replayed, its insertion too.
    expect(decoder.table).toEqual(
      sized([
        ['server', 'a'],
        ['server', 'a'],
      ]),
    );
    // The read buffer reused for another block of the same length: read anew.
    serverBlock('b').copy(read, 10);
    expect(decoder.decode(read, 10, 10 + a.length, true)).toEqual({ status: 200, server: 'b' });
    expect(decoder.table.entries[0]).toEqual(['server', 'b']);
    // A block referring to the table (index 62, the newest) follows the table, not its last result.
    const byIndex = Buffer.from([0x88, 0x80 | 62]);
    expect(decoder.decode(byIndex, 0, 2, true).server).toBe('b');
    decoder.decode(a, 0, a.length, false);
    expect(decoder.decode(byIndex, 0, 2, true).server).toBe('a');
    // A size update is applied again each time: the table it empties stays empty.
    const emptying = Buffer.from([0x20, 0x88]);
    decoder.decode(emptying, 0, 2, false);
    expect(decoder.table.size).toBe(0);
    const restoring = Buffer.from([0x3f, 0xe1, 0x1f, 0x88]);
    decoder.decode(restoring, 0, restoring.length, false);
    decoder.decode(a, 0, a.length, false);
    expect(decoder.table.entries).toEqual([['server', 'a']]);
    decoder.decode(emptying, 0, 2, false);
    expect(decoder.table).toEqual({ entries: [], size: 0 });
  });

  it('reads :status and server literal names, raw or Huffman-coded, and skips other names', () => {
    const decoder = new HpackDecoder();
    const raw = (name: string, value: string) =>
      Buffer.concat([
        Buffer.from([0x00, name.length]),
        Buffer.from(name),
        Buffer.from([value.length]),
        Buffer.from(value),
      ]);
    // "server" Huffman-coded (RFC 7541 appendix B: 01000 00101 101100 1110111 00101 101100,
    // padded with ones to 5 octets), value raw.
    const huffServer = Buffer.concat([hex('0085 416c ee5b 3f05'), Buffer.from('h2o/x')]);
    const block = Buffer.concat([
      raw('x-status', '999'),
      raw(':status', '203'),
      raw('servers', 'no'),
      huffServer,
    ]);
    expect(decoder.decode(block, 0, block.length, true)).toEqual({ status: 203, server: 'h2o/x' });
    expect(decoder.table).toEqual({ entries: [], size: 0 });
  });

  it('applies size updates at the start of a block, up to the announced limit', () => {
    const decoder = new HpackDecoder();
    const c61 = hex(`4882 6402 5885 aec3 771a 4b61 96d0 7abe 9410 54d4 44a8 2005 9504 0b81 66e0 82a6
                     2d1b ff6e 919d 29ad 1718 63c7 8f0b 97c8 e9ae 82ae 43d3`);
    decoder.decode(c61, 0, c61.length, false);
    expect(decoder.table.entries).toHaveLength(4);
    // Size update to 100 (5-bit prefix: 31 + 69), then :status 200: only the newest entry still fits (63 + 65 > 100).
    const shrink = Buffer.from([0x3f, 69, 0x88]);
    expect(decoder.decode(shrink, 0, shrink.length, false).status).toBe(200);
    expect(decoder.table).toEqual(sized([['location', 'https://www.example.com']]));
    // Two updates in a row: to 0 (empties the table), then back to 4096 (31 + 0x61 + (0x1f << 7)),
    // after which an entry of 32 + 6 + 100 bytes is kept again; then :status 204.
    const value = 'v'.repeat(100);
    const regrow = Buffer.concat([
      Buffer.from([0x20, 0x3f, 0xe1, 0x1f, 0x40 | 54, 100]),
      Buffer.from(value),
      Buffer.from([0x89]),
    ]);
    expect(decoder.decode(regrow, 0, regrow.length, false).status).toBe(204);
    expect(decoder.table).toEqual(sized([['server', value]]));
    expect(decoder.table.size).toBe(138);
    expect(DECODER_TABLE_SIZE).toBe(4096);
  });

  it('rejects a size update above the limit, or after a field, and an index beyond the table', () => {
    // 4097 (one above the announced 4096): 31 + 0x62 + (0x1f << 7).
    expect(() => new HpackDecoder().decode(Buffer.from([0x3f, 0xe2, 0x1f]), 0, 3, false)).toThrow(
      /dynamic table size to 4097, above the client's SETTINGS_HEADER_TABLE_SIZE of 4096/,
    );
    // 257 on a decoder that announced 256: 31 + 0x62 + (0x01 << 7).
    expect(() => new HpackDecoder(256).decode(Buffer.from([0x3f, 0xe2, 0x01]), 0, 3, false)).toThrow(
      HpackError,
    );
    expect(() => new HpackDecoder().decode(Buffer.from([0x88, 0x20]), 0, 2, false)).toThrow(
      /size update after a header field/,
    );
    // RFC 7541 C.6.2 refers to entries 62-65, which a fresh table lacks.
    const second = hex('4883 640e ffc1 c0bf');
    expect(() => new HpackDecoder().decode(second, 0, second.length, false)).toThrow(
      /index 65, beyond the table \(61 static and 1 dynamic entries\)/,
    );
    // A literal whose name refers beyond the table, and index 0.
    expect(() => new HpackDecoder().decode(Buffer.from([0x7f, 0x01, 0x00]), 0, 3, false)).toThrow(
      /index 64, beyond the table/,
    );
    expect(() => new HpackDecoder().decode(Buffer.from([0x80]), 0, 1, false)).toThrow(/index 0/);
    // Invalid Huffman padding in a value the table must store.
    expect(() => new HpackDecoder().decode(Buffer.from([0x40 | 54, 0x81, 0x64]), 0, 3, false)).toThrow(
      /Huffman/,
    );
  });

  it('bounds the header list a block decodes to, indexed references included (an HPACK bomb)', () => {
    // server: 4,000 x "a" added to the table (entry of 4,038 bytes), then 250 references to it.
    const value = Buffer.concat([
      Buffer.from([0x40 | 54, 0x7f]),
      Buffer.from([0x80 | (4000 - 127 - 128 * 30), 30]),
      Buffer.alloc(4000, 0x61),
    ]);
    const block = Buffer.concat([Buffer.from([0x88]), value, Buffer.alloc(250, 0x80 | 62)]);
    const head = new HpackDecoder(DECODER_TABLE_SIZE, 2_000_000).decode(block, 0, block.length, false);
    expect(head.status).toBe(200);
    // 1 MiB: the 251 fields (4,038 bytes each) take about 1 MB; 1,000 more references pass it.
    const bomb = Buffer.concat([block, Buffer.alloc(1000, 0x80 | 62)]);
    expect(() => new HpackDecoder(DECODER_TABLE_SIZE, 1 << 20).decode(bomb, 0, bomb.length, false)).toThrow(
      HeaderListTooLargeError,
    );
    expect(() => new HpackDecoder(DECODER_TABLE_SIZE, 1 << 20).decode(bomb, 0, bomb.length, false)).toThrow(
      "response header list larger than 1048576 bytes (the client's limit)",
    );
    // Fields it skips undecoded count as they take in the block, plus 32 each.
    const skipped = Buffer.concat([
      Buffer.from([0x88]),
      ...Array.from({ length: 40 }, () => Buffer.from([0x0f, 0x2b - 15, 3, 0x61, 0x62, 0x63])),
    ]);
    expect(() =>
      new HpackDecoder(DECODER_TABLE_SIZE, 40 * 38).decode(skipped, 0, skipped.length, false),
    ).toThrow(HeaderListTooLargeError);
    expect(
      new HpackDecoder(DECODER_TABLE_SIZE, 42 + 40 * 38).decode(skipped, 0, skipped.length, false).status,
    ).toBe(200);
  });

  it('encodes a request block any decoder reads back, pseudo-headers first', () => {
    const block = encodeRequestBlock([
      ['user-agent', 'Trebuchet/1'],
      [':method', 'GET'],
      [':path', '/test.html'],
      [':scheme', 'https'],
      [':authority', '127.0.0.1:8443'],
      ['x-custom', 'v'],
    ]);
    // Walk it as literals without indexing: (name index | literal name) + raw value.
    const fields: [string | number, string][] = [];
    let p = 0;
    const str = () => {
      const len = block[p++]!;
      const s = block.toString('latin1', p, p + len);
      p += len;
      return s;
    };
    while (p < block.length) {
      const b = block[p++]!;
      let name: string | number = b & 0x0f;
      if (name === 0x0f) name = 15 + block[p++]!;
      if (name === 0) name = str();
      fields.push([name, str()]);
    }
    expect(fields).toEqual([
      [2, 'GET'],
      [4, '/test.html'],
      [6, 'https'],
      [1, '127.0.0.1:8443'],
      [58, 'Trebuchet/1'],
      ['x-custom', 'v'],
    ]);
  });
});
