import { describe, expect, it } from 'vitest';
import { linuxThreadId, threadCpuNs } from '../../electron/engine/cpu.ts';
import { WindowPool } from '../../electron/engine/recording/held-window.ts';
import { Recorder } from '../../electron/engine/recording/recorder.ts';
import {
  CPU_READ_BY_READER,
  newWindowSlots,
  SlotSender,
  threadWord,
} from '../../electron/engine/recording/window-slots.ts';
import { ReaderCpu } from '../../electron/engine/shards/reader-cpu.ts';
import { SlotReader } from '../../electron/engine/shards/slot-reader.ts';

/*
 * A worker thread shard's CPU read by its link (shards/reader-cpu.ts): at each ask, so the
 * sending thread reads none at a hand-over; a window's figure runs from the reading at its
 * start to the one at its close, its last one's close the thread's own reading.
 */

/** A thread whose CPU time (ns) the test sets. */
function fakeThread() {
  const buffer = newWindowSlots();
  const clock = { ns: 0 };
  Atomics.store(threadWord(buffer), 0, 42);
  const read = (tid: number): number | null => (tid === 42 ? clock.ns : null);
  return { buffer, clock, read };
}

describe("a worker thread shard's CPU, read by its link", () => {
  it("gives each window the CPU between its ticks' readings, the last one's close the thread's own", () => {
    const { buffer, clock, read } = fakeThread();
    const cpu = new ReaderCpu(buffer, read);
    expect(cpu.reads).toBe(true);
    cpu.begin(1000);
    clock.ns = 50e6;
    cpu.asked(1, 1100);
    expect(cpu.percent(1, false, 1100)).toBeCloseTo(50, 9);
    // Tick 2's window not handed over (a reader behind): tick 3's spans both, 40 ms over 200.
    clock.ns = 60e6;
    cpu.asked(2, 1200);
    clock.ns = 90e6;
    cpu.asked(3, 1300);
    expect(cpu.percent(3, false, 1300)).toBeCloseTo(20, 9);
    // The last window, closed at 1350 with 100 ms of CPU in the thread's own reading.
    new SlotSender(buffer, new Recorder({ sloMs: null, warmup: false, now: 0 })).endCpu(100e6);
    clock.ns = 500e6;
    expect(cpu.percent(4, true, 1350)).toBeCloseTo(20, 9);
  });

  it('reads nothing for a thread that gave no id, and shows 0 for a window whose reading is missing', () => {
    const buffer = newWindowSlots();
    const cpu = new ReaderCpu(buffer, () => 7e6);
    expect(cpu.reads).toBe(false);
    cpu.begin(1000);
    cpu.asked(1, 1100);
    expect(cpu.percent(1, false, 1100)).toBe(0);
  });

  it("fills a slot's figure the sending thread left to it, and refuses one a thread without an id left", () => {
    const { buffer, clock, read } = fakeThread();
    const recorder = new Recorder({ sloMs: null, warmup: false, now: 0 });
    const sender = new SlotSender(buffer, recorder);
    const reader = new SlotReader(buffer, { warmup: false, cpuNs: read });
    reader.begin(1000);
    clock.ns = 30e6;
    reader.ask(1, false, 1100);
    recorder.response(200, 1000, 5, 100);
    const slot = sender.handOver(recorder, {
      index: 1,
      at: 1100,
      endsWarmup: false,
      cpuPercent: CPU_READ_BY_READER,
    });
    const m = reader.take({ type: 'slot', slot }, new WindowPool());
    if (typeof m === 'string') throw new Error(m);
    expect(m.window.cpuPercent).toBeCloseTo(30, 9);
    expect(m.window.window.requests).toBe(1);

    const other = newWindowSlots();
    const r2 = new Recorder({ sloMs: null, warmup: false, now: 0 });
    const s2 = new SlotSender(other, r2);
    const slot2 = s2.handOver(r2, { index: 1, at: 1100, endsWarmup: false, cpuPercent: CPU_READ_BY_READER });
    expect(
      new SlotReader(other, { warmup: false }).take({ type: 'slot', slot: slot2 }, new WindowPool()),
    ).toBe('sent a malformed window: window slot 0: cpuPercent is -1, not a percentage');
  });

  it("reads this process's threads' CPU time as the thread's own clock counts it (Linux)", () => {
    const tid = linuxThreadId();
    if (process.platform !== 'linux') {
      expect(tid).toBeNull();
      return;
    }
    expect(tid).not.toBeNull();
    const before = process.threadCpuUsage();
    const ns = threadCpuNs(tid!);
    const after = process.threadCpuUsage();
    // The same count, read between two of the thread's own readings: never behind the first;
    // ahead of the second by at most the running slice getrusage has not yet been told of (its
    // times move at the scheduler's tick, 1/HZ: 10 ms at the least HZ, 100).
    expect(ns).not.toBeNull();
    expect(ns! / 1000).toBeGreaterThanOrEqual(before.user + before.system - 1);
    expect(ns! / 1000).toBeLessThanOrEqual(after.user + after.system + 10_000);
    expect(threadCpuNs(2 ** 30)).toBeNull();
  });
});
