/* The Huffman code of HPACK (RFC 7541 appendix B): decoding a string's octets, and its coded length. */

/**
 * Code lengths of the 257 Huffman symbols (octets 0-255, then EOS) of RFC 7541 appendix B,
 * one base-32 digit each. The code is canonical (codes follow the order of length, then
 * symbol), so the lengths alone define it.
 */
const HUFFMAN_LENGTHS =
  'DNSSSSSSSOUSSUSSSSSSSSUSSSSSSSSS6AACD68BAA8B8666555666666678F6CAD67777777777777777777777878DJDE6F5656566657766656765567' +
  '7777FBEDSKMKKMMMNMNNNNNONOOMNONNNNLMNMNNOMLKMMNNLNMMOLMNNLLMLNMNNKMMMNMMNQQKJMNMPQQQRRQOPJLQRRQROLLQQSRRRKOKLMLLNMMPPOOQ' +
  'NQRQQRRRRRSRRRRRQU';

const EOS = 256;

/** The code length of each symbol, in bits. */
const LENGTHS = [...HUFFMAN_LENGTHS].map((c) => parseInt(c, 32));

/**
 * The Huffman code as a state machine read 4 bits at a time (as nghttp2 does). A state is a
 * node inside the code tree (256 of them, the root 0). Each of a state's 16 transitions packs
 * the next state (bits 0-7), whether a symbol was completed (bit 8; at most one per 4 bits,
 * the shortest code being 5 bits), that symbol (bits 9-16), and whether the bits spell EOS,
 * which a string must not contain (bit 17). A string may end only in a state reached by
 * fewer than 8 bits, all ones, since its last symbol: padding, a prefix of EOS (`accept`).
 * Built on first decode: an HTTP/1.1 run never needs it (it costs tens of ms of a run's start-up).
 */
function buildCode() {
  const lengths = LENGTHS;
  const bySize = lengths.map((_, sym) => sym).sort((a, b) => lengths[a]! - lengths[b]! || a - b);
  // The tree: per internal node, its two children: another internal node (< 256) or 256 + symbol.
  const next: [number, number][] = [[-1, -1]];
  const depth = [0];
  const ones = [true];
  let code = 0;
  bySize.forEach((sym, i) => {
    const len = lengths[sym]!;
    if (i > 0) code = (code + 1) << (len - lengths[bySize[i - 1]!]!);
    let node = 0;
    for (let bit = len - 1; bit > 0; bit--) {
      const b = (code >> bit) & 1;
      if (next[node]![b] === -1) {
        next[node]![b] = next.length;
        next.push([-1, -1]);
        depth.push(depth[node]! + 1);
        ones.push(ones[node]! && b === 1);
      }
      node = next[node]![b]!;
    }
    next[node]![code & 1] = 256 + sym;
  });
  const step = new Int32Array(next.length * 16);
  for (let state = 0; state < next.length; state++) {
    for (let nibble = 0; nibble < 16; nibble++) {
      let node = state;
      let out = 0;
      for (let bit = 3; bit >= 0; bit--) {
        const child = next[node]![(nibble >> bit) & 1]!;
        if (child < 256) {
          node = child;
          continue;
        }
        out = child - 256 === EOS ? 1 << 17 : 0x100 | ((child - 256) << 9);
        node = 0;
      }
      step[state * 16 + nibble] = node | out;
    }
  }
  const accept = Uint8Array.from(ones, (allOnes, state) => Number(allOnes && depth[state]! < 8));
  return { step, accept };
}

let huffman: ReturnType<typeof buildCode> | null = null;
const code = () => (huffman ??= buildCode());

/** Octets a text takes Huffman-coded. */
export const huffmanOctets = (text: string): number =>
  Math.ceil([...Buffer.from(text, 'latin1')].reduce((bits, byte) => bits + LENGTHS[byte]!, 0) / 8);

const SYMBOL = 0x100;
const INVALID = 1 << 17;
/** Where Huffman-decoded octets go before they become a string (grown when a string needs more). */
let scratch = Buffer.allocUnsafe(512);

/** Decodes Huffman-coded octets into `scratch`; returns how many, or -1 when the coding is invalid. */
function huffmanInto(buf: Uint8Array, from: number, to: number): number {
  const { step, accept } = code();
  // The shortest code is 5 bits: at most 8 / 5 symbols per octet.
  const most = Math.ceil(((to - from) * 8) / 5);
  if (most > scratch.length) scratch = Buffer.allocUnsafe(most);
  const out = scratch;
  let state = 0;
  let n = 0;
  for (let i = from; i < to; i++) {
    const byte = buf[i]!;
    let t = step[(state << 4) | (byte >> 4)]!;
    if (t & INVALID) return -1;
    if (t & SYMBOL) out[n++] = t >> 9;
    t = step[((t & 0xff) << 4) | (byte & 15)]!;
    if (t & INVALID) return -1;
    if (t & SYMBOL) out[n++] = t >> 9;
    state = t & 0xff;
  }
  return accept[state] === 1 ? n : -1;
}

/** Decodes a Huffman-coded string (RFC 7541 section 5.2); null when the coding is invalid. */
export function huffmanDecode(buf: Uint8Array, from: number, to: number): string | null {
  const n = huffmanInto(buf, from, to);
  return n < 0 ? null : scratch.toString('latin1', 0, n);
}
