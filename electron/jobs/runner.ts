import type {
  ErrorEvent,
  JobKind,
  PlanOf,
  ProgressEvent,
  ResultEvent,
  SampleEvent,
} from '../../shared/contract/jobs.ts';
import type { RunStatus } from '../../shared/model/result.ts';
import type { TargetCheckResult } from '../../shared/model/preflight.ts';
import type { Scenario } from '../../shared/model/scenario.ts';
import type { StartTarget } from './target-run.ts';
import type { waitForCalm } from '../machine/calm.ts';
import type { ComparisonRerun } from '../../shared/comparison/rerun.ts';
import type { HistoryRecord } from '../../shared/records/history.ts';

/**
 * What a runner reports: the contract's events but 'done', which the registry sends once the
 * job is saved. Its results carry their samples (in the process they cost nothing); they are
 * left out where an event crosses to a page.
 */
export type RunnerEvent<K extends JobKind = JobKind> =
  ProgressEvent<K> | SampleEvent | ResultEvent<K> | ErrorEvent;

/** The pre-flight of one URL (electron/engine/preflight/target-check.ts, or a stand-in in tests). */
export type TargetChecker = (scenario: Scenario, signal: AbortSignal) => Promise<TargetCheckResult>;

/** What a runner may use besides its plan: the engine, the pre-flight, the app's version. */
export interface JobContext {
  /** The job's id: a run's results carry it as their runId. */
  jobId: string;
  appVersion: string;
  startTarget: StartTarget;
  checkTarget: TargetChecker;
  /** Waits for a busy machine to calm (electron/machine/calm.ts; a stand-in in tests). */
  waitForCalm?: typeof waitForCalm;
  /** Reads a saved record of History (a comparison run again in part keeps the rest of it). */
  readHistory?: (id: string) => Promise<HistoryRecord>;
  /** A comparison started to run only some of a saved one's runs again (jobs.start's rerun). */
  rerun?: ComparisonRerun;
}

/** A job being run. */
export interface RunningJob {
  /** Its status after its last event; never rejects (a breakdown is an 'error' event). */
  readonly done: Promise<RunStatus>;
  /**
   * Stops it: the running part ends within a tick with what it measured, no other part
   * begins. Resolves once the job is done.
   */
  stop(): Promise<void>;
}

/**
 * One kind of job's orchestration, Electron-free, shared by every host and the CLI: a plan
 * in, one typed event stream out, an awaited stop, a final status. Each part is one target's
 * run through context.startTarget (electron/jobs/target-run.ts).
 */
export interface JobRunner<K extends JobKind> {
  start(plan: PlanOf<K>, emit: (event: RunnerEvent<K>) => void, context: JobContext): RunningJob;
}

/** How a job of parts ended: cancelled when stopped, failed when every part failed. */
export function jobStatus(stopped: boolean, statuses: readonly RunStatus[]): RunStatus {
  if (stopped || statuses.includes('cancelled')) return 'cancelled';
  if (statuses.length > 0 && statuses.every((s) => s === 'failed')) return 'failed';
  return 'completed';
}
