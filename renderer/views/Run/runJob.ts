import type { JobState, JobView } from '../../jobs/jobStore.ts';

/**
 * The Run tab's job: a run keeps nothing of its own beside what every job has (its parts are
 * the scenario's targets, known from the plan).
 */
export const RUN_VIEW: JobView<'run', null> = {
  kind: 'run',
  idle: null,
  begin: () => null,
  progress: (view) => view,
  parts: (scenario) => scenario.targets.length,
};

/** The live run as the Run tab sees it. */
export type RunState = JobState<'run', null>;
