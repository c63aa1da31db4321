import { performance } from 'node:perf_hooks';
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { addSample, type RunResult, type Sample } from '../../shared/model/result.ts';
import { describeIssues, issuesOf } from '../../shared/model/validation.ts';
import { cpuMeter } from './cpu.ts';
import { classifyError } from './errors.ts';
import { toWorkerSchema, runSpecSchema, type WorkerMessage } from './messages.ts';
import { preflight } from './preflight.ts';
import { Recorder } from './recorder.ts';
import { buildRunResult, failedResult, resultFromSamples, type EngineId } from './result.ts';
import { plannedEngine, selectRunner } from './runners.ts';
import { SampleClock } from './sample-clock.ts';
import { shardsFor } from './worker-count.ts';
import { runShards } from './worker-pool.ts';
import { emptyOutcome, type Runner, type RunnerOutcome, type RunSpec } from './types.ts';

/*
 * The engine worker: one per target run. It checks the target (pre-flight), runs the load
 * through a runner, posts one Sample per tick and one RunResult at the end. The host may
 * post { type: 'stop' } at any time; the run then ends within a tick, marked cancelled.
 * Ticks follow SampleClock's grid; the last Sample (final: true) closes the window at the
 * load's end, and the recorder folds it into the window before when it is short (see
 * Recorder.tick), so what the worker posts is what the chart and the exports show. A run
 * split across several workers (options.workers) is coordinated from here instead (see
 * worker-pool.ts); one worker runs the load in this thread, as it always did.
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
  let runner: Runner;
  try {
    runner = await selectRunner(spec);
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
      {
        engine,
        startedAt,
        tls: checked.tls,
      },
    );
  }

  // Several workers: this thread coordinates the shards (worker-pool.ts); one runs the load here.
  const shards = await shardsFor(spec);
  if (shards.length > 1) {
    return runShards({ spec, shards, signal, onSample, engine, startedAt, facts: checked.facts });
  }

  const warmupMs = spec.options.warmupSeconds * 1000;
  const t0 = performance.now();
  const recorder = new Recorder({ sloMs: spec.options.sloMs, warmup: warmupMs > 0, now: t0 });
  const samples: Sample[] = [];
  const cpu = cpuMeter();
  let lastTickAt = t0;
  /** Closes the window at `at` (the final one: when the load ended, maybe just before now). */
  const tick = (at: number, final = false): void => {
    // CPU over the wall time it was spent in, which for the final tick runs past `at`.
    const sample = recorder.tick(at, cpu(), final);
    lastTickAt = at;
    addSample(samples, sample);
    onSample(sample);
  };

  const clock = new SampleClock(spec.options.sampleIntervalMs, () => tick(performance.now()));
  let measureStart = t0;
  let warmupTimer: NodeJS.Timeout | undefined;
  let warmupEnded: () => void = () => undefined;
  const warmupDone = new Promise<void>((resolve) => (warmupEnded = resolve));
  if (warmupMs > 0) {
    clock.begin(t0);
    warmupTimer = setTimeout(() => {
      // The warm-up's last window closes before measuring starts, so it stays out of the totals;
      // the measured time starts at that window's end (nothing can finish in between).
      measureStart = performance.now();
      tick(measureStart);
      recorder.startMeasuring();
      clock.begin(measureStart);
      warmupEnded();
    }, warmupMs);
  } else {
    clock.begin(t0);
    warmupEnded();
  }

  let outcome: RunnerOutcome;
  let failure: string | null = null;
  try {
    outcome = await runner.run({
      spec,
      recorder,
      signal,
      warmupSeconds: spec.options.warmupSeconds,
      warmupDone,
    });
  } catch (err) {
    outcome = emptyOutcome();
    failure = `the ${engine.name} engine broke down: ${classifyError(err).message}`;
  }
  clock.stop();
  clearTimeout(warmupTimer);
  // The final window and the measured time stop where the load ended, not after the runner's
  // summary work; never before the last tick, never after now.
  const end = Math.min(performance.now(), Math.max(outcome.loadEndedAt ?? Infinity, lastTickAt));
  tick(end, true);

  const result = buildRunResult({
    spec,
    status: signal.aborted ? 'cancelled' : 'completed',
    startedAt,
    endedAt: new Date(),
    measuredSeconds: recorder.measuring ? (end - measureStart) / 1000 : 0,
    recorder,
    outcome,
    samples,
    engine,
    facts: checked.facts,
  });
  return failure === null
    ? result
    : { ...result, status: 'failed', error: { kind: 'other', message: failure } };
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
  const result = await execute(parsed.data, controller.signal, (sample) =>
    post(port, { type: 'sample', sample }),
  );
  post(port, { type: 'result', result });
  port.close();
}

await main();
