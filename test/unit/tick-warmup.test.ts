import { describe, expect, it } from 'vitest';
import { Recorder } from '../../electron/engine/recorder.ts';
import { warmTickPath } from '../../electron/engine/shards/tick-warmup.ts';

describe("the tick path's warm-up", () => {
  it("runs windows the shards' schema accepts through the tick's path, and touches no run's recorder", () => {
    const run = new Recorder({ sloMs: null, warmup: false, now: 0 });
    run.response(200, 1500, 5, 200);
    // It parses its windows strictly (fromShardSchema.parse): a window the schema refuses throws.
    expect(() => warmTickPath()).not.toThrow();
    const window = run.takeWindow(0);
    expect([window.requests, window.latency.counts]).toEqual([1, [1]]);
  });
});
