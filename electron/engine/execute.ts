import type { RunResult, Sample } from '../../shared/model/result.ts';
import { placeWithin } from '../../shared/shards/plan.ts';
import { CpuAccount } from './cpu.ts';
import { preflight } from './preflight.ts';
import { failedResult, resultFromSamples, type EngineId } from './result.ts';
import { plannedEngine, selectRunner } from './runners.ts';
import { coordinate } from './shards/coordinator.ts';
import { backendOf } from './shards/links.ts';
import { warmCoordinatorTick } from './shards/tick-warmup.ts';
import { shardsFor } from './worker-count.ts';
import { sendsOnSchedule, type RunSpec } from './types.ts';

/*
 * One target's run as the engine does it, in the thread it is called in: it checks that the
 * engine can run the scenario and the target (pre-flight), splits the load into shards (one per
 * engine worker, options.workers) and coordinates them (shards/coordinator.ts): the first in
 * this thread, each other in a thread of its own (a scheduled run's first too: shards/links.ts
 * backendOf). The engine worker (worker.ts) calls it, and the CLI for a tiny or scheduled run
 * in its own thread (run-here.ts).
 */

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
  let engine: EngineId = plannedEngine(spec.options);
  try {
    // Refused before any request: an engine that cannot run the scenario says so first.
    const runner = await selectRunner(spec);
    engine = { name: runner.name, version: runner.version };
  } catch (err) {
    return failedResult(
      spec,
      { kind: 'other', message: err instanceof Error ? err.message : String(err) },
      { engine, startedAt },
    );
  }

  const checked = await preflight(spec, signal);
  if (!checked.ok) {
    return resultFromSamples(
      spec,
      checked.stopped ? 'cancelled' : 'failed',
      checked.stopped ? null : checked.error,
      { engine, startedAt, tls: checked.tls },
    );
  }

  const cpu = new CpuAccount();
  const excluded = hostCpu ? [cpu, hostCpu] : [cpu];
  const run = coordinate({
    spec,
    // A machine's shard of a plan splits again into its own workers, placed within its schedule.
    shards: spec.placement ? placeWithin(spec.placement.shard, await shardsFor(spec)) : await shardsFor(spec),
    backendFor: (shard) => backendOf(shard, spec, excluded),
    signal,
    onSample,
    engine,
    startedAt,
    facts: checked.facts,
    cpu,
  });
  // The coordinator's side of the tick, cold, took 10-20 ms at the first tick: run once now,
  // while the shards' threads start, as each shard runs its own side before it says ready.
  if (sendsOnSchedule(spec)) cpu.charge(warmCoordinatorTick);
  return run;
}
