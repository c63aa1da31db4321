import type { ActiveCapacity } from '../../../shared/contract/api.ts';
import type { CapacityEvent, CapacityPlan, CapacityStep, StepPhase } from '../../../shared/capacity/plan.ts';
import { capacityReports, type SearchReport } from '../../../shared/capacity/report.ts';
import type { RunStatus } from '../../../shared/model/result.ts';
import type { RunPhase } from '../../run/runStore.ts';

/** The step running now, with its live req/s. */
export interface RunningStep {
  searchIndex: number;
  stepIndex: number;
  rate: number;
  phase: StepPhase;
  rps: number | null;
}

/** One capacity job as the page follows it. */
export interface CapacityRunState {
  /** A capacity job goes through a run's phases. */
  phase: RunPhase;
  capacityId: string | null;
  plan: CapacityPlan | null;
  steps: CapacityStep[];
  current: RunningStep | null;
  /** The search the latest step belongs to: the one still going on while the job runs. */
  searchIndex: number;
  status: RunStatus | null;
  historyId: string | null;
  /** The host refused the start, a step could not run, or the save failed. */
  errors: string[];
}

export const idleCapacity: CapacityRunState = {
  phase: 'idle',
  capacityId: null,
  plan: null,
  steps: [],
  current: null,
  searchIndex: 0,
  status: null,
  historyId: null,
  errors: [],
};

export function beginCapacity(plan: CapacityPlan): CapacityRunState {
  return { ...idleCapacity, phase: 'starting', plan };
}

/** A job this page started before a reload (the host's capacity.active), its events replayed. */
export function adoptCapacity(active: ActiveCapacity): CapacityRunState {
  const started: CapacityRunState = {
    ...beginCapacity(active.plan),
    capacityId: active.capacityId,
    phase: 'running',
  };
  return active.events.reduce(reduceCapacity, started);
}

/** The state after one event of this job (the page follows its own job's events only). */
export function reduceCapacity(state: CapacityRunState, event: CapacityEvent): CapacityRunState {
  switch (event.type) {
    case 'started':
      return { ...state, phase: state.phase === 'stopping' ? 'stopping' : 'running' };
    case 'step-started':
      return {
        ...state,
        searchIndex: event.searchIndex,
        current: {
          searchIndex: event.searchIndex,
          stepIndex: event.stepIndex,
          rate: event.rate,
          phase: event.phase,
          rps: null,
        },
      };
    case 'step-sample':
      return event.sample.warmup || state.current === null
        ? state
        : { ...state, current: { ...state.current, rps: event.sample.requestsPerSecond } };
    case 'step-done':
      return { ...state, current: null, steps: [...state.steps, event.step] };
    case 'error':
      return { ...state, errors: [...state.errors, event.message] };
    case 'done':
      return {
        ...state,
        phase: 'done',
        current: null,
        status: event.status,
        steps: event.steps,
        historyId: event.historyId ?? null,
        errors: event.historyError ? [...state.errors, event.historyError] : state.errors,
      };
  }
}

/** The searches' reports as the job stands: the one still going on has no answer yet. */
export function reportsOf(state: CapacityRunState): SearchReport[] {
  if (!state.plan) return [];
  return capacityReports(state.plan, state.steps, state.phase === 'done' ? null : state.searchIndex);
}
