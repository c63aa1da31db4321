import { describe, expect, it } from 'vitest';
import { FewMap } from '../../electron/engine/native/http2/few-map.ts';

describe('FewMap (a Map for one entry at a time)', () => {
  it('holds entries as a Map does, in insertion order, through one entry and many', () => {
    const m = new FewMap<number, string>();
    const reference = new Map<number, string>();
    const both = (op: (x: Map<number, string> | FewMap<number, string>) => unknown) => {
      expect(op(m)).toEqual(op(reference));
    };
    // Alone, joined by others, the first deleted while others remain, emptied, alone again.
    const steps: [string, number, string?][] = [
      ['set', 1, 'a'],
      ['set', 1, 'a2'],
      ['set', 3, 'b'],
      ['set', 5, 'c'],
      ['delete', 1],
      ['set', 7, 'd'],
      ['set', 1, 'e'],
      ['delete', 9],
      ['delete', 3],
      ['delete', 5],
      ['delete', 7],
      ['delete', 1],
      ['set', 11, 'f'],
      ['set', 13, 'g'],
    ];
    for (const [op, k, v] of steps) {
      if (op === 'set') {
        m.set(k, v!);
        reference.set(k, v!);
      } else {
        both((x) => x.delete(k));
      }
      both((x) => x.size);
      both((x) => [...x.entries()]);
      both((x) => [...x.keys()]);
      both((x) => [...x.values()]);
      for (const key of [1, 3, 5, 7, 11, 13, 15]) {
        both((x) => x.get(key));
        both((x) => x.has(key));
      }
    }
    m.clear();
    expect(m.size).toBe(0);
    expect([...m]).toEqual([]);
  });

  it('skips an entry deleted during iteration and visits one added to its Map meanwhile', () => {
    const m = new FewMap<string, number>();
    m.set('first', 1);
    m.set('second', 2);
    m.set('third', 3);
    const seen: string[] = [];
    for (const [k] of m) {
      seen.push(k);
      if (k === 'first') {
        m.delete('first');
        m.delete('second');
        m.set('fourth', 4);
      }
    }
    expect(seen).toEqual(['first', 'third', 'fourth']);
    expect([...m.keys()]).toEqual(['third', 'fourth']);
  });
});
