import { expandPlan, type CellCoordinates, type CellOutcome } from '../../../shared/comparison/cells.ts';
import { cellCount, type ComparisonPlan } from '../../../shared/comparison/plan.ts';
import type { PreflightFailure } from '../../../shared/model/preflight.ts';
import type { RunStatus } from '../../../shared/model/result.ts';
import { isBusy, type JobPhase, type JobState, type JobView } from '../../jobs/jobStore.ts';

/** What a comparison keeps of its own beside what every job has. */
export interface ComparisonSlice {
  /** Every cell's place in the matrix, in run order. */
  coordinates: CellCoordinates[];
  /** The cell waited for during a pause between cells; null when not pausing. */
  pauseBefore: number | null;
  /** The URLs that failed the check before the first cell: the comparison did not start. */
  preflight: PreflightFailure[];
}

/** The Compare tab's job: its progress events read into a ComparisonSlice. */
export const COMPARISON_VIEW: JobView<'comparison', ComparisonSlice> = {
  kind: 'comparison',
  idle: { coordinates: [], pauseBefore: null, preflight: [] },
  begin: (plan) => ({
    coordinates: expandPlan(plan).map((c) => c.coordinates),
    pauseBefore: null,
    preflight: [],
  }),
  progress(view, progress) {
    switch (progress.type) {
      case 'part-started':
        return { ...view, pauseBefore: null };
      case 'pause':
        return { ...view, pauseBefore: progress.next };
      case 'preflight-failed':
        return { ...view, preflight: progress.failures };
      case 'started':
      case 'preflight':
        return view;
    }
  },
  parts: cellCount,
};

export type ComparisonJob = JobState<'comparison', ComparisonSlice>;

export type CellStatus = 'pending' | 'running' | RunStatus | 'error';

export interface CellProgress {
  coordinates: CellCoordinates;
  status: CellStatus;
  /** The running cell's last req/s, then the finished cell's. */
  rps: number | null;
  /** The running cell's server CPU (% of a core) at its last reading, then the finished cell's mean. */
  cpu: number | null;
}

/** One comparison as the Compare tab shows it: the matrix's progress and the finished cells. */
export interface ComparisonRunState {
  phase: JobPhase;
  comparisonId: string | null;
  plan: ComparisonPlan | null;
  cells: CellProgress[];
  /** The cell running now, or the next one during a pause. */
  current: number | null;
  pausing: boolean;
  outcomes: CellOutcome[];
  status: RunStatus | null;
  historyId: string | null;
  /** The host refused the start, or cells could not run, or the save failed. */
  errors: string[];
  preflight: PreflightFailure[];
}

/** The Compare tab's reading of its job (pure: one state in, one view model out). */
export function comparisonRun(job: ComparisonJob): ComparisonRunState {
  const { view } = job;
  const failedParts = new Set(job.errors.flatMap((e) => (e.part === null ? [] : [e.part])));
  const running = isBusy(job.phase) && view.pauseBefore === null ? job.current : null;
  const cells = view.coordinates.map((coordinates, i): CellProgress => {
    const outcome = job.results[i];
    if (outcome) {
      const r = outcome.result;
      return {
        coordinates,
        status: r.status,
        rps: r.status === 'failed' ? null : r.throughput.requestsPerSecond,
        cpu: r.serverResources?.summary.cpuPercent?.mean ?? null,
      };
    }
    if (failedParts.has(i)) return { coordinates, status: 'error', rps: null, cpu: null };
    const live = job.live[i];
    const last = live?.last ?? null;
    return {
      coordinates,
      status: i === running ? 'running' : 'pending',
      rps: last && !last.warmup ? last.requestsPerSecond : null,
      cpu: live?.server.cpu ?? null,
    };
  });
  return {
    phase: job.phase,
    comparisonId: job.jobId,
    plan: job.plan,
    cells,
    current: isBusy(job.phase) ? (view.pauseBefore ?? job.current) : null,
    pausing: view.pauseBefore !== null && isBusy(job.phase),
    outcomes: job.results.filter((o): o is CellOutcome => o !== null),
    status: job.status,
    historyId: job.saved?.historyId ?? null,
    errors: [
      ...job.errors.map((e) => (e.part === null ? e.message : `Cell ${e.part + 1}: ${e.message}`)),
      ...(job.saved?.error ? [job.saved.error] : []),
    ],
    preflight: view.preflight,
  };
}

/** Cells finished (whatever their outcome) out of all. */
export function cellsFinished(state: ComparisonRunState): number {
  return state.cells.filter((c) => c.status !== 'pending' && c.status !== 'running').length;
}
