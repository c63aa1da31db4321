import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RunResult, Sample } from '../../shared/model/result.ts';
import type { ShardWindow } from '../../shared/model/shard-facts.ts';
import { splitLoad } from '../../shared/shards/plan.ts';
import { CpuAccount, cpuMeter } from '../../electron/engine/cpu.ts';
import { Recorder } from '../../electron/engine/recording/recorder.ts';
import { recorderReport } from '../../electron/engine/recording/recorder-report.ts';
import { coordinate } from '../../electron/engine/shards/run-assembly.ts';
import { inThisThread } from '../../electron/engine/shards/links.ts';
import { emptyOutcome, type LoadGenerator, type RunSpec } from '../../electron/engine/types.ts';
import { EMPTY_BUCKETS } from '../helpers/buckets.ts';
import { oneTarget, runSpecFixture } from '../helpers/engine.ts';
import { handCoordinated, handLinks, readyBoth, TARGET_FACTS } from '../helpers/hand-links.ts';

/*
 * The coordinator of every run, one shard or several, in this thread: driven through the same
 * fake load generator on fake timers, a run split in 1 and in 2 shards must give the same samples (the
 * tick grid, the warm-up boundary, the final window's fold) and the same figures; driven by
 * hand, it merges each grid place's windows once every shard has sent its own or gone past it.
 */

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

const FACTS = TARGET_FACTS;

/**
 * A load generator on the fake clock: from its schedule's start, 5 ms into every 10 ms slot, each of
 * its connections gets one 200 answered in 2 ms; it ends a duration after the warm-up, or
 * when stopped.
 */
const fakeGenerator: LoadGenerator = {
  name: 'native',
  version: 'fake',
  run: (ctx) =>
    new Promise((resolve) => {
      void ctx.startGate();
      const { recorder, spec } = ctx;
      const connections = spec.load.model === 'closed' ? spec.load.connections : 1;
      const seconds =
        spec.load.model === 'closed' && spec.load.limit.kind === 'duration' ? spec.load.limit.seconds : 1;
      const start = ctx.schedule?.startAt ?? performance.now();
      let slots: NodeJS.Timeout | undefined;
      let deadline: NodeJS.Timeout | undefined;
      const first = setTimeout(
        () => {
          slots = setInterval(() => {
            for (let c = 0; c < connections; c++) {
              recorder.started();
              recorder.sent(0, 100);
              recorder.response(200, 2000, 10, 100);
              recorder.inFlight--;
            }
          }, 10);
        },
        start + 5 - performance.now(),
      );
      const end = (): void => {
        clearTimeout(first);
        clearInterval(slots);
        clearTimeout(deadline);
        resolve(emptyOutcome({ loadEndedAt: performance.now(), httpVersion: '1.1' }));
      };
      // As the drivers do: the measured part runs from the warm-up's end (the schedule's
      // measureFrom: the tick's time), not from when warmupDone resolved (the ask's take, later).
      void ctx.warmupDone.then(() => {
        const from = ctx.schedule?.measureFrom ?? start;
        deadline = setTimeout(end, from + seconds * 1000 - performance.now());
      });
      ctx.signal.addEventListener('abort', end, { once: true });
    }),
};

/** 4 connections for 1.03 s after a warm-up, 100 ms ticks. */
const specWith = (warmupSeconds: number): RunSpec =>
  runSpecFixture(
    oneTarget('http://127.0.0.1:9/', {
      load: { model: 'closed', connections: 4, limit: { kind: 'duration', seconds: 1.03 } },
      options: { warmupSeconds, sampleIntervalMs: 100 },
    }),
  );
const SPEC = specWith(0.25);

/** The run split in `workers` shards, every one in this thread, on fake timers; stopped at stopAtMs if given. */
async function drive(
  workers: number,
  stopAtMs?: number,
  spec = SPEC,
  hear: (s: Sample) => void = () => undefined,
): Promise<{ samples: Sample[]; result: RunResult }> {
  vi.useFakeTimers({
    toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'setImmediate', 'performance'],
  });
  const samples: Sample[] = [];
  const controller = new AbortController();
  const cpu = new CpuAccount();
  const done = coordinate({
    spec,
    shards: splitLoad(spec.load, workers),
    backendFor: () => inThisThread([cpu], { selectGenerator: () => Promise.resolve(fakeGenerator) }),
    signal: controller.signal,
    onSample: (s) => {
      samples.push(s);
      hear(s);
    },
    engine: { name: 'native', version: 'fake' },
    startedAt: new Date(0),
    facts: FACTS,
    cpu,
  });
  if (stopAtMs !== undefined) {
    await vi.advanceTimersByTimeAsync(stopAtMs);
    controller.abort();
  }
  await vi.advanceTimersByTimeAsync(5000);
  return { samples, result: await done };
}

