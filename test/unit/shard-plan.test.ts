import { describe, expect, it } from 'vitest';
import { loadSchema, runOptionsSchema, type Load } from '../../shared/scenario.ts';
import {
  evenShares,
  requestedWorkers,
  splitLoad,
  usableWorkers,
  type Shard,
} from '../../shared/shard-plan.ts';
import { describeIssues, parseWith } from '../../shared/validation.ts';

const closed = (over: object = {}): Load => loadSchema.parse({ model: 'closed', ...over });
const open = (over: object = {}): Load => loadSchema.parse({ model: 'open', ...over });

/**
 * The send times (ms after the common start) of a shard's schedule, as the load drivers
 * compute it: request j at offset + j / rate, every one due before the duration's end.
 */
function sendTimes(shard: Shard, durationMs: number): number[] {
  const rate = shard.load.rate!;
  const interval = 1000 / rate;
  const total = Math.ceil((durationMs - shard.offsetMs) / interval - 1e-9);
  return Array.from({ length: total }, (_, j) => shard.offsetMs + j * interval);
}

describe('worker count', () => {
  it("'auto' leaves a core to a server on the same machine, and is at least 1", () => {
    expect(requestedWorkers('auto', { cores: 2, sameMachine: true })).toBe(1);
    expect(requestedWorkers('auto', { cores: 8, sameMachine: true })).toBe(7);
    expect(requestedWorkers('auto', { cores: 8, sameMachine: false })).toBe(8);
    expect(requestedWorkers('auto', { cores: 1, sameMachine: true })).toBe(1);
    expect(requestedWorkers(3, { cores: 1, sameMachine: true })).toBe(3);
  });

  it('never leaves a shard without connections, slots, requests or 1 req/s', () => {
    expect(usableWorkers(closed({ connections: 2 }), 4)).toBe(2);
    expect(usableWorkers(closed({ connections: 10, limit: { kind: 'requests', count: 3 } }), 8)).toBe(3);
    expect(usableWorkers(open({ rate: 1000, maxInFlight: 2 }), 4)).toBe(2);
    expect(usableWorkers(open({ rate: 1.5 }), 4)).toBe(1);
    expect(usableWorkers(closed({ connections: 100, rate: 3 }), 4)).toBe(3);
    expect(usableWorkers(closed({ connections: 100 }), 4)).toBe(4);
  });

  it('runs a staged load in one worker, its stage rows whole', () => {
    const stages = [
      { durationSeconds: 2, target: 200 },
      { durationSeconds: 2, target: 200 },
    ];
    expect(usableWorkers(open({ rate: 200, stages }), 4)).toBe(1);
    expect(usableWorkers(closed({ connections: 100, stages }), 4)).toBe(1);
    expect(splitLoad(open({ rate: 200, stages }), 4)).toHaveLength(1);
  });

  it('is a scenario option: auto by default, a whole number from 1 to 256', () => {
    expect(runOptionsSchema.parse({}).workers).toBe('auto');
    expect(runOptionsSchema.parse({ workers: 4 }).workers).toBe(4);
    for (const bad of [0, 2.5, 257, 'many']) {
      const r = parseWith(runOptionsSchema, { workers: bad });
      expect(r.ok).toBe(false);
      if (!r.ok) expect(describeIssues(r.issues)).toMatch(/^workers: workers must be/);
    }
  });
});

describe('splitting a load into shards', () => {
  it('splits connections as evenly as they go, larger shares first', () => {
    expect(evenShares(10, 3)).toEqual([4, 3, 3]);
    const shards = splitLoad(closed({ connections: 10 }), 3);
    expect(shards.map((s) => s.load.model === 'closed' && s.load.connections)).toEqual([4, 3, 3]);
    expect(shards.map((s) => [s.index, s.count, s.offsetMs])).toEqual([
      [0, 3, 0],
      [1, 3, 0],
      [2, 3, 0],
    ]);
    // A duration is every shard's: each runs for the whole of it.
    for (const s of shards)
      expect(s.load.model === 'closed' && s.load.limit).toEqual({ kind: 'duration', seconds: 10 });
  });

  it('splits a request count exactly: -n 1000 -t 3 sends 1000', () => {
    const shards = splitLoad(closed({ connections: 10, limit: { kind: 'requests', count: 1000 } }), 3);
    const counts = shards.map((s) =>
      s.load.model === 'closed' && s.load.limit.kind === 'requests' ? s.load.limit.count : 0,
    );
    expect(counts).toEqual([334, 333, 333]);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(1000);
  });

  it('keeps one worker the load as it is', () => {
    const load = open({ rate: 20_000, maxInFlight: 500 });
    expect(splitLoad(load, 1)).toEqual([{ index: 0, count: 1, offsetMs: 0, load }]);
  });

  it('interleaves the shards of a rate so the merged sends are the one-worker schedule', () => {
    for (const [rate, workers, durationMs] of [
      [1000, 2, 2000],
      [1000, 3, 1000],
      [333, 4, 1500],
      [7, 2, 1000],
    ] as const) {
      const shards = splitLoad(open({ rate, maxInFlight: 100, durationSeconds: durationMs / 1000 }), workers);
      expect(shards).toHaveLength(workers);
      expect(shards.reduce((a, s) => a + s.load.rate!, 0)).toBeCloseTo(rate, 9);
      const merged = shards.flatMap((s) => sendTimes(s, durationMs)).sort((a, b) => a - b);
      const interval = 1000 / rate;
      // As many as one worker sends, each at its own time: gaps all equal to the interval.
      expect(merged).toHaveLength(Math.ceil((durationMs * rate) / 1000 - 1e-9));
      merged.forEach((t, i) => expect(t).toBeCloseTo(i * interval, 6));
    }
  });

  it('splits the in-flight cap of an open load and the rate cap of a closed one', () => {
    const o = splitLoad(open({ rate: 900, maxInFlight: 1001 }), 2);
    expect(o.map((s) => s.load.model === 'open' && [s.load.rate, s.load.maxInFlight, s.offsetMs])).toEqual([
      [450, 501, 0],
      [450, 500, 1000 / 900],
    ]);
    const c = splitLoad(closed({ connections: 4, rate: 100 }), 2);
    expect(c.map((s) => [s.load.rate, s.offsetMs])).toEqual([
      [50, 0],
      [50, 10],
    ]);
  });

  it('gives shards that are valid loads of their own', () => {
    for (const s of splitLoad(
      closed({ connections: 7, limit: { kind: 'requests', count: 5 }, rate: 2.5 }),
      8,
    )) {
      expect(loadSchema.safeParse(s.load).success).toBe(true);
    }
  });
});
