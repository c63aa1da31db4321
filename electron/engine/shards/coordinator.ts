import { addSample, type RunResult, type Sample, type WarmFacts } from '../../../shared/model/result.ts';
import { describeIssues, issuesOf } from '../../../shared/model/validation.ts';
import { mergeWindows, type ShardReport, type ShardWindow } from '../../../shared/shards/merge.ts';
import type { Shard } from '../../../shared/shards/plan.ts';
import { shardSequence, type SendSequence } from '../../../shared/model/request-list.ts';
import type { CpuAccount } from '../cpu.ts';
import { Recorder } from '../recorder.ts';
import { foldedCpu } from '../sample-clock.ts';
import {
  cpuFacts,
  resultFromSamples,
  type CpuSample,
  type EngineId,
  type PartialFacts,
  type TargetFacts,
} from '../result.ts';
import type { RunSpec } from '../types.ts';
import type { ShardBackend, ShardLink } from './links.ts';
import { fromEpoch, fromShardSchema, toEpoch, type FromShard, type ToShard } from './messages.ts';
import { buildRunResult, shardFacts } from './results.ts';
import { addWarm } from './warm-facts.ts';

/*
 * The coordinator of every run: one shard (one worker, in this thread) or several (worker
 * threads; later processes or pods), each reached through a link (links.ts). It starts them
 * together, turns their windows into the run's Samples (one per place on the grid, all shards'
 * windows of it merged, one seq), and merges their reports into the RunResult (histograms
 * added exactly, counts summed, CPU per worker). The final Sample closes where the last
 * shard's load ended and is folded into the one before when short (Recorder.tick), so the
 * samples, the chart and the exports show the same windows whatever the shard count.
 */

export interface CoordinatedRun {
  spec: RunSpec;
  /** The load split into shards (shared/shards/plan.ts), one or more. */
  shards: Shard[];
  /** Where each shard runs. */
  backendFor: (shard: Shard) => ShardBackend;
  signal: AbortSignal;
  /** One call per Sample (a final fold comes again under the same seq). */
  onSample: (sample: Sample) => void;
  engine: EngineId;
  startedAt: Date;
  facts: TargetFacts;
  /** The coordinator's own CPU is charged here (a shard in its thread leaves it out). */
  cpu: CpuAccount;
}

/** A shard's window as it arrived, until it goes into a Sample. */
interface Arrived {
  index: number;
  /** performance.now() when it closed, and its length (from the shard's window before). */
  at: number;
  seconds: number;
  endsWarmup: boolean;
  window: ShardWindow;
}

interface Member {
  /** 1-based, as the messages name engine workers. */
  n: number;
  link: ShardLink;
  ready: boolean;
  queue: Arrived[];
  /** Grid index of its latest window; Infinity once its report is in. */
  frontier: number;
  lastAt: number;
  /** At its latest window's end: requests in flight, connections carrying load. */
  inFlight: number;
  connections: number | undefined;
  report: ShardReport | null;
  /** Where its last window closed: where its load ended. */
  endAt: number;
  /** Its CPU in each Sample, folded as the Samples are (the Samples carry the sum). */
  cpu: CpuSample[];
  /** Where its load began (its report says), performance.now() ms. */
  startedAt: number;
  /** Its warm phase, as its `ready` said; null without one. */
  warm: WarmFacts | null;
}

/** Runs the shards to one RunResult; never rejects (a failure is a result with status 'failed'). */
export function coordinate(run: CoordinatedRun): Promise<RunResult> {
  return new Promise<RunResult>((resolve) => new Coordinator(run, resolve).begin());
}

class Coordinator {
  readonly #run: CoordinatedRun;
  readonly #resolve: (r: RunResult) => void;
  readonly #members: Member[] = [];
  readonly #samples: Sample[] = [];
  #startMarginMs = 0;
  /** The run's Sample maker: the shards' merged windows go in, Samples (folds included) come out. */
  #recorder: Recorder | null = null;
  #measureStart = 0;
  /** The load's common start (performance.now() ms). */
  #gridStart = 0;
  #lastTickAt = 0;
  /** Grid index of the latest Sample. */
  #lastIndex = 0;
  /** A shard's runner broke down: the others are stopped and the result says so. */
  #failure: string | null = null;
  #settled = false;

  constructor(run: CoordinatedRun, resolve: (r: RunResult) => void) {
    this.#run = run;
    this.#resolve = resolve;
  }