/** What a sample says apart from CPU (real CPU time, not the fake clock's). */
const shape = (s: Sample) => {
  const { cpuPercent: _cpu, ...rest } = s;
  return rest;
};
/** What a result says apart from its CPU figures and wall-clock times. */
const figures = (r: RunResult) => ({
  status: r.status,
  durationSeconds: r.durationSeconds,
  requests: r.requests,
  throughput: r.throughput,
  latency: r.latency,
  histogram: r.histogram,
  statusCodes: r.statusCodes,
  bytes: r.bytes,
  samples: r.samples.map(shape),
});

describe('one coordinator for one shard and for several', () => {
  it('gives the same tick grid, warm-up boundary and final fold through 1 and 2 shards', async () => {
    const one = await drive(1);
    const two = await drive(2);
    expect(two.result.generator.workers).toHaveLength(2);
    expect(one.result.generator.workers).toHaveLength(1);
    expect(two.samples.map(shape)).toEqual(one.samples.map(shape));
    expect(figures(two.result)).toEqual(figures(one.result));

    // The grid: warm-up ticks at 100 and 200 ms, the warm-up's end at 250 ms, then every
    // 100 ms from there; the load ends 1.03 s after the warm-up (1280 ms), 30 ms after the last
    // tick: under half a window, folded into the one before (seq 12 again, 1150-1280 ms).
    const ms = (s: Sample) => Math.round(s.elapsedSeconds * 1000);
    expect(one.samples.map(ms)).toEqual([
      100, 200, 250, 350, 450, 550, 650, 750, 850, 950, 1050, 1150, 1250, 1280,
    ]);
    expect(one.samples.at(-1)).toMatchObject({ seq: 12, final: true, warmup: false });
    expect(one.result.samples.map(ms)).toEqual([
      100, 200, 250, 350, 450, 550, 650, 750, 850, 950, 1050, 1150, 1280,
    ]);
    expect(one.result.samples.at(-1)!.intervalSeconds).toBeCloseTo(0.13, 9);
    expect(one.result.samples.map((s) => s.warmup)).toEqual([
      true,
      true,
      true,
      ...Array<boolean>(10).fill(false),
    ]);
    // Measured: 103 slots of 4 answers after the warm-up, over 1.03 s, every one in a window.
    expect(one.result.requests.total).toBe(412);
    expect(one.result.durationSeconds).toBeCloseTo(1.03, 9);
    const measured = one.result.samples.filter((s) => !s.warmup);
    expect(measured.reduce((n, s) => n + s.requests, 0)).toBe(412);
    expect(measured.reduce((n, s) => n + s.intervalSeconds, 0)).toBeCloseTo(1.03, 9);
  });

  it('ends a warm-up that falls on a grid point with one tick, through 1 and 2 shards', async () => {
    const spec = specWith(0.2);
    const one = await drive(1, undefined, spec);
    const two = await drive(2, undefined, spec);
    expect(two.samples.map(shape)).toEqual(one.samples.map(shape));
    expect(figures(two.result)).toEqual(figures(one.result));
    // No sliver of warm-up after the 200 ms tick: it is the warm-up's end.
    const ms = (s: Sample) => Math.round(s.elapsedSeconds * 1000);
    expect(one.result.samples.map(ms)).toEqual([
      100, 200, 300, 400, 500, 600, 700, 800, 900, 1000, 1100, 1230,
    ]);
    expect(one.result.samples.map((s) => s.warmup)).toEqual([true, true, ...Array<boolean>(10).fill(false)]);
    expect(one.result.requests.total).toBe(412);
  });

  it('stops the same way through 1 and 2 shards: the last window at the stop, marked cancelled', async () => {
    const one = await drive(1, 620);
    const two = await drive(2, 620);
    expect(one.result.status).toBe('cancelled');
    expect(two.samples.map(shape)).toEqual(one.samples.map(shape));
    expect(figures(two.result)).toEqual(figures(one.result));
    expect(one.samples.at(-1)).toMatchObject({ final: true, elapsedSeconds: 0.62 });
    expect(one.result.durationSeconds).toBeCloseTo(0.37, 9);
  });

  it("reports the coordinator's CPU on its own", { tags: ['timing'] }, async () => {
    // The thread CPU clock moves in whole scheduler ticks here (4 ms), and the fake run's
    // coordinator work can fall between two (CI saw 0). Its first sample, handled inside the
    // coordinator's charge, lasts until the clock has moved at least once.
    let first = true;
    const untilTick = (): void => {
      if (!first) return;
      first = false;
      const from = process.threadCpuUsage();
      let now = from;
      while (now.user + now.system === from.user + from.system) now = process.threadCpuUsage();
    };
    const { result } = await drive(1, undefined, SPEC, untilTick);
    expect(result.generator.coordinatorCpuSeconds).toBeGreaterThan(0);
  });
});

