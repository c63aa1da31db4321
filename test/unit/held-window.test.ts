import { describe, expect, it } from 'vitest';
import type { ShardWindow } from '../../shared/model/shard-facts.ts';
import { mergeBuckets } from '../../shared/shards/merge.ts';
import { addHeld, heldFrom, WindowPool, wireOf } from '../../electron/engine/recording/held-window.ts';
import { Recorder } from '../../electron/engine/recording/recorder.ts';
import { EMPTY_BUCKETS } from '../helpers/buckets.ts';

/*
 * The coordinator's windows (recording/held-window.ts): a window read in from a message is the
 * message's again when written out; windows added are the sum of their counts and the exact
 * merge of their buckets; the pool hands a window back emptied, its arrays kept.
 */

const window = (over: Partial<ShardWindow>): ShardWindow => ({
  requests: 0,
  bytesIn: 0,
  statusCodes: {},
  errors: {},
  late: 0,
  inFlight: 0,
  cpuPercent: 0,
  latency: EMPTY_BUCKETS,
  lateness: EMPTY_BUCKETS,
  ...over,
});

const A = window({
  requests: 10,
  bytesIn: 100,
  statusCodes: { 200: 9, 404: 1 },
  errors: { reset: 2 },
  late: 1,
  inFlight: 3,
  cpuPercent: 60,
  latency: { indexes: [1, 5, 900], counts: [2, 1, 4], minNonZero: 1, max: 905 },
  lateness: { indexes: [0, 3], counts: [9, 1], minNonZero: 3, max: 3 },
  connections: 3,
});
const B = window({
  requests: 5,
  bytesIn: 50,
  statusCodes: { 200: 5 },
  errors: { reset: 1, timeout: 4 },
  inFlight: 2,
  cpuPercent: 35.5,
  latency: { indexes: [0, 5, 2000], counts: [3, 6, 1], minNonZero: 5, max: 2010 },
});

describe("the coordinator's held windows", () => {
  it('read a message window in and write the same one out', () => {
    const pool = new WindowPool();
    expect(wireOf(heldFrom(pool.take(), A))).toEqual(A);
    expect(wireOf(heldFrom(pool.take(), B))).toEqual(B);
    expect(wireOf(pool.take())).toEqual(window({}));
  });

  it("add the shards' windows of a place: counts summed, buckets merged exactly", () => {
    const pool = new WindowPool();
    const into = pool.take();
    addHeld(into, heldFrom(pool.take(), A));
    addHeld(into, heldFrom(pool.take(), B));
    const m = wireOf(into);
    expect(m).toMatchObject({
      requests: 15,
      bytesIn: 150,
      statusCodes: { 200: 14, 404: 1 },
      errors: { reset: 3, timeout: 4 },
      late: 1,
    });
    expect(m.latency).toEqual(mergeBuckets([A.latency, B.latency]));
    expect(m.lateness).toEqual(mergeBuckets([A.lateness, B.lateness]));
    // In flight, CPU and connections are each shard's latest state: the coordinator's to say, not added here.
    expect([m.inFlight, m.cpuPercent, m.connections]).toEqual([0, 0, undefined]);
  });

  it('go back to the pool emptied and come out again with their arrays', () => {
    const pool = new WindowPool();
    const h = heldFrom(pool.take(), A);
    const latency = h.latency;
    pool.give(h);
    const again = pool.take();
    expect(again).toBe(h);
    expect(again.latency).toBe(latency);
    expect(wireOf(again)).toEqual(window({}));
  });

  it("make the run's Sample the same as the recorder that saw the requests itself", () => {
    const pool = new WindowPool();
    const direct = new Recorder({ sloMs: null, warmup: false, now: 0 });
    const shard = new Recorder({ sloMs: null, warmup: false, now: 0 });
    for (const r of [direct, shard]) {
      for (let i = 0; i < 300; i++) {
        r.started();
        r.sentLate(i % 7);
        r.response(i % 30 === 0 ? 503 : 200, 100 + i * i, 5, 100);
        r.inFlight--;
      }
      r.error('reset', 'gone');
    }
    const coordinator = new Recorder({ sloMs: null, warmup: false, now: 0 });
    const held = heldFrom(pool.take(), shard.takeWindow(0));
    coordinator.addWindow(held);
    expect(coordinator.tick(1000, 0)).toEqual(direct.tick(1000, 0));
  });
});
