import { afterEach, describe, expect, it, vi } from 'vitest';
import { Recorder } from '../../electron/engine/recording/recorder.ts';
import { unsettledReport } from '../../electron/engine/recording/recorder-report.ts';
import { newWindowSlots, SlotSender } from '../../electron/engine/recording/window-slots.ts';
import { toEpoch } from '../../electron/engine/shards/messages.ts';
import { SlotPoll } from '../../electron/engine/shards/slot-poll.ts';
import { WindowPool } from '../../electron/engine/recording/held-window.ts';
import { SlotReader } from '../../electron/engine/shards/slot-reader.ts';
import { emptyOutcome } from '../../electron/engine/types.ts';
import { oneTarget, runSpecFixture } from '../helpers/engine.ts';

/*
 * When a thread shard's link looks for its handed-over slots (shards/slot-poll.ts): on the
 * shard's grid, a moment after each tick, again while none is there, never for the slot
 * handed with the report; the sending thread says nothing at its ticks.
 */

afterEach(() => {
  vi.useRealTimers();
});

describe("a thread shard's slots looked for on its grid", () => {
  it('are read a moment after each tick, or after a late hand-over, and the last is left to the report', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const spec = runSpecFixture(oneTarget('http://127.0.0.1:9/', { options: { sampleIntervalMs: 1000 } }));
    const buffer = newWindowSlots();
    const recorder = new Recorder({ sloMs: null, warmup: false, now: 0 });
    const sender = new SlotSender(buffer, recorder);
    const reader = new SlotReader(buffer, { warmup: false });
    const pool = new WindowPool();
    const read: { index: number; requests: number; at: number }[] = [];
    const poll = new SlotPoll(reader, spec, (slot) => {
      const m = reader.take({ type: 'slot', slot }, pool);
      if (typeof m === 'string') throw new Error(m);
      read.push({ index: m.index, requests: m.window.window.requests, at: performance.now() });
    });
    const t0 = performance.now();
    poll.start(toEpoch(t0));
    const handOver = (index: number, last = false) => {
      recorder.response(200, 1000, 5, 100);
      const at = toEpoch(performance.now());
      return sender.handOver(recorder, { index, at, endsWarmup: false, cpuPercent: 0 }, last);
    };
    const readAt = () => read.map((r) => [r.index, r.requests, r.at - t0]);
    // Tick 1 handed over on time: read 5 ms after it.
    await vi.advanceTimersByTimeAsync(1000);
    handOver(1);
    await vi.advanceTimersByTimeAsync(4);
    expect(read).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(readAt()).toEqual([[1, 1, 1005]]);
    // Tick 2 handed over 30 ms late: the looks 20 ms apart find it 45 ms after the tick.
    await vi.advanceTimersByTimeAsync(995 + 30);
    handOver(2);
    await vi.advanceTimersByTimeAsync(20);
    expect(readAt()).toEqual([
      [1, 1, 1005],
      [2, 1, 2045],
    ]);
    // Tick 3 never handed over (the sending thread kept the window on): six looks, then only
    // the clock's next tick is armed.
    await vi.advanceTimersByTimeAsync(955 + 5 + 5 * 20);
    expect(vi.getTimerCount()).toBe(1);
    expect(read).toHaveLength(2);
    // The slot handed with the report is not taken by a look: the report's message names it.
    const last = handOver(4, true);
    expect(poll.poll()).toBe(false);
    const report = reader.take(
      {
        type: 'slot-report',
        slot: last,
        report: unsettledReport(recorder, emptyOutcome()),
        failure: null,
        startedAt: toEpoch(t0),
      },
      pool,
    );
    expect(typeof report === 'string' ? report : report.window.window.requests).toBe(1);
    poll.stop();
    expect(vi.getTimerCount()).toBe(0);
  });
});
