import type { CapacityPlan, CapacityStep, StepPhase } from '../../../shared/capacity/plan.ts';
import { capacityReports, type SearchReport } from '../../../shared/capacity/report.ts';
import type { RunStatus } from '../../../shared/model/result.ts';
import { machineWaitText } from '../../../shared/format/capacity-text.ts';
import { isBusy, type JobPhase, type JobState, type JobView } from '../../jobs/jobStore.ts';

/** A step as its 'part-started' announced it. */
export interface StartedStep {
  part: number;
  searchIndex: number;
  stepIndex: number;
  rate: number;
  phase: StepPhase;
}

/** What a capacity search keeps of its own beside what every job has. */
export interface CapacitySlice {
  /** The step whose load began last. */
  step: StartedStep | null;
  /** The search the latest step belongs to: the one still going on while the job runs. */
  searchIndex: number;
  /** The search's wait for a busy machine, in words (machineWaitText), until the next step starts. */
  machine: string | null;
}

/** The Capacity tab's job: its progress events read into a CapacitySlice. */
export const CAPACITY_VIEW: JobView<'capacity', CapacitySlice> = {
  kind: 'capacity',
  idle: { step: null, searchIndex: 0, machine: null },
  begin: () => ({ step: null, searchIndex: 0, machine: null }),
  progress(view, progress) {
    if (progress.type === 'machine-wait' || progress.type === 'machine-calm') {
      return { ...view, machine: machineWaitText(progress) };
    }
    if (progress.type !== 'part-started') return view;
    const { type: _type, ...step } = progress;
    return { step, searchIndex: step.searchIndex, machine: null };
  },
  // Steps come as the search goes.
  parts: () => 0,
};

export type CapacityJob = JobState<'capacity', CapacitySlice>;

/** The step running now, with its live req/s. */
export interface RunningStep {
  searchIndex: number;
  stepIndex: number;
  rate: number;
  phase: StepPhase;
  rps: number | null;
}

/** One capacity job as the Capacity tab shows it. */
export interface CapacityRunState {
  phase: JobPhase;
  capacityId: string | null;
  plan: CapacityPlan | null;
  steps: CapacityStep[];
  current: RunningStep | null;
  searchIndex: number;
  /** The wait for a busy machine going on, in words; null otherwise. */
  machine: string | null;
  status: RunStatus | null;
  historyId: string | null;
  /** The host refused the start, a step could not run, or the save failed. */
  errors: string[];
}

/** The Capacity tab's reading of its job (pure: one state in, one view model out). */
export function capacityRun(job: CapacityJob): CapacityRunState {
  const { step, searchIndex, machine } = job.view;
  const running = step !== null && isBusy(job.phase) && !job.results[step.part];
  const last = step === null ? null : (job.live[step.part]?.last ?? null);
  return {
    phase: job.phase,
    capacityId: job.jobId,
    plan: job.plan,
    steps: job.results.filter((s): s is CapacityStep => s !== null),
    current:
      running && step
        ? {
            searchIndex: step.searchIndex,
            stepIndex: step.stepIndex,
            rate: step.rate,
            phase: step.phase,
            rps: last && !last.warmup ? last.requestsPerSecond : null,
          }
        : null,
    searchIndex,
    machine: isBusy(job.phase) ? machine : null,
    status: job.status,
    historyId: job.saved?.historyId ?? null,
    errors: [...job.errors.map((e) => e.message), ...(job.saved?.error ? [job.saved.error] : [])],
  };
}

/** The searches' reports as the job stands: the one still going on has no answer yet. */
export function reportsOf(state: CapacityRunState): SearchReport[] {
  if (!state.plan) return [];
  return capacityReports(state.plan, state.steps, state.phase === 'done' ? null : state.searchIndex);
}
