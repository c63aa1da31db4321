import { Worker } from 'node:worker_threads';
import { addSample, type RunResult, type Sample, type Warning } from '../../shared/model/result.ts';
import { describeIssues, issuesOf } from '../../shared/model/validation.ts';
import type { ClassifiedError } from './errors.ts';
import { workerMessageSchema, type ToWorker } from './thread/messages.ts';
import { resultFromSamples } from './result.ts';
import { plannedEngine } from './load-generators.ts';
import type { RunSpec } from './types.ts';
import { ENGINE_THREAD_URL } from './thread/thread-entry.ts';
import { engineWorkerOptions } from './thread/worker-options.ts';

/** How long a stopped worker may take to hand back its result before the host ends it. */
const STOP_GRACE_MS = 3000;

export interface RunCallbacks {
  /** One call per tick with the window's aggregate (never one per request). */
  onSample?: (sample: Sample) => void;
}

/** One target's run in its worker thread. */
export interface RunHandle {
  /** The result; never rejects (a failure is a result with status 'failed'). */
  readonly done: Promise<RunResult>;
  /** Ends the run within one tick; resolves with the partial result, status 'cancelled'. */
  stop(): Promise<RunResult>;
}

/**
 * The worker's result with the samples the host received put back (the worker sends each
 * once), where the result keeps them: before the stage rows.
 */
function withSamples(result: Omit<RunResult, 'samples'>, samples: Sample[]): RunResult {
  const { stages, ...rest } = result;
  return { ...rest, samples, ...(stages ? { stages } : {}) };
}

/** What the engine tells the host side of a run (followRun) as it goes. */
export interface EngineListener {
  sample(sample: Sample): void;
  result(result: Omit<RunResult, 'samples'>): void;
  /** The engine could not go on (it crashed, exited, or sent what does not parse). */
  failed(error: ClassifiedError): void;
}

/** The host's end of a started engine. */
export interface EngineChannel {
  /** Asks the engine to stop within a tick (it answers with its result). */
  stop(): void;
  /** Lets the engine go once the result is in: anything it still holds open (timers, sockets) goes with it. */
  close(): void;
}

/**
 * The host side of one target's run, wherever its engine runs (`open` starts it and returns
 * its channel, or throws when it cannot start): the samples it keeps, one per tick as they
 * arrive (a final fold replacing the last), are the result's samples; an engine that fails or
 * does not answer a stop yields a result rebuilt from them, never a thrown error.
 */
export function followRun(
  spec: RunSpec,
  callbacks: RunCallbacks,
  open: (listener: EngineListener) => EngineChannel,
): RunHandle {
  const startedAt = new Date();
  const samples: Sample[] = [];
  const engine = plannedEngine(spec.options);
  let settled = false;
  let stopRequested = false;
  let stopTimer: NodeJS.Timeout | undefined;
  let channel: EngineChannel | null = null;
  let resolveDone: (result: RunResult) => void = () => undefined;
  const done = new Promise<RunResult>((resolve) => (resolveDone = resolve));

  const finish = (result: RunResult): void => {
    if (settled) return;
    settled = true;
    clearTimeout(stopTimer);
    resolveDone(result);
    channel?.close();
  };
  const fromSamples = (error: ClassifiedError | null, warnings: Warning[] = []): void =>
    finish(
      resultFromSamples(spec, stopRequested ? 'cancelled' : 'failed', stopRequested ? null : error, {
        engine,
        startedAt,
        endedAt: new Date(),
        samples,
        warnings:
          stopRequested && error ? [{ code: 'other', message: error.message }, ...warnings] : warnings,
      }),
    );

  try {
    channel = open({
      sample: (sample) => {
        addSample(samples, sample);
        try {
          callbacks.onSample?.(sample);
        } catch {
          // A listener's failure is the listener's: the run goes on.
        }
      },
      result: (result) => finish(withSamples(result, samples)),
      failed: (error) => fromSamples(error),
    });
  } catch (err) {
    fromSamples({
      kind: 'other',
      message: `engine could not start: ${err instanceof Error ? err.message : String(err)}`,
    });
    return { done, stop: () => done };
  }

  const stop = (): Promise<RunResult> => {
    if (!settled && !stopRequested && channel) {
      stopRequested = true;
      channel.stop();
      stopTimer = setTimeout(
        () =>
          fromSamples({
            kind: 'other',
            message: `the engine did not hand back its result within ${STOP_GRACE_MS / 1000} s of stop; figures come from the live samples (no percentiles)`,
          }),
        STOP_GRACE_MS,
      );
    }
    return done;
  };
  return { done, stop };
}

/**
 * Starts one target's run in a worker thread (the engine never runs on a host's event loop;
 * the one exception is the CLI's tiny and scheduled runs, run-here.ts). Reads nothing itself:
 * the spec carries the body and CA. Every message of the worker is parsed before it counts.
 */
export function startRun(spec: RunSpec, callbacks: RunCallbacks = {}): RunHandle {
  return followRun(spec, callbacks, (listener) => {
    const worker = new Worker(ENGINE_THREAD_URL, engineWorkerOptions(spec, 'engine'));
    worker.on('message', (raw: unknown) => {
      const parsed = workerMessageSchema.safeParse(raw);
      if (!parsed.success) {
        listener.failed({
          kind: 'other',
          message: `engine sent a malformed message: ${describeIssues(issuesOf(parsed.error))}`,
        });
        return;
      }
      const msg = parsed.data;
      if (msg.type === 'result') listener.result(msg.result);
      else listener.sample(msg.sample);
    });
    worker.on('error', (err: Error) =>
      listener.failed({ kind: 'other', message: `engine crashed: ${err.message}` }),
    );
    worker.on('exit', (code) =>
      listener.failed({ kind: 'other', message: `engine exited (code ${code}) before reporting a result` }),
    );
    return {
      stop: () => worker.postMessage({ type: 'stop' } satisfies ToWorker),
      close: () => void worker.terminate(),
    };
  });
}
