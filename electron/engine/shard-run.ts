import type { ShardReport } from '../../shared/shards/merge.ts';
import { cpuMeter } from './cpu.ts';
import { classifyError } from './errors.ts';
import { Recorder } from './recorder.ts';
import { recorderTotals } from './run-totals.ts';
import { selectRunner } from './runners.ts';
import { fromEpoch, toEpoch, type FromShard, type ShardData, type ToShard } from './shard-messages.ts';
import type { RunnerOutcome, Schedule } from './types.ts';

/*
 * One shard of a run split across worker threads (see worker-pool.ts): runs its share of the
 * load through a runner like the single engine worker does, but the coordinator keeps the
 * clock. It says `ready` once its runner is loaded, starts at the common start it is given,
 * sends its window whenever told to tick (the warm-up ends on one), says `done` when its
 * load is over, and at `finish` sends its last window and its report (counts, histograms).
 * No pre-flight: the coordinator checked the target once. The transport is the caller's: a
 * shard worker's port (shard-worker.ts), or direct calls for the shard the coordinator runs
 * in its own thread.
 */

/** What the coordinator merges: the recorder's counts and histograms, the runner's facts. */
function shardReport(recorder: Recorder, outcome: RunnerOutcome): ShardReport {
  const totals = recorderTotals(recorder, 0);
  const parts = outcome.shardParts?.() ?? null;
  return {
    counts: {
      requests: { ...totals.requests, lengthMismatch: totals.requests.lengthMismatch ?? 0 },
      sent: totals.sent,
      dropped: outcome.dropped ?? 0,
      bytes: totals.bytes,
      statusCodes: totals.statusCodes,
      errors: totals.errors,
      serverSoftware: totals.serverSoftware,
      documentLength: totals.documentLength,
    },
    histogram: totals.histogram,
    latencyRange:
      recorder.histogram.totalCount > 0
        ? { minNonZero: recorder.histogram.minNonZeroValue, max: recorder.histogram.maxValue }
        : null,
    lateness: recorder.latenessBuckets(),
    corrected: parts?.corrected ?? null,
    phases: parts?.phases ?? null,
    stages: parts?.stages ?? null,
    tls: outcome.tls,
    httpVersion: outcome.httpVersion,
    attackSeconds: outcome.attackSeconds,
    waitSeconds: outcome.waitSeconds,
    warnings: outcome.warnings,
  };
}

/**
 * Starts a shard: `post` carries what it says, `ended` is called after its report. Returns
 * the function that hands it the coordinator's messages.
 */
export function runShard(
  data: ShardData,
  post: (m: FromShard) => void,
  ended: () => void,
): (m: ToShard) => void {
  const { spec, shard } = data;
  const controller = new AbortController();
  const cpu = cpuMeter();
  let recorder: Recorder | null = null;
  let resolveStart: (at: number) => void = () => undefined;
  const started = new Promise<number>((resolve) => (resolveStart = resolve));
  let resolveFinish: () => void = () => undefined;
  const finishing = new Promise<void>((resolve) => (resolveFinish = resolve));
  let warmupEnded: () => void = () => undefined;
  const warmupDone = new Promise<void>((resolve) => (warmupEnded = resolve));

  let schedule: Schedule | null = null;
  const run = async (): Promise<void> => {
    let runner;
    try {
      runner = await selectRunner(spec);
    } catch (err) {
      post({ type: 'failed', message: err instanceof Error ? err.message : String(err) });
      return;
    }
    post({ type: 'ready' });
    const at = await started;
    const warmup = spec.options.warmupSeconds > 0;
    recorder = new Recorder({ sloMs: spec.options.sloMs, warmup, now: at });
    if (!warmup) warmupEnded();
    // The common start, on every shard's clock; a timer's lateness does not move the schedule.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, at - performance.now())));
    let outcome: RunnerOutcome;
    try {
      outcome = await runner.run({
        spec,
        recorder,
        signal: controller.signal,
        warmupSeconds: spec.options.warmupSeconds,
        warmupDone,
        schedule: (schedule = { startAt: at, offsetMs: shard.offsetMs, arrivalPhase: shard.arrivalPhase }),
      });
    } catch (err) {
      post({
        type: 'failed',
        message: `the ${runner.name} engine broke down: ${classifyError(err).message}`,
      });
      return;
    }
    post({ type: 'done', loadEndedAt: toEpoch(outcome.loadEndedAt ?? performance.now()) });
    await finishing;
    post({ type: 'report', window: recorder.takeWindow(cpu()), report: shardReport(recorder, outcome) });
    ended();
  };
  void run();

  return (msg) => {
    if (msg.type === 'start') resolveStart(fromEpoch(msg.at));
    else if (msg.type === 'stop') controller.abort();
    else if (msg.type === 'finish') resolveFinish();
    else if (recorder !== null) {
      post({ type: 'window', window: recorder.takeWindow(cpu()) });
      if (msg.measure) {
        if (schedule !== null) schedule.measureFrom = fromEpoch(msg.at);
        recorder.startMeasuring();
        warmupEnded();
      }
    }
  };
}
