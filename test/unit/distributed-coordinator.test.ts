import { PassThrough } from 'node:stream';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import type { RunResult, Sample } from '../../shared/model/result.ts';
import { LiveTicks } from '../../shared/distributed/live-ticks.ts';
import { resultLine, tickLine } from '../../shared/shards/stream.ts';
import type { DistributedBackend, ShardEnd, ShardLaunch } from '../../electron/distributed/backend.ts';
import { distributedTarget } from '../../electron/distributed/coordinator.ts';
import { runResultFixture, sampleFixture } from '../helpers/run-result.ts';
import { latencyValues, shardResultFixture } from '../helpers/shard-results.ts';

/** A backend whose shards are written by the test: their stdout lines and how they end. */
class FakeBackend implements DistributedBackend {
  readonly name = 'fake';
  launch: ShardLaunch | null = null;
  out: PassThrough[] = [];
  #ends: ((end: ShardEnd) => void)[] = [];
  #ended: Promise<ShardEnd>[] = [];
  stops = 0;
  cleanups = 0;
  start(launch: ShardLaunch): Promise<void> {
    this.launch = launch;
    this.out = Array.from({ length: launch.count }, () => new PassThrough());
    this.#ended = this.out.map((_, i) => new Promise<ShardEnd>((done) => (this.#ends[i] = done)));
    return Promise.resolve();
  }
  lines(index: number): AsyncIterable<string> {
    return createInterface({ input: this.out[index]! });
  }
  ended(index: number): Promise<ShardEnd> {
    return this.#ended[index]!;
  }
  write(index: number, text: string): void {
    this.out[index]!.write(text);
  }
  end(index: number, failure: string | null): void {
    this.out[index]!.end();
    this.#ends[index]!(failure === null ? { failure: null } : { failure });
  }
  stop(): Promise<void> {
    this.stops++;
    return Promise.resolve();
  }
  cleanup(): Promise<void> {
    this.cleanups++;
    for (let i = 0; i < this.out.length; i++) this.end(i, 'cleaned up');
    return Promise.resolve();
  }
}

const tick = (seq: number, requests: number): string =>
  tickLine(
    sampleFixture({ seq, elapsedSeconds: seq + 1, requests, totalRequests: 0, cpuPercent: 10 }),
    new Date(),
  );

function started(backend: FakeBackend, count: number) {
  const samples: Sample[] = [];
  let began = 0;
  const run = distributedTarget({ backend, count, startMarginMs: 30_000, now: () => 1_000_000 })(
    scenario(),
    0,
    { started: () => began++, sample: (s) => samples.push(s), reading: () => undefined, machine: () => undefined },
    { runId: 'run-1', appVersion: '0.0.0' },
  );
  return { run, samples, began: () => began };
}

function scenario() {
  return {
    version: 1 as const,
    name: 's',
    targets: [
      {
        name: '',
        url: 'http://127.0.0.1:1/',
        method: 'GET' as const,
        headers: [],
        body: { kind: 'none' as const },
        monitor: { kind: 'auto' as const },
      },
    ],
    load: runResultFixture().load,
    options: runResultFixture().options,
  } as Parameters<ReturnType<typeof distributedTarget>>[0];
}

const until = async (check: () => boolean): Promise<void> => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
};

