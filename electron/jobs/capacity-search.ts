import {
  judgeStep,
  nextCapacityStep,
  type CapacitySearch,
  type JudgedStep,
} from '../../shared/capacity/search.ts';
import type { StepPhase } from '../../shared/capacity/plan.ts';
import type { MeasuredStep } from '../../shared/capacity/report.ts';
import type { RunResult } from '../../shared/model/result.ts';

/** The step the planner asks for next, as the search hands it to its job to run. */
export interface PlannedStep {
  stepIndex: number;
  rate: number;
  phase: StepPhase;
}

export interface SearchRun {
  search: CapacitySearch;
  /** Aborted when the job is stopped: no step starts after it (the running one is stopped by the job). */
  signal: AbortSignal;
  /**
   * Runs one step (an open-model run at its rate) and gives its result; null when it was
   * stopped before its load began.
   */
  runStep(step: PlannedStep): Promise<RunResult | null>;
  /** A step ended with its result. */
  stepDone(step: MeasuredStep & { stepIndex: number }): void;
  /** Before a rate is measured again after a step on a busy machine: waits (bounded) for the machine to calm. */
  waitForCalm(rate: number): Promise<void>;
}

/** The engine broke down under a step (not the target: a failing target gives a failed result). */
export class StepError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StepError';
  }
}

/**
 * Runs one capacity search to its end: asks the planner for each step, runs it (one at a
 * time), judges it, and goes on until the planner answers or the job is stopped. Returns the
 * measured steps in order; throws a StepError when the engine returned no result for a step
 * it was not stopped before.
 */
export async function runCapacitySearch(run: SearchRun): Promise<MeasuredStep[]> {
  const steps: MeasuredStep[] = [];
  const judged: JudgedStep[] = [];
  for (;;) {
    const next = nextCapacityStep(run.search, judged);
    if (next.kind === 'done' || run.signal.aborted) return steps;
    if (next.afterBusy) {
      await run.waitForCalm(next.rate);
      if (run.signal.aborted) return steps;
    }
    const stepIndex = steps.length;
    const result = await run.runStep({ stepIndex, rate: next.rate, phase: next.phase });
    if (!result) {
      if (run.signal.aborted) return steps;
      throw new StepError('the engine returned no result for the step');
    }
    const step: MeasuredStep = { rate: next.rate, phase: next.phase, result };
    steps.push(step);
    judged.push({ rate: next.rate, judgement: judgeStep(result, run.search.goal) });
    run.stepDone({ ...step, stepIndex });
  }
}