describe("the coordinator's CPU account", () => {
  it('is left out of the meter of the shard that shares its thread', () => {
    // The thread's CPU clock and the wall clock scripted: the meters' arithmetic, exactly (the
    // real CPU clock moves in 4 ms scheduler ticks, and a busy machine can stall the thread
    // between two meters' readings).
    vi.useFakeTimers({ toFake: ['performance'] });
    let cpuMicros = 0;
    vi.spyOn(process, 'threadCpuUsage').mockImplementation(() => ({ user: cpuMicros, system: 0 }));
    const busy = (ms: number): void => {
      cpuMicros += ms * 1000;
      vi.advanceTimersByTime(ms);
    };
    const account = new CpuAccount();
    const whole = cpuMeter();
    const shard = cpuMeter(account);
    busy(20);
    account.charge(() => busy(40));
    busy(20);
    // 80 ms of wall time all busy, 40 of them charged to the account: 100 % and 50 %.
    expect(whole()).toBe(100);
    expect(shard()).toBe(50);
    expect(account.seconds).toBe(0.04);
  });
});

const windowOf = (requests: number): ShardWindow => ({
  requests,
  bytesIn: requests * 100,
  statusCodes: requests > 0 ? { '200': requests } : {},
  errors: {},
  late: 0,
  inFlight: 1,
  cpuPercent: 10,
  latency: EMPTY_BUCKETS,
  lateness: EMPTY_BUCKETS,
});

/** A report of `n` measured answers. */
function reportOf(n: number) {
  const r = new Recorder({ sloMs: null, warmup: false, now: 0 });
  for (let i = 0; i < n; i++) r.response(200, 1000, 10, 100);
  r.tick(1);
  return recorderReport(r, emptyOutcome());
}

function handRun() {
  const { backend, shards } = handLinks();
  const { samples, done } = handCoordinated(backend, TARGET_FACTS);
  const t0 = readyBoth(shards);
  return { shards, samples, done, at: (ms: number) => t0 + ms };
}

