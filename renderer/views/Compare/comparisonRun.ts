import type { ActiveComparison } from '../../../shared/contract/api.ts';
import {
  expandPlan,
  type CellCoordinates,
  type CellOutcome,
  type ComparisonEvent,
} from '../../../shared/comparison/cells.ts';
import type { ComparisonPlan } from '../../../shared/comparison/plan.ts';
import type { PreflightFailure } from '../../../shared/model/preflight.ts';
import type { RunStatus } from '../../../shared/model/result.ts';
import type { RunPhase } from '../../run/runStore.ts';

export type CellStatus = 'pending' | 'running' | RunStatus | 'error';

export interface CellProgress {
  coordinates: CellCoordinates;
  status: CellStatus;
  /** The running cell's last req/s, then the finished cell's. */
  rps: number | null;
  /** The running cell's server CPU (% of a core) at its last reading, then the finished cell's mean. */
  cpu: number | null;
}

/** One comparison as the page follows it: the matrix's progress and the finished cells. */
export interface ComparisonRunState {
  /** A comparison goes through a run's phases. */
  phase: RunPhase;
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
  /** The URLs that failed the check before the first cell: the comparison did not start. */
  preflight: PreflightFailure[];
}

export const idleComparison: ComparisonRunState = {
  phase: 'idle',
  comparisonId: null,
  plan: null,
  cells: [],
  current: null,
  pausing: false,
  outcomes: [],
  status: null,
  historyId: null,
  errors: [],
  preflight: [],
};

/** A comparison about to start: every cell of the matrix pending. */
export function beginComparison(plan: ComparisonPlan): ComparisonRunState {
  return {
    ...idleComparison,
    phase: 'starting',
    plan,
    cells: expandPlan(plan).map((c) => ({
      coordinates: c.coordinates,
      status: 'pending',
      rps: null,
      cpu: null,
    })),
  };
}

/** A comparison this page started before a reload (the host's compare.active), its events replayed. */
export function adoptComparison(active: ActiveComparison): ComparisonRunState {
  const started: ComparisonRunState = {
    ...beginComparison(active.plan),
    comparisonId: active.comparisonId,
    phase: 'running',
  };
  return active.events.reduce(reduceComparison, started);
}

function setCell(cells: CellProgress[], index: number, patch: Partial<CellProgress>): CellProgress[] {
  const cell = cells[index];
  if (!cell) return cells;
  const next = [...cells];
  next[index] = { ...cell, ...patch };
  return next;
}

/** The state after one event of this comparison (the page follows its own comparison's events only). */
export function reduceComparison(state: ComparisonRunState, event: ComparisonEvent): ComparisonRunState {
  switch (event.type) {
    case 'started':
      return { ...state, phase: state.phase === 'stopping' ? 'stopping' : 'running' };
    case 'cell-started':
      return {
        ...state,
        current: event.cellIndex,
        pausing: false,
        cells: setCell(state.cells, event.cellIndex, { status: 'running', rps: null, cpu: null }),
      };
    case 'cell-sample':
      return event.sample.warmup
        ? state
        : { ...state, cells: setCell(state.cells, event.cellIndex, { rps: event.sample.requestsPerSecond }) };
    case 'cell-server-sample':
      // A gap keeps the last figure: the next reading covers the missed time.
      return event.sample.warmup || event.sample.cpuPercent === undefined
        ? state
        : { ...state, cells: setCell(state.cells, event.cellIndex, { cpu: event.sample.cpuPercent }) };
    case 'cell-done': {
      const { cellIndex, result } = event.outcome;
      return {
        ...state,
        outcomes: [...state.outcomes, event.outcome],
        cells: setCell(state.cells, cellIndex, {
          status: result.status,
          rps: result.status === 'failed' ? null : result.throughput.requestsPerSecond,
          cpu: result.serverResources?.summary.cpuPercent?.mean ?? null,
        }),
      };
    }
    case 'pause':
      return { ...state, current: event.nextCellIndex, pausing: true };
    case 'preflight':
      return state;
    case 'preflight-failed':
      return { ...state, preflight: event.failures };
    case 'error':
      return {
        ...state,
        errors: [...state.errors, `Cell ${event.cellIndex + 1}: ${event.message}`],
        cells: setCell(state.cells, event.cellIndex, { status: 'error' }),
      };
    case 'done':
      return {
        ...state,
        phase: 'done',
        current: null,
        pausing: false,
        status: event.status,
        outcomes: event.outcomes,
        historyId: event.historyId ?? null,
        errors: event.historyError ? [...state.errors, event.historyError] : state.errors,
      };
  }
}

/** Cells finished (whatever their outcome) out of all. */
export function cellsFinished(state: ComparisonRunState): number {
  return state.cells.filter((c) => c.status !== 'pending' && c.status !== 'running').length;
}
