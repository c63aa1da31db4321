import { Worker } from 'node:worker_threads';
import { addSample, type RunResult, type Sample } from '../../shared/model/result.ts';
import { mergeWindows, type ShardReport, type ShardWindow } from '../../shared/shards/merge.ts';
import type { Shard } from '../../shared/shards/plan.ts';
import { describeIssues, issuesOf } from '../../shared/model/validation.ts';
import { Recorder } from './recorder.ts';
import {
  cpuFacts,
  resultFromSamples,
  runResult,
  type CpuFacts,
  type EngineId,
  type TargetFacts,
} from './result.ts';
import { SampleClock } from './sample-clock.ts';
import { fromEpoch, fromShardSchema, toEpoch, type ShardData, type ToShard } from './shard-messages.ts';
import { mergedOutcome, mergedTotals } from './shard-results.ts';
import { runShard } from './shard-run.ts';
import type { RunSpec } from './types.ts';
import { engineWorkerOptions } from './worker-options.ts';

// The same entry as the engine worker, with the same thread options (worker-options.ts).
const SHARD_URL = new URL(
  import.meta.url.endsWith('.ts') ? './worker-main.ts' : './worker-main.js',
  import.meta.url,
);

/** Time the shards get between `start` and the load's start, so they begin together. */
const START_MARGIN_MS = 20;

export interface PoolRun {
  spec: RunSpec;
  shards: Shard[];
  signal: AbortSignal;
  onSample: (sample: Sample) => void;
  engine: EngineId;
  startedAt: Date;
  facts: TargetFacts;
}

/** How the coordinator talks to a shard: a worker thread's port, or calls in this thread. */
interface ShardLink {
  send(message: ToShard): void;
  /** Ends the shard: terminates its thread, or stops the one here. */
  end(): void;
}

/** One shard and what it said. */
interface Member {
  link: ShardLink;
  ready: boolean;
  loadEndedAt: number | null;
  window: ShardWindow | null;
  report: ShardReport | null;
  /** Its CPU per window, for the per-worker figures (the samples carry the sum). */
  cpu: Pick<Sample, 'warmup' | 'cpuPercent' | 'intervalSeconds'>[];
}

/**
 * A run split across worker threads, one per shard (shard 0 in the engine worker itself),
 * coordinated from the engine worker: it keeps the run's clock and recorder, starts the shards together, asks them all for their
 * window at each tick and merges the windows into one Sample (one seq for all), and at the
 * end merges their reports into one RunResult (histograms added exactly, counts summed,
 * CPU per worker). A shard that fails fails the run, with what the samples measured.
 */
export function runShards(run: PoolRun): Promise<RunResult> {
  return new Promise<RunResult>((resolve) => new Pool(run, resolve).begin());
}

class Pool {
  readonly #run: PoolRun;
  readonly #resolve: (r: RunResult) => void;
  readonly #members: Member[] = [];
  readonly #samples: Sample[] = [];
  #recorder: Recorder | null = null;
  #clock: SampleClock | null = null;
  #warmupTimer: NodeJS.Timeout | undefined;
  #measureStart = 0;
  #lastTickAt = 0;
  /** The tick waiting for the shards' windows, and one asked for meanwhile (warm-up's end). */
  #pending: { at: number; measure: boolean } | null = null;
  #queued: boolean | null = null;
  #finishing: number | null = null;
  #settled = false;

  constructor(run: PoolRun, resolve: (r: RunResult) => void) {
    this.#run = run;
    this.#resolve = resolve;
  }