describe('the coordinator merging windows by grid place', () => {
  it('makes a Sample of a place once every shard sent it or went past it (a late tick skips one)', async () => {
    const { shards, samples, done, at } = handRun();
    const [a, b] = shards as [(typeof shards)[0], (typeof shards)[0]];
    const win = (index: number, ms: number, requests: number) =>
      ({ type: 'window', index, at: at(ms), endsWarmup: false, window: windowOf(requests) }) as const;
    a.say(win(1, 100, 10));
    b.say(win(1, 100, 20));
    a.say(win(2, 200, 10));
    expect(samples.map((s) => s.requests)).toEqual([30]);
    // b's tick at 200 ms fired late, past 300: its window covers both places, as index 3.
    b.say(win(3, 301, 40));
    expect(samples.map((s) => s.requests)).toEqual([30, 10]);
    a.say(win(3, 300, 10));
    expect(samples.map((s) => s.requests)).toEqual([30, 10, 50]);
    expect(samples.map((s) => s.seq)).toEqual([0, 1, 2]);
    // Every shard's in-flight count at its latest window, whether or not it sent one for the place.
    expect(samples[1]!.inFlight).toBe(2);
    a.say({
      type: 'report',
      index: 4,
      at: at(360),
      window: windowOf(6),
      report: reportOf(36),
      failure: null,
      startedAt: at(0),
    });
    b.say({
      type: 'report',
      index: 4,
      at: at(370),
      window: windowOf(0),
      report: reportOf(60),
      failure: null,
      startedAt: at(0),
    });
    const result = await done;
    expect(result.status).toBe('completed');
    expect(result.requests.total).toBe(96);
    // The final window (300-370 ms) is not under half the one before: a Sample of its own.
    expect(samples.map((s) => [s.seq, s.requests, Math.round(s.elapsedSeconds * 1000)])).toEqual([
      [0, 30, 100],
      [1, 10, 200],
      [2, 50, 301],
      [3, 6, 370],
    ]);
    expect(result.generator.workers).toHaveLength(2);
  });

  it("stops every shard when one's load generator broke down, and keeps what they all measured", async () => {
    const { shards, done, at } = handRun();
    const [a, b] = shards as [(typeof shards)[0], (typeof shards)[0]];
    a.say({
      type: 'report',
      index: 1,
      at: at(50),
      window: windowOf(5),
      report: reportOf(5),
      failure: 'the native engine broke down: boom',
      startedAt: at(0),
    });
    expect(b.sent.at(-1)).toEqual({ type: 'stop' });
    b.say({
      type: 'report',
      index: 1,
      at: at(60),
      window: windowOf(7),
      report: reportOf(7),
      failure: null,
      startedAt: at(0),
    });
    const result = await done;
    expect(result.status).toBe('failed');
    expect(result.error).toEqual({ kind: 'other', message: 'the native engine broke down: boom' });
    expect(result.requests.total).toBe(12);
    expect(result.latency).not.toBeNull();
  });

  it('keeps what the others measured when a shard is lost, naming its worker', async () => {
    const { shards, done, at } = handRun();
    const [a, b] = shards as [(typeof shards)[0], (typeof shards)[0]];
    a.say({ type: 'window', index: 1, at: at(100), endsWarmup: false, window: windowOf(10) });
    b.say({ type: 'window', index: 1, at: at(100), endsWarmup: false, window: windowOf(20) });
    b.listener.lost('crashed: out of memory');
    // The one left is stopped; its report is the result's.
    expect(a.sent.at(-1)).toEqual({ type: 'stop' });
    // 70 ms after the last place: more than half a window, so a Sample of its own (no fold).
    a.say({
      type: 'report',
      index: 2,
      at: at(170),
      window: windowOf(4),
      report: reportOf(14),
      failure: null,
      startedAt: at(0),
    });
    const result = await done;
    expect(result.status).toBe('failed');
    expect(result.error?.message).toBe(
      'engine worker 2 crashed: out of memory; the result holds the other 1 of 2',
    );
    expect(result.requests.total).toBe(14);
    expect(result.generator.workers).toHaveLength(1);
    // The samples hold every window that arrived, the lost shard's too.
    expect(result.samples.map((s) => s.requests)).toEqual([30, 4]);
  });

  it('refuses a malformed message, naming the worker and the field', async () => {
    const { shards, done, at } = handRun();
    shards[1]!.listener.message({ type: 'window', index: 1, at: at(100), endsWarmup: false, window: {} });
    shards[0]!.say({
      type: 'report',
      index: 1,
      at: at(100),
      window: windowOf(3),
      report: reportOf(3),
      failure: null,
      startedAt: at(0),
    });
    const result = await done;
    expect(result.status).toBe('failed');
    expect(result.error?.message).toMatch(/^engine worker 2 sent a malformed message: window\.requests/);
  });

  it("fails in the shard's own words when one cannot get ready, and starts none", async () => {
    const { backend, shards } = handLinks();
    const { done } = handCoordinated(backend, FACTS);
    shards[0]!.say({ type: 'ready' });
    shards[1]!.say({ type: 'failed', message: 'the native engine cannot run HTTP/3' });
    const result = await done;
    expect(result.error).toEqual({ kind: 'other', message: 'the native engine cannot run HTTP/3' });
    expect(shards.map((s) => s.sent)).toEqual([[], []]);
  });
});
