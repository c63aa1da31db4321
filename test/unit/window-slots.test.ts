import { describe, expect, it } from 'vitest';
import { ERROR_KINDS } from '../../shared/model/result-parts.ts';
import type { ShardReport, ShardWindow } from '../../shared/model/shard-facts.ts';
import { COUNTS_LENGTH, indexOf } from '../../electron/engine/recording/hdr-layout.ts';
import { Recorder } from '../../electron/engine/recording/recorder.ts';
import { recorderReport, unsettledReport } from '../../electron/engine/recording/recorder-report.ts';
import {
  AT,
  ERRORS_AT,
  newWindowSlots,
  SLOT_HANDED,
  SLOT_RECORDING,
  SlotSender,
  slotStates,
  slotViews,
  WINDOW_SLOTS_BYTES,
  type SlotNumber,
} from '../../electron/engine/recording/window-slots.ts';
import { SlotReader } from '../../electron/engine/shards/slot-reader.ts';
import { WindowPool, wireOf } from '../../electron/engine/recording/held-window.ts';
import { emptyOutcome } from '../../electron/engine/types.ts';

/*
 * A thread shard's window slots (recording/window-slots.ts, shards/slot-reader.ts): what the
 * sending thread hands over in a slot is, once read, exactly the window (and, over a run, the
 * report) the message path makes of the same requests; a forged slot is refused by name; a
 * reader behind makes a window span two ticks with nothing lost.
 */

/** Some requests of a busy window: latencies from 1 us to about 3 s, lateness, statuses, errors. */
function load(r: Recorder, seed: number, n = 500): void {
  for (let i = 0; i < n; i++) {
    r.started();
    r.sentLate((i * 37 + seed) % 3000);
    if (i % 97 === 0) r.error(i % 2 === 0 ? 'reset' : 'timeout', 'gone');
    else r.response(i % 50 === 0 ? 404 : 200, ((i * i + seed) % 3_000_000) + 0.5, 10, 200);
    r.inFlight--;
  }
}

const slotMessage = (slot: SlotNumber) => ({ type: 'slot' as const, slot });
const pool = new WindowPool();

/** A reader's window, as a message would carry it (the held one goes back to the pool), or the test fails with what it refused. */
function read(
  reader: SlotReader,
  slot: SlotNumber,
): { index: number; at: number; endsWarmup: boolean; window: ShardWindow } {
  const m = reader.take(slotMessage(slot), pool);
  if (typeof m === 'string') throw new Error(m);
  if (m.type !== 'window') throw new Error(`read a ${m.type}`);
  const window = wireOf(m.window);
  pool.give(m.window);
  return { ...m, window };
}

/** The reader's last window and whole report, from the shard's `slot-report`. */
function lastOf(reader: SlotReader, slot: SlotNumber, recorder: Recorder) {
  const m = reader.take(
    {
      type: 'slot-report',
      slot,
      report: unsettledReport(recorder, emptyOutcome()),
      failure: null,
      startedAt: 1,
    },
    pool,
  );
  if (typeof m === 'string') throw new Error(m);
  if (m.type !== 'report') throw new Error(`read a ${m.type}`);
  return { ...m, window: wireOf(m.window) };
}

const pair = (warmup = false) => {
  const buffer = newWindowSlots();
  const recorder = new Recorder({ sloMs: 1000, warmup, now: 0 });
  return {
    buffer,
    recorder,
    sender: new SlotSender(buffer, recorder),
    reader: new SlotReader(buffer, { warmup }),
  };
};

const every = (a: Float64Array | Uint32Array, v: number): boolean => a.every((x) => x === v);

