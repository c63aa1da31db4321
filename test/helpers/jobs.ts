import type { JobKind, PartResultOf, PlanOf } from '../../shared/contract/jobs.ts';
import type { RunStatus } from '../../shared/model/result.ts';
import type {
  JobContext,
  JobRunner,
  RunnerEvent,
  RunningJob,
  TargetChecker,
} from '../../electron/jobs/runner.ts';
import type { StartTarget } from '../../electron/jobs/target-run.ts';

/** A pre-flight stand-in that passes every URL. */
export const passes: TargetChecker = () => Promise.resolve({ ok: true });

/**
 * Runs a plan through a kind's runner on an engine (a FakeEngine, or { start: startTarget }
 * for the real one), records its events and resolves with
 * them, the parts' results in run order and the final status. onEvent may stop the job.
 */
export async function runWith<K extends JobKind>(
  runner: JobRunner<K>,
  plan: PlanOf<K>,
  engine: { start: StartTarget },
  opts: {
    checkTarget?: TargetChecker;
    onEvent?: (event: RunnerEvent<K>, stop: () => void) => void;
    /** More of the job's context: the wait for a busy machine to calm, History, a re-run. */
    context?: Partial<Pick<JobContext, 'waitForCalm' | 'readHistory' | 'rerun'>>;
  } = {},
): Promise<{ events: RunnerEvent<K>[]; results: PartResultOf<K>[]; status: RunStatus }> {
  const events: RunnerEvent<K>[] = [];
  const results: PartResultOf<K>[] = [];
  let job: RunningJob | null = null;
  // The runner emits its first events before start() returns: a stop asked then waits for the handle.
  const stop = () => queueMicrotask(() => void job?.stop());
  job = runner.start(
    plan,
    (event) => {
      events.push(event);
      if (event.type === 'result') results.push(event.result);
      opts.onEvent?.(event, stop);
    },
    {
      jobId: 'job-test',
      appVersion: '0.0.0-test',
      startTarget: engine.start,
      checkTarget: opts.checkTarget ?? passes,
      ...opts.context,
    },
  );
  return { events, results, status: await job.done };
}
