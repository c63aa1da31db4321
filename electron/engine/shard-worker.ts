import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import type { ShardReport } from '../../shared/shard-merge.ts';
import { describeIssues, issuesOf } from '../../shared/validation.ts';
import { cpuMeter } from './cpu.ts';
import { classifyError } from './errors.ts';
import { Recorder } from './recorder.ts';
import { recorderTotals } from './run-totals.ts';
import { selectRunner } from './runners.ts';
import { fromEpoch, shardDataSchema, toEpoch, toShardSchema, type FromShard } from './shard-messages.ts';
import type { RunnerOutcome } from './types.ts';

/*
 * One shard of a run split across worker threads (see worker-pool.ts): runs its share of the
 * load through a runner like the single engine worker does, but the coordinator keeps the
 * clock. It says `ready` once its runner is loaded, starts at the common start it is given,
 * sends its window whenever told to tick (the warm-up ends on one), says `done` when its
 * load is over, and at `finish` sends its last window and its report (counts, histograms),
 * then exits. No pre-flight: the coordinator checked the target once.
 */

function post(port: MessagePort, message: FromShard): void {
  port.postMessage(message);
}

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
    tls: outcome.tls,
    httpVersion: outcome.httpVersion,
    attackSeconds: outcome.attackSeconds,
    waitSeconds: outcome.waitSeconds,
    warnings: outcome.warnings,
  };
}

async function main(): Promise<void> {
  const port = parentPort;
  if (!port) throw new Error('shard-worker.ts runs as a worker thread only');
  const parsed = shardDataSchema.safeParse(workerData);
  if (!parsed.success) throw new Error(`shard data is invalid: ${describeIssues(issuesOf(parsed.error))}`);
  const { spec, shard } = parsed.data;
  const controller = new AbortController();
  const cpu = cpuMeter();
  let recorder: Recorder | null = null;
  let resolveStart: (at: number) => void = () => undefined;
  const started = new Promise<number>((resolve) => (resolveStart = resolve));
  let resolveFinish: () => void = () => undefined;
  const finishing = new Promise<void>((resolve) => (resolveFinish = resolve));
  let warmupEnded: () => void = () => undefined;
  const warmupDone = new Promise<void>((resolve) => (warmupEnded = resolve));

  port.on('message', (raw: unknown) => {
    const m = toShardSchema.safeParse(raw);
    if (!m.success) return;
    const msg = m.data;
    if (msg.type === 'start') resolveStart(fromEpoch(msg.at));
    else if (msg.type === 'stop') controller.abort();
    else if (msg.type === 'finish') resolveFinish();
    else if (recorder !== null) {
      post(port, { type: 'window', window: recorder.takeWindow(cpu()) });
      if (msg.measure) {
        recorder.startMeasuring();
        warmupEnded();
      }
    }
  });

  let runner;
  try {
    runner = await selectRunner(spec);
  } catch (err) {
    post(port, { type: 'failed', message: err instanceof Error ? err.message : String(err) });
    return;
  }
  post(port, { type: 'ready' });
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
      schedule: { startAt: at, offsetMs: shard.offsetMs },
    });
  } catch (err) {
    post(port, {
      type: 'failed',
      message: `the ${runner.name} engine broke down: ${classifyError(err).message}`,
    });
    return;
  }
  post(port, { type: 'done', loadEndedAt: toEpoch(outcome.loadEndedAt ?? performance.now()) });
  await finishing;
  post(port, { type: 'report', window: recorder.takeWindow(cpu()), report: shardReport(recorder, outcome) });
  port.close();
}

await main();