  begin(): void {
    const { spec, shards, signal, cpu } = this.#run;
    cpu.charge(() => {
      for (const shard of shards) {
        const i = this.#members.length;
        const backend = this.#run.backendFor(shard);
        this.#startMarginMs = Math.max(this.#startMarginMs, backend.startMarginMs);
        // A link says nothing before open returns (its messages come on a later turn).
        const link = backend.open(
          {
            spec: { ...spec, load: shard.load, sequence: sendsOf(shard, spec) },
            shard,
            ...(this.#run.facts.roundTripMs === undefined
              ? {}
              : { roundTripMs: this.#run.facts.roundTripMs }),
          },
          {
            message: (raw) => cpu.charge(() => this.#onMessage(this.#members[i]!, raw)),
            lost: (reason) => cpu.charge(() => this.#lost(this.#members[i]!, reason)),
          },
        );
        this.#members.push({
          n: i + 1,
          link,
          ready: false,
          queue: [],
          frontier: 0,
          lastAt: 0,
          inFlight: 0,
          connections: undefined,
          report: null,
          endAt: 0,
          cpu: [],
          startedAt: 0,
          warm: null,
        });
      }
    });
    if (signal.aborted) this.#stop();
    else signal.addEventListener('abort', () => cpu.charge(() => this.#stop()), { once: true });
  }

  #post(message: ToShard): void {
    for (const m of this.#members) m.link.send(message);
  }

  #onMessage(m: Member, raw: unknown): void {
    if (this.#settled) return;
    const parsed = fromShardSchema.safeParse(raw);
    if (!parsed.success) {
      this.#fail(`engine worker ${m.n} sent a malformed message: ${describeIssues(issuesOf(parsed.error))}`);
      return;
    }
    const msg = parsed.data;
    if (msg.type === 'ready') {
      m.ready = true;
      m.warm = msg.warm ?? null;
      if (this.#recorder === null && this.#members.every((x) => x.ready)) this.#start();
      return;
    }
    if (msg.type === 'failed') {
      this.#fail(msg.message);
      return;
    }
    if (this.#recorder === null || m.frontier === Infinity) {
      this.#fail(`engine worker ${m.n} sent a ${msg.type} out of turn`);
      return;
    }
    this.#arrive(m, msg);
    if (msg.type === 'report') {
      m.report = msg.report;
      m.startedAt = fromEpoch(msg.startedAt);
      m.endAt = m.lastAt;
      m.frontier = Infinity;
      if (msg.failure !== null && this.#failure === null) {
        this.#failure = msg.failure;
        this.#post({ type: 'stop' });
      }
    }
    this.#advance();
  }

  #arrive(m: Member, msg: Extract<FromShard, { type: 'window' | 'report' }>): void {
    const at = fromEpoch(msg.at);
    m.queue.push({
      index: msg.index,
      at,
      seconds: Math.max(0, (at - m.lastAt) / 1000),
      endsWarmup: msg.type === 'window' && msg.endsWarmup,
      window: msg.window,
    });
    m.lastAt = at;
    m.frontier = msg.index;
  }

  /**
   * Every shard is ready: one start for all, a margin ahead so that each hears it in time; a
   * machine's shard of a plan starts at the plan's common start, not before.
   */
  #start(): void {
    const { spec, signal } = this.#run;
    if (signal.aborted) return;
    const soonest = performance.now() + this.#startMarginMs;
    const t0 = spec.placement ? Math.max(soonest, fromEpoch(spec.placement.startAt)) : soonest;
    this.#gridStart = t0;
    this.#recorder = new Recorder({
      sloMs: spec.options.sloMs,
      warmup: spec.options.warmupSeconds > 0,
      now: t0,
    });
    this.#measureStart = t0;
    this.#lastTickAt = t0;
    for (const m of this.#members) m.lastAt = t0;
    this.#post({ type: 'start', at: toEpoch(t0) });
  }

  /**
   * A grid place every running shard has sent its window for (or gone past) makes a Sample of
   * the windows up to it; once every shard has reported, the final Sample takes what is left.
   */
  #advance(): void {
    const upTo = Math.min(...this.#members.map((m) => m.frontier));
    if (upTo === Infinity) this.#complete();
    else if (upTo > this.#lastIndex) this.#sample(upTo, null);
  }

  /** The Sample of every queued window up to grid index `upTo`; the final one when `end` is given. */
  #sample(upTo: number, end: number | null): void {
    const recorder = this.#recorder!;
    const taken = this.#members.map((m) => {
      const count = m.queue.findIndex((a) => a.index > upTo);
      const t = m.queue.splice(0, count < 0 ? m.queue.length : count);
      const last = t.at(-1);
      if (last) {
        m.inFlight = last.window.inFlight;
        m.connections = last.window.connections;
      }
      return t;
    });
    const all = taken.flat();
    const at = end ?? Math.max(this.#lastTickAt, ...all.map((a) => a.at));
    const cpus = taken.map(cpuOver);
    const connections = this.#members.flatMap((m) => (m.connections === undefined ? [] : [m.connections]));
    const merged: ShardWindow = {
      ...mergeWindows(all.map((a) => a.window)),
      // Each shard's latest state, whether or not it sent a window for this place.
      inFlight: this.#members.reduce((n, m) => n + m.inFlight, 0),
      cpuPercent: cpus.reduce((a, b) => a + b, 0),
    };
    delete merged.connections;
    if (connections.length > 0) merged.connections = connections.reduce((a, b) => a + b, 0);
    recorder.addWindow(merged);
    const sample = recorder.tick(at, merged.cpuPercent, end !== null);
    const folded = sample.seq === this.#samples.at(-1)?.seq;
    for (const [i, m] of this.#members.entries()) {
      const entry = { warmup: sample.warmup, intervalSeconds: sample.intervalSeconds, cpuPercent: cpus[i]! };
      const before = m.cpu.at(-1);
      if (folded && before?.cpuPercent !== undefined) {
        entry.cpuPercent = foldedCpu(
          { ...before, cpuPercent: before.cpuPercent },
          entry.intervalSeconds,
          cpus[i]!,
        );
        m.cpu[m.cpu.length - 1] = entry;
      } else {
        m.cpu.push(entry);
      }
    }
    if (all.some((a) => a.endsWarmup)) {
      recorder.startMeasuring();
      this.#measureStart = at;
    }
    this.#lastTickAt = at;
    this.#lastIndex = upTo;
    addSample(this.#samples, sample);
    this.#run.onSample(sample);
  }

  /** Every shard has reported: the final Sample where the last load ended, then the result. */
  #complete(): void {
    const end = Math.max(this.#lastTickAt, ...this.#members.map((m) => m.endAt));
    this.#sample(Infinity, end);
    const { spec, signal, cpu } = this.#run;
    const failure = this.#failure;
    const reports = this.#members.map((m) => m.report!);
    const result = buildRunResult({
      spec,
      status: failure !== null ? 'failed' : signal.aborted ? 'cancelled' : 'completed',
      error: failure === null ? null : { kind: 'other', message: failure },
      measuredSeconds: this.#recorder!.measuring ? (end - this.#measureStart) / 1000 : 0,
      reports,
      coordinatorCpu: cpu,
      ...this.#runFacts(),
    });
    addWarm(
      result,
      this.#members.flatMap((m) => (m.warm === null ? [] : [m.warm])),
    );
    if (spec.placement) {
      const startedAt = Math.max(...this.#members.map((m) => m.startedAt));
      result.shard = shardFacts(spec.placement, reports, toEpoch(this.#gridStart), toEpoch(startedAt));
    }
    this.#settle(result);
  }

  #stop(): void {
    if (this.#settled) return;
    // Stopped before the load began: nothing to wait for.
    if (this.#recorder === null) this.#settle(this.#partial('cancelled', null));
    else this.#post({ type: 'stop' });
  }

  #lost(m: Member, reason: string): void {
    if (m.report === null) this.#fail(`engine worker ${m.n} ${reason}`);
  }

  /** A shard is gone or could not run: the result is what the samples measured. */
  #fail(message: string): void {
    if (this.#settled) return;
    const stopped = this.#run.signal.aborted;
    this.#settle(this.#partial(stopped ? 'cancelled' : 'failed', stopped ? null : message));
  }

  #partial(status: RunResult['status'], message: string | null): RunResult {
    const error = message === null ? null : { kind: 'other' as const, message };
    return resultFromSamples(this.#run.spec, status, error, {
      ...this.#runFacts(),
      coordinatorCpuSeconds: this.#run.cpu.seconds,
    });
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
      workerCpu: this.#members.map((m) => cpuFacts(m.cpu, spec.options.sampleIntervalMs)),
    } satisfies PartialFacts;
  }

  #settle(result: RunResult): void {
    if (this.#settled) return;
    this.#settled = true;
    for (const m of this.#members) m.link.close();
    this.#resolve(result);
  }
}

/** A shard's CPU over its windows in one Sample, each weighted by its length (0 without one). */
function cpuOver(windows: readonly Arrived[]): number {
  const seconds = windows.reduce((a, w) => a + w.seconds, 0);
  if (seconds === 0) return windows.at(-1)?.window.cpuPercent ?? 0;
  return windows.reduce((a, w) => a + w.window.cpuPercent * w.seconds, 0) / seconds;
}

/** Which of the run's sends a shard makes: its place among the run's shards, within its machine's place. */
function sendsOf(shard: Shard, spec: RunSpec): SendSequence {
  const machine = spec.placement?.shard;
  return shardSequence(shard.index, shard.count, machine && shardSequence(machine.index, machine.count));
}
