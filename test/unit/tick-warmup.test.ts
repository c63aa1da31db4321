import { describe, expect, it } from 'vitest';
import { Recorder } from '../../electron/engine/recording/recorder.ts';
import { warmCoordinatorTick, warmShardTick } from '../../electron/engine/shards/tick-warmup.ts';

describe("the tick path's warm-up", () => {
  it("closes busy windows on the shard's side and touches no run's recorder", () => {
    const run = new Recorder({ sloMs: null, warmup: false, now: 0 });
    run.response(200, 1500, 5, 200);
    const windows = warmShardTick();
    // One window per ask site: a send's start, a late send and the lateness take the ask before
    // they count; an answer and a failure after (their request is in the window they close).
    expect(windows.map((w) => w.window.requests)).toEqual([3000, 3001, 3001, 3000, 3000]);
    // Latencies from 50 us to 20 ms: many buckets, as a busy second fills.
    expect(windows[0]!.latency.buckets().counts.length).toBeGreaterThan(100);
    const window = run.takeWindow(0);
    expect([window.requests, window.latency.counts]).toEqual([1, [1]]);
  });

  it("runs windows the slots' reader accepts through the coordinator's side", () => {
    // A slot the reader refuses (its check of every count) throws.
    expect(() => warmCoordinatorTick()).not.toThrow();
  });
});
