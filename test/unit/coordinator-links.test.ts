import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ShardWindow } from '../../shared/model/shard-facts.ts';
import { ValueRecorder } from '../../electron/engine/recording/histogram.ts';
import { Recorder } from '../../electron/engine/recording/recorder.ts';
import { recorderReport, unsettledReport } from '../../electron/engine/recording/recorder-report.ts';
import { SlotSender, slotViews } from '../../electron/engine/recording/window-slots.ts';
import type { ShardBackend } from '../../electron/engine/shards/links.ts';
import type { ShardMachineFacts } from '../../electron/engine/shards/messages.ts';
import { emptyOutcome } from '../../electron/engine/types.ts';
import { EMPTY_BUCKETS } from '../helpers/buckets.ts';
import {
  handCoordinated,
  handLinks,
  readyBoth,
  TARGET_FACTS,
  type HandShard,
} from '../helpers/hand-links.ts';

/*
 * The one coordinator over links that are machines of their own (processes, pods), driven by
 * hand: each place's windows merged exactly (a place's p99 is the whole run's, not the largest
 * of the shards'), the pre-flight's facts and each machine's figures from their messages, and
 * the limits that make a run always end: a shard not ready in time, a shard gone silent.
 */

const TARGET = { tls: null, server: { ...TARGET_FACTS.server, software: 'nginx', documentLength: 5 } };
const machines = (limits: { readyTimeoutMs?: number; silenceMs?: number } = {}) =>
  handLinks('machine', limits);
const start = (backend: ShardBackend) => handCoordinated(backend);
type Hand = HandShard;

/** Both machines say ready, with the target's facts: the start they are sent (epoch ms). */
const began = (links: readonly Hand[]): number => readyBoth(links, { type: 'ready', target: TARGET });

/** A window of `values` latencies (us), each answered 200. */
function windowOf(values: readonly number[]): ShardWindow {
  const r = new ValueRecorder();
  for (const v of values) r.record(v);
  return {
    requests: values.length,
    bytesIn: values.length * 100,
    statusCodes: values.length > 0 ? { '200': values.length } : {},
    errors: {},
    late: 0,
    inFlight: 0,
    cpuPercent: 20,
    latency: r.buckets(),
    lateness: EMPTY_BUCKETS,
  };
}

/** A machine's report of `values` latencies (us). */
function reportOf(values: readonly number[]) {
  const r = new Recorder({ sloMs: null, warmup: false, now: 0 });
  for (const v of values) r.response(200, v, 5, 100);
  r.tick(1);
  return recorderReport(r, emptyOutcome());
}

const machine = (host: string, startAt: number): ShardMachineFacts => ({
  host,
  cores: 8,
  startAt,
  workers: [
    { mean: 40, max: 50, saturated: false },
    { mean: 30, max: 35, saturated: false },
  ],
});

const many = (n: number, us: number): number[] => Array.from({ length: n }, () => us);

/** The coordinator's clock and timers, moved by the test: its limits are judged on time the test sets. */
const fakeClock = () =>
  vi.useFakeTimers({
    toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'setImmediate', 'performance'],
  });
const pass = (ms: number) => vi.advanceTimersByTimeAsync(ms);
afterEach(() => {
  vi.useRealTimers();
});

