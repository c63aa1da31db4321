/**
 * Capacity searches as reports show them: each search's steps judged again from their runs,
 * its answer, and the curve (rate against p50, p99, errors). Whoever ran the steps (the
 * capacity job, a capacity comparison) hands them here in run order. Pure.
 */
import {
  capacityAnswer,
  rateText,
  judgeStep,
  nextCapacityStep,
  stepFigures,
  type CapacityAnswer,
  type CapacitySearch,
  type StepFigures,
  type StepJudgement,
} from './search.ts';
import type { CapacityPlan, CapacityStep, StepPhase } from './plan.ts';
import type { RunResult, RunStatus } from '../model/result.ts';
import { targetLabel } from '../model/scenario.ts';

/** A capacity job as it ended (or stands, status null while it runs): its plan and every step measured. */
export interface CapacityResult {
  plan: CapacityPlan;
  status: RunStatus | null;
  steps: readonly CapacityStep[];
}

/** A step's run by name, "nginx · step 3 · 400 req/s": its heading in the text reports and its label in the CSV files. */
export function stepLabel(searchLabel: string, stepIndex: number, rate: number): string {
  return `${searchLabel} · step ${stepIndex + 1} · ${rateText(rate)}`;
}

/** A step as a search measured it. */
export interface MeasuredStep {
  rate: number;
  phase: StepPhase;
  result: RunResult;
}

export interface ReportedStep extends MeasuredStep {
  judgement: StepJudgement;
  figures: StepFigures;
}

export interface SearchReport {
  label: string;
  search: CapacitySearch;
  steps: ReportedStep[];
  /** Null while the search goes on (or before it began). */
  answer: CapacityAnswer | null;
}

/**
 * One search's report from its steps in run order. ended: the search will get no more steps
 * (its job ended, or moved on); a search the planner would go on with then ends 'stopped'.
 */
export function searchReport(
  label: string,
  search: CapacitySearch,
  steps: readonly MeasuredStep[],
  ended: boolean,
): SearchReport {
  const reported = steps.map((s) => ({
    ...s,
    judgement: judgeStep(s.result, search.goal),
    figures: stepFigures(s.rate, s.result),
  }));
  const next = nextCapacityStep(search, reported);
  const answer = next.kind === 'done' ? next.answer : ended ? capacityAnswer(search, reported) : null;
  return { label, search, steps: reported, answer };
}

/**
 * The reports of a capacity job, one per target. running: the search still measuring (null
 * once the job ended); searches after it have not begun.
 */
export function capacityReports(
  plan: CapacityPlan,
  steps: readonly CapacityStep[],
  running: number | null,
): SearchReport[] {
  return plan.targets.map((target, i) => {
    const own = steps.filter((s) => s.searchIndex === i).sort((a, b) => a.stepIndex - b.stepIndex);
    return searchReport(targetLabel(target), plan.search, own, running === null || i < running);
  });
}

/** The steps of a report in rising rate: the curve a knee chart draws. */
export function curveOf(report: SearchReport): ReportedStep[] {
  return [...report.steps].sort((a, b) => a.rate - b.rate);
}

/** Whether a step's figures are not the server's: one the client or a busy machine limited is drawn apart. */
export function notTheServers(step: ReportedStep): boolean {
  return step.judgement.kind === 'client-limit' || step.judgement.kind === 'machine-busy';
}