  begin(): void {
    const { spec, shards, signal } = this.#run;
    for (const shard of shards) {
      const data: ShardData = { spec: { ...spec, load: shard.load }, shard };
      const m: Member = { link: null!, ready: false, loadEndedAt: null, window: null, report: null, cpu: [] };
      this.#members.push(m);
      // Shard 0 runs in this thread, beside the coordination (as one worker runs its load): one
      // isolate, its heap and its module loading fewer than a thread per shard.
      m.link = shard.index === 0 ? this.#local(m, data) : this.#thread(m, data);
      if (this.#settled) return;
    }
    if (signal.aborted) this.#stop();
    else signal.addEventListener('abort', () => this.#stop(), { once: true });
  }

  #post(message: ToShard): void {
    for (const m of this.#members) m.link.send(message);
  }

  /** The shard in this thread: its messages arrive on a later turn, as a port's would. */
  #local(m: Member, data: ShardData): ShardLink {
    const handle = runShard(
      data,
      (msg) => setImmediate(() => this.#onMessage(m, msg)),
      () => undefined,
    );
    return { send: handle, end: () => handle({ type: 'stop' }) };
  }

  #thread(m: Member, data: ShardData): ShardLink {
    const n = data.shard.index + 1;
    let worker: Worker;
    try {
      worker = new Worker(SHARD_URL, engineWorkerOptions(data));
    } catch (err) {
      this.#fail(`engine worker ${n} could not start: ${String(err)}`);
      return { send: () => undefined, end: () => undefined };
    }
    worker.on('message', (raw: unknown) => this.#onMessage(m, raw));
    worker.on('error', (err: Error) => this.#fail(`engine worker ${n} crashed: ${err.message}`));
    worker.on('exit', (code) => {
      if (m.report === null) this.#fail(`engine worker ${n} exited (code ${code}) before reporting`);
    });
    return { send: (msg) => worker.postMessage(msg), end: () => void worker.terminate() };
  }

  #onMessage(m: Member, raw: unknown): void {
    if (this.#settled) return;
    const parsed = fromShardSchema.safeParse(raw);
    if (!parsed.success) {
      this.#fail(`an engine worker sent a malformed message: ${describeIssues(issuesOf(parsed.error))}`);
      return;
    }
    const msg = parsed.data;
    switch (msg.type) {
      case 'ready':
        m.ready = true;
        if (this.#members.every((x) => x.ready)) this.#start();
        return;
      case 'window':
        m.window = msg.window;
        if (this.#pending && this.#members.every((x) => x.window !== null)) this.#closeTick();
        return;
      case 'done':
        m.loadEndedAt = fromEpoch(msg.loadEndedAt);
        this.#maybeFinish();
        return;
      case 'report':
        m.window = msg.window;
        m.report = msg.report;
        if (this.#members.every((x) => x.report !== null)) this.#complete();
        return;
      case 'failed':
        this.#fail(msg.message);
    }
  }

  #start(): void {
    const { spec, signal } = this.#run;
    if (signal.aborted) return;
    const t0 = performance.now() + START_MARGIN_MS;
    const warmupMs = spec.options.warmupSeconds * 1000;
    this.#recorder = new Recorder({ sloMs: spec.options.sloMs, warmup: warmupMs > 0, now: t0 });
    this.#measureStart = t0;
    this.#lastTickAt = t0;
    this.#post({ type: 'start', at: toEpoch(t0) });
    this.#clock = new SampleClock(spec.options.sampleIntervalMs, () => this.#tick(false));
    this.#clock.begin(t0);
    if (warmupMs > 0) {
      this.#warmupTimer = setTimeout(() => this.#tick(true), t0 + warmupMs - performance.now());
    }
  }

  /** Asks every shard for its window; the end of the warm-up waits for a tick in progress. */
  #tick(measure: boolean): void {
    if (this.#finishing !== null || this.#settled) return;
    if (this.#pending) {
      if (measure) this.#queued = true;
      return;
    }
    const at = performance.now();
    this.#pending = { at, measure };
    this.#post({ type: 'tick', measure, at: toEpoch(at) });
  }

  /** Every shard's window is in: one Sample of them all. */
  #closeTick(): void {
    const pending = this.#pending!;
    this.#pending = null;
    this.#addSample(pending.at, false);
    if (pending.measure) {
      this.#recorder!.startMeasuring();
      this.#measureStart = pending.at;
      this.#clock!.begin(pending.at);
    }
    if (this.#queued !== null) {
      this.#queued = null;
      this.#tick(true);
    } else {
      this.#maybeFinish();
    }
  }

  #addSample(at: number, final: boolean): void {
    const recorder = this.#recorder!;
    const windows = this.#members.map((m) => m.window!);
    const merged = mergeWindows(windows);
    const from = this.#lastTickAt;
    recorder.addWindow(merged);
    const sample = recorder.tick(at, merged.cpuPercent, final);
    const intervalSeconds = Math.max((at - from) / 1000, 1e-3);
    for (const [i, m] of this.#members.entries()) {
      m.cpu.push({ warmup: sample.warmup, cpuPercent: windows[i]!.cpuPercent, intervalSeconds });
      m.window = null;
    }
    this.#lastTickAt = at;
    addSample(this.#samples, sample);
    this.#run.onSample(sample);
  }

  /** Once every shard's load is over (and no tick waits): the last windows and the reports. */
  #maybeFinish(): void {
    if (this.#finishing !== null || this.#pending || this.#queued !== null) return;
    if (!this.#members.every((m) => m.loadEndedAt !== null)) return;
    this.#clock?.stop();
    clearTimeout(this.#warmupTimer);
    const endedAt = Math.max(...this.#members.map((m) => m.loadEndedAt!));
    // As in one worker: the final window stops where the load ended, never before the last tick.
    this.#finishing = Math.min(performance.now(), Math.max(endedAt, this.#lastTickAt));
    this.#post({ type: 'finish' });
  }

  #complete(): void {
    const end = this.#finishing!;
    const { spec, signal } = this.#run;
    this.#addSample(end, true);
    const recorder = this.#recorder!;
    const reports = this.#members.map((m) => m.report!);
    const measuredSeconds = recorder.measuring ? (end - this.#measureStart) / 1000 : 0;
    this.#settle(
      runResult(spec, mergedTotals(reports, measuredSeconds), {
        status: signal.aborted ? 'cancelled' : 'completed',
        error: null,
        ...this.#runFacts(),
        outcome: mergedOutcome(reports, spec, end),
        warnings: [],
      }),
    );
  }

  #stop(): void {
    if (this.#settled) return;
    if (this.#recorder === null) {
      // Stopped before the load began: nothing to wait for.
      this.#settle(this.#partial('cancelled', null));
      return;
    }
    this.#post({ type: 'stop' });
  }

  #fail(message: string): void {
    if (this.#settled) return;
    const stopped = this.#run.signal.aborted;
    this.#settle(this.#partial(stopped ? 'cancelled' : 'failed', stopped ? null : message));
  }

  #partial(status: RunResult['status'], message: string | null): RunResult {
    const error = message === null ? null : { kind: 'other' as const, message };
    return resultFromSamples(this.#run.spec, status, error, this.#runFacts());
  }

  /** What a full and a partial result both say of the run: engine, times, samples, target, each worker's CPU. */
  #runFacts() {
    const { engine, startedAt, facts, spec } = this.#run;
    return {
      engine,
      startedAt,
      endedAt: new Date(),
      samples: this.#samples,
      tls: facts.tls,
      server: facts.server,
      workerCpu: this.#members.map((m): CpuFacts => cpuFacts(m.cpu, spec.options.sampleIntervalMs)),
    };
  }

  #settle(result: RunResult): void {
    this.#settled = true;
    this.#clock?.stop();
    clearTimeout(this.#warmupTimer);
    for (const m of this.#members) m.link.end();
    this.#resolve(result);
  }
}
