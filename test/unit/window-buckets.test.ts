import { describe, expect, it } from 'vitest';
import { ValueRecorder } from '../../electron/engine/recording/histogram.ts';
import { Recorder } from '../../electron/engine/recording/recorder.ts';
import { addSamples } from '../../shared/shards/combine.ts';
import {
  addWindowBuckets,
  bucketOf,
  WINDOW_BUCKET_BOUNDS_MS,
  WINDOW_BUCKETS,
} from '../../shared/figures/window-buckets.ts';
import { sampleFixture } from '../helpers/run-result.ts';

/** The bucket of a value in ms by a plain scan: the first bound it does not pass. */
const scan = (ms: number): number => {
  const k = WINDOW_BUCKET_BOUNDS_MS.findIndex((b) => ms <= b);
  return k < 0 ? WINDOW_BUCKET_BOUNDS_MS.length : k;
};

describe("a sample's fixed buckets", () => {
  it('are ascending bounds from 50 us to 60 s, each at most 1.67 times the one before (twice from 30 s to 60 s)', () => {
    const b = WINDOW_BUCKET_BOUNDS_MS;
    expect([b[0], b.at(-1)]).toEqual([0.05, 60_000]);
    for (let k = 1; k < b.length; k++) {
      expect(b[k]!).toBeGreaterThan(b[k - 1]!);
      expect(b[k]! / b[k - 1]!).toBeLessThanOrEqual(b[k]! === 60_000 ? 2 : 5 / 3 + 1e-9);
    }
    expect(WINDOW_BUCKETS).toBe(b.length + 1);
  });

  it('put a value in the first bucket whose bound it does not pass (a bound itself included), past the last in one more', () => {
    for (const ms of [0, 0.05, 0.0501, 0.7, 1, 1.0001, 2.9, 3, 59_999, 60_000, 60_001, 1e9]) {
      expect(bucketOf(ms), String(ms)).toBe(scan(ms));
    }
    expect(bucketOf(60_001)).toBe(WINDOW_BUCKETS - 1);
  });

  it("are what the engine recorded: each value in its bucket (to hdr's 0.1 %), the sum as the mean counts it", () => {
    const r = new ValueRecorder();
    // Whole microseconds below 2048 are exact in hdr; above they share buckets of 0.1 %.
    const values = [1, 49, 50, 51, 70, 71, 999, 1000, 1001, 1500, 2047, 3000, 12_345, 700_000, 90_000_000];
    for (const us of values) r.record(us);
    const summary = r.summary([50])!;
    const b = summary.buckets;
    const expected = new Array<number>(WINDOW_BUCKETS).fill(0);
    for (const us of values) expected[scan(us / 1000)]!++;
    while (expected.at(-1) === 0) expected.pop();
    expect(b.counts).toEqual(expected);
    expect(b.sumMs).toBeCloseTo((summary.mean * summary.count) / 1000, 9);
  });

  it("ride on every sample the recorder makes, and a folded last window carries both windows'", () => {
    const r = new Recorder({ sloMs: null, warmup: false, now: 0 });
    for (const us of [500, 1500, 40_000]) r.response(200, us, 0, 10);
    const first = r.tick(1000);
    expect(first.latencyBuckets!.counts.reduce((a, c) => a + c, 0)).toBe(3);
    r.response(200, 800, 0, 10);
    r.response(200, 800, 0, 10);
    const second = r.tick(2000);
    r.response(200, 20_000, 0, 10);
    // 100 ms after the tick: under half a window, folded into the one before under its seq.
    const last = r.tick(2100, undefined, true);
    expect(last.seq).toBe(second.seq);
    expect(last.latencyBuckets!.counts.reduce((a, c) => a + c, 0)).toBe(3);
    expect(last.latencyBuckets!.counts[bucketOf(20)]).toBe(1);
    expect(last.latencyBuckets!.counts[bucketOf(0.8)]).toBe(2);
    // No response in a window: no buckets.
    expect(r.tick(3100).latencyBuckets).toBeUndefined();
  });

  it("add up, bucket by bucket, over the shards' samples of one window", () => {
    expect(
      addWindowBuckets([{ counts: [1, 2], sumMs: 3 }, undefined, { counts: [0, 0, 4], sumMs: 5 }]),
    ).toEqual({
      counts: [1, 2, 4],
      sumMs: 8,
    });
    expect(addWindowBuckets([undefined])).toBeNull();
    const merged = addSamples(
      [
        sampleFixture({
          latencyBuckets: { counts: [0, 5], sumMs: 1 },
          sendLatenessBuckets: { counts: [2], sumMs: 0 },
        }),
        sampleFixture({ latencyBuckets: { counts: [1, 1, 1], sumMs: 2 } }),
      ],
      3,
      4,
      0,
    );
    expect(merged.latencyBuckets).toEqual({ counts: [1, 6, 1], sumMs: 3 });
    expect(merged.sendLatenessBuckets).toEqual({ counts: [2], sumMs: 0 });
  });
});