describe('window slots', () => {
  it('lay out two slots of a header, a status table and two full histograms, none overlapping', () => {
    const buffer = newWindowSlots();
    expect(buffer.byteLength).toBe(WINDOW_SLOTS_BYTES);
    const views = [slotViews(buffer, 0), slotViews(buffer, 1)];
    for (const v of views) {
      expect([v.status.length, v.latency.length, v.lateness.length]).toEqual([
        1000,
        COUNTS_LENGTH,
        COUNTS_LENGTH,
      ]);
      expect(v.header.length).toBe(ERRORS_AT + ERROR_KINDS.length);
    }
    // Each part written with its own value reads back unchanged: no part shares a byte with another.
    const parts = views.flatMap((v) => [v.header, v.status, v.latency, v.lateness]);
    parts.forEach((p, i) => p.fill(i + 1));
    parts.forEach((p, i) => expect(every(p, i + 1)).toBe(true));
    expect([...slotStates(buffer)]).toEqual([SLOT_RECORDING, SLOT_RECORDING]);
  });

  it('hand a window over that reads back as the window the message path makes, and zeroed', () => {
    const { buffer, recorder, sender, reader } = pair();
    const plain = new Recorder({ sloMs: 1000, warmup: false, now: 0 });
    for (const r of [recorder, plain]) {
      load(r, 1);
      r.inFlight = 7;
      r.connections = 12;
    }
    const slot = sender.handOver(recorder, {
      index: 3,
      at: 1_700_000_000_000,
      endsWarmup: false,
      cpuPercent: 41.5,
    });
    expect(slot).toBe(0);
    expect(Atomics.load(slotStates(buffer), 0)).toBe(SLOT_HANDED);
    // The sender goes on in the other slot: the reader holds this one.
    expect(sender.free).toBe(false);
    const got = read(reader, 0);
    expect(got).toMatchObject({ index: 3, at: 1_700_000_000_000, endsWarmup: false });
    expect(got.window).toEqual(plain.takeWindow(41.5));
    expect(got.window.errors).toEqual({ reset: 3, timeout: 3 });
    // Read, it is zeroed and handed back.
    const v = slotViews(buffer, 0);
    expect([every(v.status, 0), every(v.latency, 0), every(v.lateness, 0)]).toEqual([true, true, true]);
    expect(Atomics.load(slotStates(buffer), 0)).toBe(SLOT_RECORDING);
    expect(sender.free).toBe(true);
    // A slot read twice was not handed over again.
    expect(reader.take(slotMessage(0), pool)).toBe(
      'sent a malformed window: window slot 0: was not handed over',
    );
  });

  it('make the same report over a run with a warm-up: the reader settles what the recorder did', () => {
    const { recorder, sender, reader } = pair(true);
    const plain = new Recorder({ sloMs: 1000, warmup: true, now: 0 });
    const ticks = [false, true, false, false];
    const windows: ShardWindow[][] = [[], []];
    ticks.forEach((endsWarmup, i) => {
      load(recorder, i);
      load(plain, i);
      const slot = sender.handOver(recorder, { index: i + 1, at: 1000 * (i + 1), endsWarmup, cpuPercent: 0 });
      windows[0]!.push(read(reader, slot).window);
      windows[1]!.push(plain.takeWindow(0));
      if (endsWarmup) {
        recorder.startMeasuring();
        plain.startMeasuring();
      }
    });
    load(recorder, 9);
    load(plain, 9);
    const slot = sender.handOver(recorder, { index: 5, at: 4500, endsWarmup: false, cpuPercent: 0 }, true);
    const last = lastOf(reader, slot, recorder);
    windows[0]!.push(last.window);
    windows[1]!.push(plain.takeWindow(0));
    expect(windows[0]).toEqual(windows[1]);
    const expected: ShardReport = recorderReport(plain, emptyOutcome());
    expect(last.report).toEqual(expected);
    // The warm-up's two windows are out of the run's figures: three windows of 500.
    expect(last.report.counts.requests.total).toBe(1500);
    expect(last.report.latencyRange).not.toBeNull();
  });

  it('refuse a forged slot, naming the count or field', () => {
    const forged = (forge: (v: ReturnType<typeof slotViews>) => void): string => {
      const { buffer, recorder, sender, reader } = pair();
      load(recorder, 2);
      const slot = sender.handOver(recorder, { index: 1, at: 1000, endsWarmup: false, cpuPercent: 0 });
      forge(slotViews(buffer, slot));
      const m = reader.take(slotMessage(slot), pool);
      return typeof m === 'string' ? m : 'accepted';
    };
    const i = indexOf(1);
    expect(forged((v) => (v.latency[i] = -1))).toBe(
      `sent a malformed window: window slot 0: latency count at index ${i} is -1, not a whole number ≥ 0`,
    );
    expect(forged((v) => (v.lateness[0] = 1.5))).toBe(
      'sent a malformed window: window slot 0: lateness count at index 0 is 1.5, not a whole number ≥ 0',
    );
    expect(forged((v) => (v.latency[COUNTS_LENGTH - 1] = 1))).toBe(
      `sent a malformed window: window slot 0: latency count at index ${COUNTS_LENGTH - 1} lies outside latencyMin..latencyMax`,
    );
    expect(forged((v) => (v.header[AT.latencyCount] = 499))).toBe(
      'sent a malformed window: window slot 0: latency counts add up to 494, not latencyCount 499',
    );
    expect(forged((v) => (v.header[AT.requests] = 2.5))).toBe(
      'sent a malformed window: window slot 0: requests is 2.5, not a whole number ≥ 0',
    );
    expect(forged((v) => (v.header[AT.cpuPercent] = NaN))).toBe(
      'sent a malformed window: window slot 0: cpuPercent is NaN, not a percentage',
    );
    expect(forged((v) => (v.header[ERRORS_AT + ERROR_KINDS.indexOf('reset')] = -3))).toBe(
      'sent a malformed window: window slot 0: errors.reset is -3, not a whole number ≥ 0',
    );
    // Outside the span: refused below it too, and a -0 there (not a count) is let through as the whole walk lets it.
    expect(forged((v) => (v.header[AT.latencyMin] = 1_000_000))).toMatch(
      /^sent a malformed window: window slot 0: latency count at index \d+ lies outside latencyMin\.\.latencyMax$/,
    );
    expect(forged((v) => (v.latency[COUNTS_LENGTH - 1] = -0))).toBe('accepted');
    expect(forged(() => undefined)).toBe('accepted');
  });

  it('with the reader behind, a window spans two ticks and every count is kept', () => {
    const { recorder, sender, reader } = pair();
    const plain = new Recorder({ sloMs: 1000, warmup: false, now: 0 });
    load(recorder, 1);
    load(plain, 1);
    const first = sender.handOver(recorder, { index: 1, at: 1000, endsWarmup: false, cpuPercent: 0 });
    // Tick 2: the reader has not read slot 0, so the window goes on in slot 1 (the shard does not hand over).
    load(recorder, 2);
    load(plain, 2);
    expect(sender.free).toBe(false);
    expect(() => sender.handOver(recorder, { index: 2, at: 2000, endsWarmup: false, cpuPercent: 0 })).toThrow(
      /reader held the other/,
    );
    load(recorder, 3);
    load(plain, 3);
    const one = read(reader, first);
    // Tick 3: handed over, spanning ticks 2 and 3.
    expect(sender.free).toBe(true);
    const second = sender.handOver(recorder, { index: 3, at: 3000, endsWarmup: false, cpuPercent: 0 });
    const two = read(reader, second);
    expect(two.index).toBe(3);
    expect(one.window.requests + two.window.requests).toBe(1500);
    expect(two.window.latency.counts.reduce((a, b) => a + b, 0)).toBe(1000 - 12);
    // The run's figures: exactly the plain recorder's over the same requests.
    const last = sender.handOver(recorder, { index: 4, at: 3500, endsWarmup: false, cpuPercent: 0 }, true);
    for (let t = 0; t < 3; t++) plain.takeWindow(0);
    const end = lastOf(reader, last, recorder);
    expect(end.report).toEqual(recorderReport(plain, emptyOutcome()));
    expect(end.report.counts.requests.total).toBe(1500);
  });

  it('let the warm-up end go as a message when the reader is behind, and no measured window', () => {
    const { recorder, reader } = pair(true);
    load(recorder, 1);
    const window = recorder.takeWindow(0);
    const warmupEnd = { type: 'window' as const, index: 1, at: 1000, endsWarmup: true, window };
    // Read into a held window that a message carries back unchanged.
    const held = reader.take(warmupEnd, pool);
    if (typeof held === 'string') throw new Error(held);
    expect({ ...held, window: wireOf(held.window) }).toEqual(warmupEnd);
    // From here the windows count: one outside the slots is refused.
    expect(reader.take({ ...warmupEnd, index: 2, endsWarmup: false }, pool)).toBe(
      'sent a measured window outside its window slots',
    );
  });
});
