/** The bytes and words of JSON's text the streaming parser (stream.ts) reads: quotes, numbers, true/false/null. */
import { notJson } from './shapes.ts';

export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
export const NUMBER_BYTE = new Uint8Array(256);
for (const c of '-+.eE0123456789') NUMBER_BYTE[c.charCodeAt(0)] = 1;
const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
/** 10^0 to 10^22: every one exact in a double. */
export const POWERS_OF_TEN = Array.from({ length: 23 }, (_, k) => 10 ** k);

/** The quote that closes a string from i, after `before` backslashes carried from the chunk before; -1 when none. */
export function closingQuote(chunk: Buffer, i: number, before: number): number {
  let q = chunk.indexOf(QUOTE, i);
  while (q >= 0) {
    let slashes = 0;
    for (let j = q - 1; j >= i && chunk[j] === BACKSLASH; j--) slashes++;
    if (slashes === q - i) slashes += before;
    if (slashes % 2 === 0) return q;
    q = chunk.indexOf(QUOTE, q + 1);
  }
  return -1;
}

/** A string's bytes between its quotes, escapes and all, as JSON.parse reads them. */
export function unescaped(raw: Buffer): string {
  try {
    return JSON.parse(`"${raw.toString('utf8')}"`) as string;
  } catch {
    throw notJson();
  }
}

export function numberOf(text: string): number {
  if (!NUMBER.test(text)) throw notJson();
  return Number(text);
}

export function wordOf(text: string): boolean | null {
  if (text === 'true') return true;
  if (text === 'false') return false;
  if (text === 'null') return null;
  throw notJson();
}

export function isLetter(c: number): boolean {
  return c >= 0x61 && c <= 0x7a;
}
