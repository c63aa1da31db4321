import { addSample, type RunResult, type Sample } from '../../../shared/model/result.ts';
import type { CpuAccount } from '../cpu.ts';
import { Recorder } from '../recording/recorder.ts';
import { foldedCpu } from '../recording/sample-clock.ts';
import {
  cpuFacts,
  resultFromSamples,
  type CpuFacts,
  type CpuSample,
  type EngineId,
  type PartialFacts,
  type TargetFacts,
} from '../result.ts';
import { coordinateWith, type CoordinatorRun } from './coordinator.ts';
import type { Assembly, Completion, Member, Place, RunFailure, Starter } from './assembly.ts';
import { fromEpoch, toEpoch } from './messages.ts';
import { buildRunResult, shardMachineRows, shardFacts } from './results.ts';
import { addWarm } from './warm-facts.ts';

/*
 * What the coordinator (coordinator.ts) makes of a run for the host: one Sample per grid place
 * (its merged windows through the run's Recorder, the final one folded into the one before when
 * short: Recorder.tick), so the samples, the chart and the exports show the same windows
 * whatever the shard count; and the RunResult of the shards' reports (histograms added exactly,
 * counts summed, CPU per engine thread; a machine's shards add the Shards table).
 */

export interface CoordinatedRun extends CoordinatorRun {
  /** One call per Sample (a final fold comes again under the same seq). */
  onSample: (sample: Sample) => void;
  engine: EngineId;
  startedAt: Date;
  /** The pre-flight's facts; absent when the shards checked the target themselves (a machine's `ready` says them). */
  facts?: TargetFacts;
  /** The coordinator's own CPU is charged here (a shard in its thread leaves it out). */
  cpu: CpuAccount;
}

/** Runs the shards to one RunResult; never rejects (a failure is a result with status 'failed'). */
export function coordinate(run: CoordinatedRun): Promise<RunResult> {
  return coordinateWith(run, new RunAssembly(run));
}

class RunAssembly implements Assembly<RunResult> {
  readonly #run: CoordinatedRun;
  readonly #samples: Sample[] = [];
  /** The run's Sample maker: the merged windows go in, Samples (folds included) come out. */
  #recorder: Recorder | null = null;
  #measureStart = 0;
  /** The load's common start (performance.now() ms). */
  #gridStart = 0;
  /** Each member's CPU in each Sample, folded as the Samples are (the Samples carry the sum). */
  readonly #cpu: CpuSample[][] = [];

  constructor(run: CoordinatedRun) {
    this.#run = run;
  }

  /**
   * Every shard is ready: one start for all, a margin ahead so that each hears it in time; a
   * machine's shard of a plan split by hand (`--shard --start-at`) starts at the plan's common start, not before.
   */
  ready(coordinator: Starter): void {
    if (this.#run.signal.aborted) return;
    const margin = Math.max(...coordinator.members.map((m) => m.backend.startMarginMs));
    const soonest = performance.now() + margin;
    const planned = this.#run.spec.placement?.startAt;
    coordinator.start(planned === undefined ? soonest : Math.max(soonest, fromEpoch(planned)));
  }

  started(t0: number): void {
    const { options } = this.#run.spec;
    this.#gridStart = t0;
    this.#measureStart = t0;
    this.#recorder = new Recorder({
      sloMs: options.sloMs,
      warmup: options.warmupSeconds > 0,
      now: t0,
      settles: false,
    });
  }

  place(p: Place): void {
    const recorder = this.#recorder!;
    recorder.addWindow(p.window);
    const sample = recorder.tick(p.at, p.window.cpuPercent, p.final);
    const folded = sample.seq === this.#samples.at(-1)?.seq;
    for (const [i, cpuPercent] of p.cpus.entries()) {
      const cpu = (this.#cpu[i] ??= []);
      const entry = { warmup: sample.warmup, intervalSeconds: sample.intervalSeconds, cpuPercent };
      const before = cpu.at(-1);
      if (folded && before?.cpuPercent !== undefined) {
        entry.cpuPercent = foldedCpu(
          { ...before, cpuPercent: before.cpuPercent },
          entry.intervalSeconds,
          cpuPercent,
        );
        cpu[cpu.length - 1] = entry;
      } else {
        cpu.push(entry);
      }
    }
    if (p.endsWarmup) {
      recorder.startMeasuring();
      this.#measureStart = p.at;
    }
    addSample(this.#samples, sample);
    this.#run.onSample(sample);
  }

  /** Every shard reported (or was lost): the result of the reports, and the Shards table of a machine's shards. */
  complete({ end, failure, members, reported }: Completion): RunResult {
    const { spec, signal, cpu } = this.#run;
    const reports = reported.map((m) => m.report);
    const machines = reported.some((m) => m.machine !== null);
    const measuredSeconds = this.#recorder!.measuring ? (end - this.#measureStart) / 1000 : 0;
    const result = buildRunResult({
      spec,
      status: failure !== null ? 'failed' : signal.aborted ? 'cancelled' : 'completed',
      error: failure === null ? null : markedFailure(failure, members, reported.length),
      measuredSeconds,
      reports,
      coordinatorCpu: cpu,
      ...(machines ? { part: 'shard' as const } : {}),
      ...this.#runFacts(members, reported),
    });
    addWarm(
      result,
      members.flatMap((m) => (m.warm === null ? [] : [m.warm])),
    );
    const { placement } = spec;
    const planned = placement?.startAt;
    if (placement && planned !== undefined) {
      const startedAt = Math.max(...reported.map((m) => m.startedAt));
      const facts = shardFacts(
        { ...placement, startAt: planned },
        reports,
        toEpoch(this.#gridStart),
        toEpoch(startedAt),
      );
      result.shard = facts;
    }
    if (machines) result.shards = shardMachineRows(reported, measuredSeconds);
    return result;
  }

  abandoned(
    status: 'cancelled' | 'failed',
    failure: RunFailure | null,
    members: readonly Member[],
  ): RunResult {
    return resultFromSamples(this.#run.spec, status, failure, {
      ...this.#runFacts(members, members),
      coordinatorCpuSeconds: this.#run.cpu.seconds,
    });
  }

  /** What a full and a partial result both say of the run: engine, times, samples, target, each engine thread's CPU. */
  #runFacts(members: readonly Member[], counted: readonly Member[]) {
    const { engine, startedAt, spec } = this.#run;
    const facts = this.#run.facts ?? members.find((m) => m.target !== null)?.target ?? null;
    // A shard that never sent a window (the run abandoned before its load) has no CPU figure.
    const workerCpu: CpuFacts[] = counted.flatMap((m) => {
      if (m.machine) return m.machine.workers;
      const cpu = this.#cpu[m.index];
      return cpu ? [cpuFacts(cpu, spec.options.sampleIntervalMs)] : [];
    });
    return {
      engine,
      startedAt,
      endedAt: new Date(),
      samples: this.#samples,
      tls: facts?.tls ?? null,
      server: facts?.server ?? null,
      ...(workerCpu.length > 0 ? { workerCpu } : {}),
    } satisfies PartialFacts;
  }
}

/** A run that lost a shard keeps what the others measured, and says whose load is missing. */
function markedFailure(failure: RunFailure, members: readonly Member[], reported: number): RunFailure {
  if (reported === members.length) return failure;
  return {
    ...failure,
    message: `${failure.message}; the result holds the other ${reported} of ${members.length}`,
  };
}
