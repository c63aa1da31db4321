import type { RunResult, Sample, TlsFacts } from '../../shared/model/result.ts';
import { placeWithin, type Shard } from '../../shared/shards/plan.ts';
import { CpuAccount } from './cpu.ts';
import type { ClassifiedError } from './errors.ts';
import { preflight } from './preflight/preflight.ts';
import { resultFromSamples, type EngineId, type TargetFacts } from './result.ts';
import { plannedEngine, selectLoadGenerator } from './load-generators.ts';
import { backendOf, type ShardBackend } from './shards/links.ts';
import { coordinate } from './shards/run-assembly.ts';
import { warmCoordinatorTick } from './shards/tick-warmup.ts';
import { shardsFor } from './worker-count.ts';
import { sendsOnSchedule, type RunSpec } from './types.ts';

/*
 * One target's run as the engine does it, in the thread it is called in: it checks that the
 * engine can run the scenario and the target (pre-flight), splits the load into shards (one per
 * engine worker, options.workers) and coordinates them (shards/coordinator.ts): the first in
 * this thread, each other in a thread of its own (a scheduled run's first too: shards/links.ts
 * backendOf). The engine worker (worker.ts) calls it, and the CLI for a tiny or scheduled run
 * in its own thread (run-here.ts); a machine's shard (electron/distributed/link-end.ts) runs the
 * same checks and the same split, its coordinator passing its windows up.
 */

/** The engine and the target checked, before any load: what a run needs to begin, or why it cannot. */
export type CheckedRun =
  | { ok: true; engine: EngineId; facts: TargetFacts }
  | { ok: false; engine: EngineId; error: ClassifiedError; stopped: boolean; tls: TlsFacts | null };

export async function checkRun(spec: RunSpec, signal: AbortSignal): Promise<CheckedRun> {
  let engine: EngineId = plannedEngine(spec.options);
  try {
    // Refused before any request: an engine that cannot run the scenario says so first.
    const generator = await selectLoadGenerator(spec);
    engine = { name: generator.name, version: generator.version };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return { ok: false, engine, error: { kind: 'other', message }, stopped: false, tls: null };
  }
  const checked = await preflight(spec, signal);
  if (!checked.ok) return { ...checked, engine };
  return { ok: true, engine, facts: checked.facts };
}

/** The run's shards in this process and where each runs; a machine's shard of a plan splits again, placed within its schedule. */
export async function engineShards(
  spec: RunSpec,
  excluded: readonly CpuAccount[],
): Promise<{ shards: Shard[]; backendFor: (shard: Shard) => ShardBackend }> {
  const split = await shardsFor(spec);
  return {
    shards: spec.placement ? placeWithin(spec.placement.shard, split) : split,
    backendFor: (shard) => backendOf(shard, spec, excluded),
  };
}

/**
 * Runs `spec` to its result (with its samples); `onSample` hears one Sample per tick, `signal`
 * stops it within a tick (the result is then marked cancelled). `hostCpu` is what the thread's
 * host charged to itself meanwhile (the CLI running a tiny run here): the first shard's CPU
 * figure leaves it out, as it leaves out the coordinator's.
 */
export async function executeRun(
  spec: RunSpec,
  signal: AbortSignal,
  onSample: (s: Sample) => void,
  hostCpu?: CpuAccount,
): Promise<RunResult> {
  const startedAt = new Date();
  const checked = await checkRun(spec, signal);
  if (!checked.ok) {
    const { engine, tls, stopped } = checked;
    return resultFromSamples(spec, stopped ? 'cancelled' : 'failed', stopped ? null : checked.error, {
      engine,
      startedAt,
      tls,
    });
  }

  const cpu = new CpuAccount();
  const run = coordinate({
    spec,
    ...(await engineShards(spec, hostCpu ? [cpu, hostCpu] : [cpu])),
    signal,
    onSample,
    engine: checked.engine,
    startedAt,
    facts: checked.facts,
    cpu,
    ...(checked.facts.roundTripMs === undefined ? {} : { roundTripMs: checked.facts.roundTripMs }),
  });
  // The coordinator's side of the tick, cold, took 10-20 ms at the first tick: run once now,
  // while the shards' threads start, as each shard runs its own side before it says ready.
  if (sendsOnSchedule(spec)) cpu.charge(warmCoordinatorTick);
  return run;
}