describe('the coordinator over machine links', () => {
  it("merges a place's windows exactly: its p99 is the whole run's, not the largest shard's", async () => {
    const { backend, shards: links } = machines();
    const { samples, done } = start(backend);
    const [a, b] = links as [Hand, Hand];
    const go = { at: began(links) };
    // a: 990 answers in 1 ms; b: 10 in 50 ms. Of the 1,000, the 99th percentile is 1 ms; b's own is 50.
    const fast = many(990, 1000);
    const slow = many(10, 50_000);
    a.say({ type: 'window', index: 1, at: go.at + 100, endsWarmup: false, window: windowOf(fast) });
    b.say({ type: 'window', index: 1, at: go.at + 100, endsWarmup: false, window: windowOf(slow) });
    expect(samples).toHaveLength(1);
    expect(samples[0]!.latency!.p99).toBeCloseTo(1, 2);
    expect(samples[0]!.latency!.max).toBeCloseTo(50, 0);
    for (const [link, values, host] of [
      [a, fast, 'gen-a'],
      [b, slow, 'gen-b'],
    ] as const) {
      link.say({
        type: 'report',
        index: 2,
        at: go.at + 150,
        window: windowOf([]),
        report: reportOf(values),
        failure: null,
        startedAt: go.at + (host === 'gen-a' ? 0.5 : 3),
        machine: machine(host, go.at),
      });
    }
    const result = await done;
    expect(result.status).toBe('completed');
    expect(result.latency!.percentiles['99']).toBeCloseTo(1, 2);
    // The pre-flight's facts are the shards' (the coordinator checked nothing itself).
    expect(result.server).toEqual(TARGET.server);
    // Each machine's engine threads, and its row in the Shards table.
    expect(result.generator.workers).toHaveLength(4);
    expect(result.shards!.map((r) => [r.index, r.host, r.cores, r.requests, r.cpuPercentMean])).toEqual([
      [0, 'gen-a', 8, 990, 70],
      [1, 'gen-b', 8, 10, 70],
    ]);
    expect(result.shards!.map((r) => r.startOffsetMs)).toEqual([0.5, 3]);
    expect(result.shards![1]!.p99).toBeCloseTo(50, 0);
  });

  it("reads thread shards' windows from their slots, and gives up one whose slot is forged, naming the count", async () => {
    const { backend, shards: links } = handLinks('thread', { slots: true });
    const { samples, done } = start(backend);
    const [a, b] = links as [Hand, Hand];
    const go = { at: readyBoth(links) };
    const recorders = links.map((l) => {
      const r = new Recorder({ sloMs: null, warmup: false, now: 0 });
      return { r, sender: new SlotSender(l.slots!.buffer, r) };
    });
    const [ra, rb] = recorders as [(typeof recorders)[0], (typeof recorders)[0]];
    for (const v of many(990, 1000)) ra.r.response(200, v, 5, 100);
    for (const v of many(10, 50_000)) rb.r.response(200, v, 5, 100);
    const tick = { index: 1, at: go.at + 100, endsWarmup: false, cpuPercent: 20 };
    a.found(ra.sender.handOver(ra.r, tick));
    b.found(rb.sender.handOver(rb.r, tick));
    // Merged exactly, as windows sent in messages are.
    expect(samples).toHaveLength(1);
    expect(samples[0]!.requests).toBe(1000);
    expect(samples[0]!.latency!.p99).toBeCloseTo(1, 2);
    // b's next window is forged: a count of -1.
    rb.r.response(200, 2000, 5, 100);
    const forged = rb.sender.handOver(rb.r, { ...tick, index: 2, at: go.at + 200 });
    slotViews(b.slots!.buffer, forged).latency[3] = -1;
    b.found(forged);
    expect(b.closed).toBe(true);
    expect(a.sent.at(-1)).toEqual({ type: 'stop' });
    ra.r.response(200, 1000, 5, 100);
    const last = ra.sender.handOver(ra.r, { ...tick, index: 2, at: go.at + 150 }, true);
    a.say({
      type: 'slot-report',
      slot: last,
      report: unsettledReport(ra.r, emptyOutcome()),
      failure: null,
      startedAt: go.at,
    });
    const result = await done;
    expect(result.status).toBe('failed');
    expect(result.error!.message).toBe(
      'engine worker 2 sent a malformed window: window slot 1: latency count at index 3 is -1, not a whole number ≥ 0; the result holds the other 1 of 2',
    );
    // What a measured: its 991 requests, its histogram the reader settled.
    expect(result.requests.total).toBe(991);
    expect(result.statusCodes).toEqual({ '200': 991 });
    expect(result.latency!.max).toBeCloseTo(1, 2);
  });

  it('gives up a shard that names a slot without having slots', async () => {
    const { backend, shards: links } = machines();
    const { done } = start(backend);
    const [a, b] = links as [Hand, Hand];
    const at = began(links);
    a.say({
      type: 'slot-report',
      slot: 0,
      report: unsettledReport(new Recorder({ sloMs: null, warmup: false, now: 0 }), emptyOutcome()),
      failure: null,
      startedAt: at,
    });
    expect(a.closed).toBe(true);
    b.say({
      type: 'report',
      index: 1,
      at: at + 100,
      window: windowOf([1000]),
      report: reportOf([1000]),
      failure: null,
      startedAt: at,
      machine: machine('gen-b', at),
    });
    const result = await done;
    expect(result.error!.message).toBe(
      'shard 1/2 sent a slot-report without window slots; the result holds the other 1 of 2',
    );
    expect(result.requests.total).toBe(1);
  });

  it("fails in the shard's own words, naming it, when it cannot get ready; no shard is started", async () => {
    const { backend, shards: links } = machines();
    const { done } = start(backend);
    links[0]!.say({ type: 'ready', target: TARGET });
    links[1]!.say({
      type: 'failed',
      kind: 'refused',
      message: 'cannot connect to 127.0.0.1:9: connection refused: connect ECONNREFUSED 127.0.0.1:9',
    });
    const result = await done;
    expect(result.status).toBe('failed');
    expect(result.error).toEqual({
      kind: 'refused',
      message:
        'shard 2/2: cannot connect to 127.0.0.1:9: connection refused: connect ECONNREFUSED 127.0.0.1:9',
    });
    expect(links.map((l) => [l.sent, l.closed])).toEqual([
      [[], true],
      [[], true],
    ]);
    // No shard ran: no engine thread's CPU figure is made up for each.
    expect(result.generator.workers).toHaveLength(1);
  });

  it('gives up a shard not ready in time, saying why it waits', async () => {
    fakeClock();
    const { backend, shards: links } = machines({ readyTimeoutMs: 300 });
    const { done } = start(backend);
    links[0]!.say({ type: 'ready', target: TARGET });
    links[1]!.waiting = 'pod run-1-x: Unschedulable: 0/3 nodes are available: 3 Insufficient cpu.';
    await pass(250);
    expect(links[1]!.closed).toBe(false);
    await pass(1000);
    const result = await done;
    expect(result.error!.message).toBe(
      'shard 2/2 was not ready after 0.3 s (pod run-1-x: Unschedulable: 0/3 nodes are available: 3 Insufficient cpu.)',
    );
    expect(links.every((l) => l.closed && l.sent.length === 0)).toBe(true);
  });

  it('ends none while every shard is late alike, and every one once all are silent past the limit', async () => {
    fakeClock();
    const { backend, shards: links } = machines({ silenceMs: 3000 });
    const { done } = start(backend);
    const [a, b] = links as [Hand, Hand];
    const go = { at: began(links) };
    // Both later than the limit, but within it of each other: a busy machine, not a dead shard.
    await pass(2500);
    a.say({ type: 'window', index: 1, at: go.at + 100, endsWarmup: false, window: windowOf(many(5, 1000)) });
    await pass(1500);
    b.say({ type: 'window', index: 1, at: go.at + 100, endsWarmup: false, window: windowOf(many(5, 1000)) });
    await pass(1500);
    expect([a.closed, b.closed]).toEqual([false, false]);
    // Then neither says anything: both are ended, and the run with them.
    await pass(3000);
    const result = await done;
    expect(result.status).toBe('failed');
    expect(result.error!.message).toBe('shard 1/2 sent nothing for 4.5 s, past its 3 s limit: ended');
    expect([a.closed, b.closed]).toEqual([true, true]);
  });

  it('ends a shard silent past its limit once the load began, stops the others and keeps what they measured', async () => {
    fakeClock();
    const { backend, shards: links } = machines({ silenceMs: 3000 });
    const { done } = start(backend);
    const [a, b] = links as [Hand, Hand];
    const go = { at: began(links) };
    // a sends a window a second; b goes quiet after its first.
    for (let tick = 1; tick <= 5; tick++) {
      await pass(1000);
      a.say({
        type: 'window',
        index: tick,
        at: go.at + tick * 1000,
        endsWarmup: false,
        window: windowOf(many(5, 1000)),
      });
      if (tick === 1)
        b.say({
          type: 'window',
          index: 1,
          at: go.at + 1000,
          endsWarmup: false,
          window: windowOf(many(5, 1000)),
        });
    }
    // 4 s behind the freshest word: past its 3 s limit, at the coordinator's next look.
    await pass(600);
    expect(b.closed).toBe(true);
    expect(a.sent.at(-1)).toEqual({ type: 'stop' });
    a.say({
      type: 'report',
      index: 6,
      at: go.at + 5300,
      window: windowOf(many(2, 1000)),
      report: reportOf(many(7, 1000)),
      failure: null,
      startedAt: go.at,
      machine: machine('gen-a', go.at),
    });
    const result = await done;
    expect(result.status).toBe('failed');
    expect(result.error!.message).toMatch(
      /^shard 2\/2 sent nothing for [34]\.\d s, past its 3 s limit: ended; the result holds the other 1 of 2$/,
    );
    expect(result.requests.total).toBe(7);
    expect(result.shards!.map((r) => r.host)).toEqual(['gen-a']);
  });
});
