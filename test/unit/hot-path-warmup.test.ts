import { describe, expect, it } from 'vitest';
import { Recorder } from '../../electron/engine/recording/recorder.ts';
import { warmResponsePath } from '../../electron/engine/native/hot-path-warmup.ts';

describe("the open model's answer-path warm-up", () => {
  it("frames the answers of the schedule's cold first stretch, and books each into its own recorder", () => {
    const run = new Recorder({ sloMs: null, warmup: false, now: 0 });
    run.response(200, 1500, 5, 200);
    // The parser refusing any of its reads throws; each answer it frames is one the recorder counts.
    const { parsed, recorded } = warmResponsePath(20_000, 5000);
    expect(parsed).toBeGreaterThanOrEqual(5000);
    expect(recorded).toBe(parsed);
    // A slow schedule warms (almost) nothing: its answers never queue behind cold code.
    expect(warmResponsePath(10, 5000).parsed).toBeLessThan(20);
    // A run's recorder is not touched.
    expect(run.totals.total).toBe(1);
  });
});
