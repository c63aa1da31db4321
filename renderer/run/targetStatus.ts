import type { RunStatus } from '../../shared/result.ts';
import type { RunState } from './runStore.ts';

export type TargetStatus = 'pending' | 'running' | RunStatus | 'skipped';

/** Where one target of the run stands, for the target strip and the counters. */
export function targetStatus(state: RunState, i: number): TargetStatus {
  const result = state.results[i];
  if (result) return result.status;
  if (state.currentTarget === i) return 'running';
  if (state.phase === 'done') return 'skipped';
  return 'pending';
}

/** The target the views show: the one picked, else the one running, else the last with a result. */
export function shownTarget(state: RunState, picked: number | null): number | null {
  if (picked !== null && picked < state.targetCount) return picked;
  if (state.currentTarget !== null) return state.currentTarget;
  for (let i = state.results.length - 1; i >= 0; i--) if (state.results[i]) return i;
  return state.targetCount > 0 ? 0 : null;
}
