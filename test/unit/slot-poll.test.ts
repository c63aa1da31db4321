import { afterEach, describe, expect, it, vi } from 'vitest';
import { splitLoad } from '../../shared/shards/plan.ts';
import type { ShardReport } from '../../shared/model/shard-facts.ts';
import { WindowPool } from '../../electron/engine/recording/held-window.ts';
import type { Recorder } from '../../electron/engine/recording/recorder.ts';
import {
  askWords,
  newWindowSlots,
  SLOT_HANDED,
  slotStates,
  TAKEN,
  type SlotNumber,
} from '../../electron/engine/recording/window-slots.ts';
import { fromEpoch, toEpoch, type FromShard, type ToShard } from '../../electron/engine/shards/messages.ts';
import { tickPauseOf } from '../../electron/engine/shards/results.ts';
import { runShard } from '../../electron/engine/shards/shard.ts';
import { SlotPoll } from '../../electron/engine/shards/slot-poll.ts';
import { SlotReader } from '../../electron/engine/shards/slot-reader.ts';
import { emptyOutcome, type LoadGenerator } from '../../electron/engine/types.ts';
import { oneTarget, runSpecFixture } from '../helpers/engine.ts';

/*
 * A thread shard's ticks asked for by its link (shards/slot-poll.ts, recording/window-slots.ts):
 * the sending thread runs no timer for them. The link's clock asks at each tick; the shard
 * (shards/shard.ts, for real, on fake timers) takes the ask at the first request it records
 * after it, and the window it hands over is the tick's exactly (its time, the requests before
 * it); with nothing to record it is woken by the link and hands over there; the warm-up's end
 * is exact; a reader behind loses nothing.
 */

afterEach(() => {
  vi.useRealTimers();
});

interface Read {
  index: number;
  /** ms after the load's start. */
  at: number;
  endsWarmup: boolean;
  requests: number;
  /** When it was read, ms after the load's start. */
  readAt: number;
}

/**
 * A shard driven by hand: its load generator records what the test says when it says it; its
 * link's side (a SlotReader and a SlotPoll on the same slots) reads what it hands over, unless
 * `reading` is false (a reader behind: the slot stays handed).
 */
async function shardByHand(warmupSeconds: number) {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setImmediate', 'performance'] });
  const spec = runSpecFixture(
    oneTarget('http://127.0.0.1:9/', {
      load: { model: 'closed', connections: 1, limit: { kind: 'duration', seconds: 10 } },
      options: { sampleIntervalMs: 100, warmupSeconds },
    }),
  );
  const buffer = newWindowSlots();
  const reader = new SlotReader(buffer, { warmup: warmupSeconds > 0 });
  const pool = new WindowPool();
  const said: FromShard[] = [];
  const reads: Read[] = [];
  const sent: ToShard[] = [];
  let recorder: Recorder | null = null;
  let finish: () => void = () => undefined;
  const generator: LoadGenerator = {
    name: 'native',
    version: 'fake',
    run: (ctx) =>
      new Promise((resolve) => {
        void ctx.startGate();
        recorder = ctx.recorder;
        finish = () => resolve(emptyOutcome({ loadEndedAt: performance.now(), httpVersion: '1.1' }));
      }),
  };
  const handle = runShard(
    { spec, shard: splitLoad(spec.load, 1)[0]! },
    (m) => said.push(m),
    () => undefined,
    buffer,
    { cpu: () => 0, selectGenerator: () => Promise.resolve(generator) },
  );
  const state = { reading: true, t0: 0 };
  const poll = new SlotPoll(
    reader,
    spec,
    (slot: SlotNumber) => {
      if (!state.reading) return;
      const m = reader.take({ type: 'slot', slot }, pool);
      if (typeof m === 'string' || m.type !== 'window') throw new Error(typeof m === 'string' ? m : m.type);
      reads.push({
        index: m.index,
        at: Math.round((fromEpoch(m.at) - state.t0) * 1e6) / 1e6,
        endsWarmup: m.endsWarmup,
        requests: m.window.window.requests,
        readAt: performance.now() - state.t0,
      });
      pool.give(m.window);
    },
    () => {
      sent.push({ type: 'hand-over' });
      handle({ type: 'hand-over' });
    },
  );
  await vi.advanceTimersByTimeAsync(0);
  expect(said).toEqual([{ type: 'ready' }]);
  state.t0 = performance.now() + 10;
  handle({ type: 'start', at: toEpoch(state.t0) });
  poll.start(toEpoch(state.t0));
  await vi.advanceTimersByTimeAsync(10);
  expect(recorder).not.toBeNull();
  const r = recorder!;
  return {
    reader,
    reads,
    sent,
    state,
    buffer,
    /** n requests answered now. */
    answer(n: number): void {
      for (let i = 0; i < n; i++) {
        r.started();
        r.response(200, 1000, 5, 100);
        r.inFlight--;
      }
    },
    /** n requests sent now, to be answered later (answerSent). */
    send(n: number): void {
      for (let i = 0; i < n; i++) r.started();
    },
    /** n of the requests sent answered now. */
    answerSent(n: number): void {
      for (let i = 0; i < n; i++) {
        r.inFlight--;
        r.response(200, 1000, 5, 100);
      }
    },
    /** On to `ms` after the load's start. */
    async to(ms: number): Promise<void> {
      await vi.advanceTimersByTimeAsync(state.t0 + ms - performance.now());
    },
    /** Ends the load now; the shard's last window and report, as the reader completes them. */
    async end() {
      finish();
      await vi.advanceTimersByTimeAsync(0);
      // As the link does before anything the shard says (links.ts said): a slot handed over is read first.
      poll.poll();
      poll.stop();
      const last = said.at(-1);
      if (last?.type !== 'slot-report') throw new Error(`the shard said ${JSON.stringify(last)}`);
      const m = reader.take(last, pool);
      if (typeof m === 'string' || m.type !== 'report') throw new Error(typeof m === 'string' ? m : m.type);
      return { index: m.index, requests: m.window.window.requests, report: m.report };
    },
  };
}

