import { describe, expect, it } from 'vitest';
import {
  decodeResponseBlock,
  encodeRequestBlock,
  HpackError,
  huffmanDecode,
} from '../../electron/engine/native/hpack.ts';

const hex = (s: string): Buffer => Buffer.from(s.replace(/\s+/g, ''), 'hex');

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
  });

  it('reads :status from the RFC 7541 C.6.1 response (literal, Huffman-coded, incrementally indexed)', () => {
    const block = hex(`
      4882 6402 5885 aec3 771a 4b61 96d0 7abe 9410 54d4 44a8 2005 9504 0b81 66e0 82a6
      2d1b ff6e 919d 29ad 1718 63c7 8f0b 97c8 e9ae 82ae 43d3`);
    expect(decodeResponseBlock(block, 0, block.length, true)).toEqual({ status: 302, server: null });
  });

  it('reads a static :status and a Server value, raw or Huffman-coded', () => {
    // Indexed :status 200 (static 8); server (static name 54) raw "nginx".
    const raw = Buffer.concat([Buffer.from([0x88, 0x0f, 54 - 15, 5]), Buffer.from('nginx')]);
    expect(decodeResponseBlock(raw, 0, raw.length, true)).toEqual({ status: 200, server: 'nginx' });
    // :status 404 (static 13), server Huffman "nginx" as nginx sends it.
    const huff = Buffer.concat([Buffer.from([0x8d, 0x0f, 54 - 15, 0x84]), hex('aa63 55e7')]);
    expect(decodeResponseBlock(huff, 0, huff.length, true)).toEqual({ status: 404, server: 'nginx' });
    expect(decodeResponseBlock(huff, 0, huff.length, false)).toEqual({ status: 404, server: null });
  });

  it('accepts a dynamic table size update to 0 and refuses any use of a dynamic table', () => {
    const sizeZero = Buffer.from([0x20, 0x88]);
    expect(decodeResponseBlock(sizeZero, 0, 2, false).status).toBe(200);
    expect(() => decodeResponseBlock(Buffer.from([0x3f, 0xe1, 0x1f]), 0, 3, false)).toThrow(HpackError);
    // RFC 7541 C.6.2 refers to entries of the dynamic table (index 62 and up).
    const second = hex('4883 640e ffc1 c0bf');
    expect(() => decodeResponseBlock(second, 0, second.length, false)).toThrow(/dynamic table/);
  });

  it('encodes a request block any decoder reads back, pseudo-headers first', () => {
    const block = encodeRequestBlock({
      'user-agent': 'Trebuchet/1',
      ':method': 'GET',
      ':path': '/test.html',
      ':scheme': 'https',
      ':authority': '127.0.0.1:8443',
      'x-custom': 'v',
    });
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
