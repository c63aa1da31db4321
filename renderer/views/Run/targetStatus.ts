import type { RunResult, RunStatus } from '../../../shared/model/result.ts';
import { runVerdict, verdictWord } from '../../../shared/verdict/verdict.ts';
import type { RunState } from './runJob.ts';

export type TargetStatus = 'pending' | 'running' | RunStatus | 'skipped';

/** Where one target of the run stands, for the target strip and the counters. */
export function targetStatus(state: RunState, i: number): TargetStatus {
  const result = state.results[i];
  if (result) return result.status;
  if (state.current === i) return 'running';
  if (state.phase === 'done') return 'skipped';
  return 'pending';
}

/** The target the views show: the one picked, else the one running, else the last with a result. */
export function shownTarget(state: RunState, picked: number | null): number | null {
  const targetCount = state.results.length;
  if (picked !== null && picked < targetCount) return picked;
  if (state.current !== null) return state.current;
  for (let i = targetCount - 1; i >= 0; i--) if (state.results[i]) return i;
  return targetCount > 0 ? 0 : null;
}

const STATUS_TEXT: Record<TargetStatus, string> = {
  pending: 'waiting',
  running: 'running',
  completed: 'completed',
  cancelled: 'cancelled · partial results',
  interrupted: 'interrupted (the host stopped) · partial results',
  failed: 'failed',
  skipped: 'not run',
};

/** A target's badge: its look (a status, or 'caveat') and its words. */
export interface StatusBadge {
  look: TargetStatus | 'caveat';
  text: string;
}

/**
 * What the badge of a target says. A run that completed but whose figures are not the
 * server's (every response a 404, the rate not reached...) says so instead of a green
 * "completed".
 */
export function statusBadge(status: TargetStatus, result: RunResult | null): StatusBadge {
  if (status === 'completed' && result) {
    const verdict = runVerdict(result);
    if (!verdict.clean) return { look: 'caveat', text: `completed · ${verdictWord(verdict)}` };
  }
  return { look: status, text: STATUS_TEXT[status] };
}

/** The words for a target's status alone (the target strip's tabs). */
export function statusText(status: TargetStatus): string {
  return STATUS_TEXT[status];
}