describe('the distributed coordinator', () => {
  it('starts every shard at now + the margin, merges their ticks live and their results exactly, then cleans up', async () => {
    const backend = new FakeBackend();
    const { run, samples, began } = started(backend, 2);
    await until(() => backend.launch !== null);
    expect(backend.launch!.count).toBe(2);
    expect(backend.launch!.startAt).toBe(1_030_000);
    expect((JSON.parse(backend.launch!.planText) as { targets: unknown[] }).targets).toHaveLength(1);
    await until(() => began() === 1);

    backend.write(0, tick(0, 100));
    await new Promise((r) => setTimeout(r, 30));
    expect(samples).toHaveLength(0); // shard 1's first window not in yet
    backend.write(1, tick(0, 50));
    await until(() => samples.length === 1);
    expect(samples[0]).toMatchObject({ seq: 0, requests: 150, totalRequests: 150, cpuPercent: 20 });

    const a = shardResultFixture(0, 2, latencyValues(300, 1), 1.5);
    const b = shardResultFixture(1, 2, latencyValues(200, 2), 4);
    backend.write(0, resultLine(a));
    backend.end(0, null);
    backend.write(1, tick(1, 70));
    // Shard 0 ended: shard 1's window 1 goes out alone.
    await until(() => samples.length === 2);
    expect(samples[1]).toMatchObject({ seq: 1, requests: 70, totalRequests: 220 });
    backend.write(1, resultLine(b));
    backend.end(1, 'exit code 1: its target failed'); // a result was written: the exit code is not a failure

    const merged = (await run.done) as RunResult;
    expect(merged.requests.total).toBe(500);
    expect(merged.shards?.map((s) => [s.index, s.requests, s.startOffsetMs])).toEqual([
      [0, 300, 1.5],
      [1, 200, 4],
    ]);
    expect(backend.cleanups).toBe(1);
  });

  it('fails the run naming the shard and why when one ends without a result, and cleans up', async () => {
    const backend = new FakeBackend();
    const { run } = started(backend, 3);
    await until(() => backend.launch !== null);
    backend.write(0, tick(0, 10));
    backend.end(2, 'process 4242 was killed (SIGKILL)');
    await expect(run.done).rejects.toThrow('shard 2 failed: process 4242 was killed (SIGKILL)');
    expect(backend.cleanups).toBe(1);
  });

  it('fails a shard whose line is not a strict stream line, naming the field', async () => {
    const backend = new FakeBackend();
    const { run } = started(backend, 2);
    await until(() => backend.launch !== null);
    backend.write(1, `${JSON.stringify({ type: 'tick', at: 'x', sample: sampleFixture(), extra: 1 })}\n`);
    await expect(run.done).rejects.toThrow(
      /^shard 1 failed: wrote a line that is not a tick or a result: .*extra/,
    );
    expect(backend.cleanups).toBe(1);
  });

  it('on a stop, asks the shards to stop, merges what they measured and cleans up', async () => {
    const backend = new FakeBackend();
    const { run } = started(backend, 2);
    await until(() => backend.launch !== null);
    const stopping = run.stop();
    await until(() => backend.stops === 1);
    for (const i of [0, 1]) {
      const partial = shardResultFixture(i, 2, latencyValues(100, i + 3), 1, { status: 'cancelled' });
      backend.write(i, resultLine(partial));
      backend.end(i, 'process exited with code 130');
    }
    await stopping;
    const merged = (await run.done) as RunResult;
    expect(merged.status).toBe('cancelled');
    expect(merged.requests.total).toBe(200);
    expect(backend.cleanups).toBeGreaterThanOrEqual(1);
  });
});

describe('LiveTicks', () => {
  const s = (seq: number, requests: number, extra: Partial<Sample> = {}) =>
    sampleFixture({ seq, elapsedSeconds: seq + 1, requests, ...extra });

  it('emits a window once every running shard sent it, re-emits a replaced one, and keeps the running total', () => {
    const live = new LiveTicks(2);
    expect(live.add(0, s(0, 10))).toEqual([]);
    expect(live.add(0, s(1, 20))).toEqual([]);
    const first = live.add(1, s(0, 5));
    expect(first.map((x) => [x.seq, x.requests, x.totalRequests])).toEqual([[0, 15, 15]]);
    const second = live.add(1, s(1, 7));
    expect(second.map((x) => [x.seq, x.requests, x.totalRequests])).toEqual([[1, 27, 42]]);
    // Shard 1 folds its short last window into window 1: that window is sent again.
    const replaced = live.add(1, s(1, 9));
    expect(replaced.map((x) => [x.seq, x.requests, x.totalRequests])).toEqual([[1, 29, 44]]);
    // Shard 1 ended: shard 0's window 2 no longer waits.
    expect(live.add(0, s(2, 4))).toEqual([]);
    expect(live.end(1).map((x) => [x.seq, x.requests, x.totalRequests])).toEqual([[2, 4, 48]]);
  });

  it('takes the largest percentile of the shards (an upper bound) and the request-weighted mean', () => {
    const live = new LiveTicks(2);
    live.add(0, s(0, 100, { latency: { mean: 1, p50: 1, p90: 2, p99: 3, max: 4 } }));
    const [m] = live.add(1, s(0, 300, { latency: { mean: 3, p50: 2, p90: 5, p99: 9, max: 10 } }));
    expect(m!.latency).toEqual({ mean: 2.5, p50: 2, p90: 5, p99: 9, max: 10 });
  });
});