/** How many hand-overs the report timed. */
const tickPauses = (report: ShardReport): number => tickPauseOf([report])?.ticks ?? 0;

describe("a thread shard's ticks, asked for by its link", () => {
  it('are taken at the first request after the ask, the window closed at the tick, with no wake', async () => {
    const s = await shardByHand(0);
    s.answer(3);
    // Tick 1 at 100 ms: the ask waits until the request at 101 ms takes it.
    await s.to(100);
    expect(s.reader.waiting).not.toBe(0);
    await s.to(101);
    s.answer(2);
    expect(s.reader.waiting).toBe(0);
    await s.to(103);
    // Read at the look 3 ms after the tick; the window is the tick's: its time 100, the 3
    // requests before it (the 2 after it are the next window's).
    expect(s.reads).toEqual([{ index: 1, at: 100, endsWarmup: false, requests: 3, readAt: 103 }]);
    await s.to(150);
    s.answer(1);
    await s.to(201);
    s.answer(1);
    await s.to(203);
    expect(s.reads.at(-1)).toEqual({ index: 2, at: 200, endsWarmup: false, requests: 3, readAt: 203 });
    expect(s.sent).toEqual([]);
    const last = await s.end();
    expect([last.index, last.requests]).toEqual([3, 1]);
    expect(last.report.counts.requests.total).toBe(7);
    expect(tickPauses(last.report)).toBe(2);
  });

  it('wakes an idle sending thread, which hands over from the wake', async () => {
    const s = await shardByHand(0);
    s.answer(4);
    // Nothing recorded after tick 1: 3 ms on, the look finds the ask waiting and wakes the shard.
    await s.to(103);
    expect(s.sent).toEqual([{ type: 'hand-over' }]);
    expect(s.reads).toEqual([]);
    await s.to(106);
    expect(s.reads).toEqual([{ index: 1, at: 100, endsWarmup: false, requests: 4, readAt: 106 }]);
    // A silent tick 2: woken again, an empty window at 200.
    await s.to(206);
    expect(s.sent).toHaveLength(2);
    expect(s.reads.at(-1)).toEqual({ index: 2, at: 200, endsWarmup: false, requests: 0, readAt: 206 });
    // A wake that finds no ask waiting (taken on the hot path meanwhile) hands nothing over twice.
    const taken = Atomics.load(askWords(s.buffer), TAKEN);
    (s as { sent: ToShard[] }).sent.length = 0;
    await s.to(250);
    expect(Atomics.load(askWords(s.buffer), TAKEN)).toBe(taken);
    const last = await s.end();
    expect(last.index).toBe(3);
    expect(last.report.counts.requests.total).toBe(4);
    expect(tickPauses(last.report)).toBe(2);
  });

  it("ends with an ask waiting: that tick's window handed over first, the last one from it", async () => {
    const s = await shardByHand(0);
    s.answer(2);
    await s.to(150);
    s.answer(3);
    // Tick 2 asked at 200; the load ends at 201, before anything took the ask or woke the shard.
    await s.to(201);
    expect(s.reader.waiting).not.toBe(0);
    const last = await s.end();
    expect(s.reads.map((r) => [r.index, r.at, r.requests])).toEqual([
      [1, 100, 2],
      [2, 200, 3],
    ]);
    expect([last.index, last.requests]).toEqual([3, 0]);
    expect(last.report.counts.requests.total).toBe(5);
    // Tick 1's wake (nothing recorded from 0 to 150); none for tick 2, taken at the end.
    expect(s.sent).toEqual([{ type: 'hand-over' }]);
  });

  it('ends the warm-up exactly at its tick: the requests after it measured, the ones before not', async () => {
    // Warm-up 250 ms: ticks 1 and 2, the warm-up's end (index 3) at 250, then 350, 450...
    const s = await shardByHand(0.25);
    // Ticks 1 and 2 are woken (nothing until 120, 220), the warm-up's end and tick 4 taken by
    // the requests at 251 and 351.
    for (const ms of [20, 120, 220, 240, 251, 300, 351]) {
      await s.to(ms);
      s.answer(ms < 250 ? 2 : 3);
    }
    await s.to(400);
    expect(s.reads).toEqual([
      { index: 1, at: 100, endsWarmup: false, requests: 2, readAt: 106 },
      { index: 2, at: 200, endsWarmup: false, requests: 2, readAt: 206 },
      { index: 3, at: 250, endsWarmup: true, requests: 4, readAt: 253 },
      { index: 4, at: 350, endsWarmup: false, requests: 6, readAt: 353 },
    ]);
    const last = await s.end();
    // Measured: the answers at 251, 300 and 351, none of the warm-up's.
    expect(last.report.counts.requests.total).toBe(9);
    expect(last.requests).toBe(3);
  });

  it('counts an answer that takes the ask in the window before it, whole, and measures the ones after', async () => {
    const s = await shardByHand(0.25);
    await s.to(240);
    s.send(3);
    // The warm-up's end asked at 250; the answer at 251 takes it once counted (a warm-up one),
    // so the two after it are measured, and nothing else moved in between.
    await s.to(251);
    s.answerSent(1);
    expect(s.reader.waiting).toBe(0);
    await s.to(260);
    s.answerSent(2);
    await s.to(300);
    expect(s.reads.filter((r) => r.endsWarmup)).toEqual([
      { index: 3, at: 250, endsWarmup: true, requests: 1, readAt: 253 },
    ]);
    const last = await s.end();
    expect(last.report.counts.requests.total).toBe(2);
    expect(last.requests).toBe(2);
  });

  it('keeps a waiting warm-up ask rather than replace it, so its window never runs into the measured part', () => {
    const buffer = newWindowSlots();
    const reader = new SlotReader(buffer, { warmup: true });
    expect(reader.ask(3, true, 1000)).toBe(true);
    const word = reader.waiting;
    expect(reader.ask(4, false, 1100)).toBe(false);
    expect(reader.waiting).toBe(word);
    // Taken: the next ask goes in.
    Atomics.store(askWords(buffer), TAKEN, word);
    expect(reader.ask(4, false, 1100)).toBe(true);
    expect(reader.waiting).toBe(4 * 2);
  });

  it('loses nothing when the reader is behind: the window spans the tick it could not hand over', async () => {
    const s = await shardByHand(0);
    s.answer(1);
    await s.to(110);
    s.answer(2);
    // The reader does not read tick 2's slot until after tick 3: the shard, asked at 3, keeps
    // the window going in its slot, and hands it over at tick 4 as one window.
    s.state.reading = false;
    await s.to(210);
    expect(Atomics.load(slotStates(s.buffer), 1)).toBe(SLOT_HANDED);
    s.answer(4);
    await s.to(310);
    s.answer(8);
    s.state.reading = true;
    await s.to(410);
    s.answer(16);
    expect(s.reads.map((r) => [r.index, r.at, r.requests])).toEqual([
      [1, 100, 1],
      [2, 200, 2],
      [4, 400, 12],
    ]);
    const last = await s.end();
    expect(last.index).toBe(5);
    expect(last.requests).toBe(16);
    expect(last.report.counts.requests.total).toBe(31);
  });
});
