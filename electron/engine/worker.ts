import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import type { RunResult, Sample } from '../../shared/model/result.ts';
import { describeIssues, issuesOf } from '../../shared/model/validation.ts';
import { CpuAccount } from './cpu.ts';
import { toWorkerSchema, runSpecSchema, type WorkerMessage } from './messages.ts';
import { preflight } from './preflight.ts';
import { failedResult, resultFromSamples, type EngineId } from './result.ts';
import { plannedEngine, selectRunner } from './runners.ts';
import { coordinate } from './shards/coordinator.ts';
import { backendOf } from './shards/links.ts';
import { warmCoordinatorTick } from './shards/tick-warmup.ts';
import { shardsFor } from './worker-count.ts';
import { placeWithin } from '../../shared/shards/plan.ts';
import { sendsOnSchedule, type RunSpec } from './types.ts';

/*
 * The engine worker: one per target run. It checks that the engine can run the scenario and
 * the target (pre-flight), splits the load into shards (one per engine worker, options.workers)
 * and coordinates them (shards/coordinator.ts): the first in this thread, each other in a
 * thread of its own (a scheduled run's first too: shards/links.ts backendOf). It posts one
 * Sample per tick and, at the end, the RunResult without its samples (the host has them). The
 * host may post { type: 'stop' } at any time; the run then ends within a tick, marked cancelled.
 */

function post(port: MessagePort, message: WorkerMessage): void {
  port.postMessage(message);
}

async function execute(
  spec: RunSpec,
  signal: AbortSignal,
  onSample: (s: Sample) => void,
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
  const run = coordinate({
    spec,
    // A machine's shard of a plan splits again into its own workers, placed within its schedule.
    shards: spec.placement ? placeWithin(spec.placement.shard, await shardsFor(spec)) : await shardsFor(spec),
    backendFor: (shard) => backendOf(shard, spec, cpu),
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

async function main(): Promise<void> {
  const port = parentPort;
  if (!port) throw new Error('worker.ts runs as a worker thread only');
  const parsed = runSpecSchema.safeParse(workerData);
  if (!parsed.success) throw new Error(`run spec is invalid: ${describeIssues(issuesOf(parsed.error))}`);
  const controller = new AbortController();
  port.on('message', (raw: unknown) => {
    if (toWorkerSchema.safeParse(raw).success) controller.abort();
  });
  const { samples: _sent, ...result } = await execute(parsed.data, controller.signal, (sample) =>
    post(port, { type: 'sample', sample }),
  );
  post(port, { type: 'result', result });
  port.close();
}

await main();
