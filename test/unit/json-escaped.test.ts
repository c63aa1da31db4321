import { describe, expect, it } from 'vitest';
import { ImportQueue, IMPORTS_WAITING } from '../../electron/host/import-route.ts';
import { EscapedBytes } from '../../electron/stores/json/escaped.ts';

/** The bytes EscapedBytes gives for a JSON string's inside, fed in pieces cut at `cuts`. */
function decode(inside: string, cuts: number[]): Buffer {
  const parts: Buffer[] = [];
  const e = new EscapedBytes((b) => parts.push(Buffer.from(b)));
  const raw = Buffer.from(inside, 'utf8');
  let from = 0;
  for (const cut of [...cuts, raw.length]) {
    e.write(raw.subarray(from, cut));
    from = cut;
  }
  e.end();
  return Buffer.concat(parts);
}

describe('a JSON string decoded as it arrives', () => {
  const text = 'a "quoted" \\ / path\n\tline\r\b\f é 😀 \u0001 end';
  const inside = JSON.stringify(text).slice(1, -1).replace('/', '\\/').replace('é', '\\u00e9').replace('😀', '\\ud83d\\ude00');

  it('gives the bytes JSON.parse gives, whole or cut at any byte', () => {
    const expected = Buffer.from(text, 'utf8');
    expect(decode(inside, []).equals(expected)).toBe(true);
    for (let cut = 0; cut <= Buffer.byteLength(inside); cut++) {
      expect(decode(inside, [cut]).toString('utf8'), `cut at ${cut}`).toBe(text);
    }
    // Cut at every byte: each escape arrives a byte at a time.
    const every = Array.from({ length: Buffer.byteLength(inside) }, (_, i) => i);
    expect(decode(inside, every).equals(expected)).toBe(true);
  });

  it('turns a lone surrogate into U+FFFD as JSON.parse does into UTF-8', () => {
    for (const lone of ['\\ud83d', '\\ud83dx', 'x\\ude00', '\\ud83d\\ud83d\\ude00']) {
      const expected = Buffer.from(JSON.parse(`"${lone}"`) as string, 'utf8');
      expect(decode(lone, []).equals(expected), lone).toBe(true);
      expect(decode(lone, [3]).equals(expected), `${lone} cut`).toBe(true);
    }
  });

  it('refuses an escape that is not JSON or is left half-way', () => {
    expect(() => decode('\\x', [])).toThrow();
    expect(() => decode('\\u12g4', [])).toThrow();
    expect(() => decode('ab\\u12', [])).toThrow();
    expect(() => decode('ab\\', [])).toThrow();
  });
});

describe('imports queued', () => {
  it('runs one at a time in arrival order, keeps IMPORTS_WAITING waiting and turns the next away', async () => {
    const queue = new ImportQueue();
    const order: number[] = [];
    let running = 0;
    let most = 0;
    const releases: (() => void)[] = [];
    const turns = Array.from({ length: IMPORTS_WAITING + 2 }, (_, i) =>
      queue.run(async () => {
        running++;
        most = Math.max(most, running);
        order.push(i);
        await new Promise<void>((resolve) => releases.push(resolve));
        running--;
        return i;
      }),
    );
    expect(turns.filter((t) => t === null)).toHaveLength(1);
    expect(turns[IMPORTS_WAITING + 1]).toBeNull();
    for (let i = 0; i <= IMPORTS_WAITING; i++) {
      await new Promise((resolve) => setImmediate(resolve));
      expect(releases).toHaveLength(i + 1);
      releases[i]!();
      await expect(turns[i]).resolves.toBe(i);
    }
    expect(order).toEqual(Array.from({ length: IMPORTS_WAITING + 1 }, (_, i) => i));
    expect(most).toBe(1);
    // Room again once they are done; a failed one does not stop the next.
    await expect(queue.run(() => Promise.reject(new Error('bad file')))).rejects.toThrow('bad file');
    await expect(queue.run(() => Promise.resolve('next'))).resolves.toBe('next');
  });
});
