import {
  judgeStep,
  nextCapacityStep,
  type CapacitySearch,
  type JudgedStep,
} from '../../shared/capacity/search.ts';
import type { StepPhase } from '../../shared/capacity/plan.ts';
import type { MeasuredStep } from '../../shared/capacity/report.ts';
import type { Sample } from '../../shared/model/result.ts';
import type { Scenario } from '../../shared/model/scenario.ts';
import type { RunManagerLike } from './comparison-runner.ts';

/** One search's steps as they happen; what its job reports them as is the job's business. */
export interface SearchListener {
  /** Step stepIndex began as engine run runId (a stop reaches it through that id until it ends). */
  stepStarted(step: { stepIndex: number; rate: number; phase: StepPhase; runId: string }): void;
  sample(stepIndex: number, sample: Sample): void;
  stepDone(step: MeasuredStep & { stepIndex: number }): void;
}

export interface SearchRun {
  manager: RunManagerLike;
  search: CapacitySearch;
  /** The open-model scenario of one step at a rate (one target). */
  scenarioAt(rate: number): Scenario;
  /** Aborted when the job is stopped: no step starts after it (the running one is stopped by the job). */
  signal: AbortSignal;
  listener: SearchListener;
}

/** The engine broke down under a step (not the target: a failing target gives a failed result). */
export class StepError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StepError';
  }
}

/**
 * Runs one capacity search to its end: asks the planner for each step, runs it as an
 * open-model run through the RunManager (one at a time), judges it, and goes on until the
 * planner answers or the job is stopped. Returns the measured steps in order; throws a
 * StepError when the engine returned no result for a step.
 */
export async function runCapacitySearch(run: SearchRun): Promise<MeasuredStep[]> {
  const steps: MeasuredStep[] = [];
  const judged: JudgedStep[] = [];
  for (;;) {
    const next = nextCapacityStep(run.search, judged);
    if (next.kind === 'done' || run.signal.aborted) return steps;
    const stepIndex = steps.length;
    const handle = run.manager.start(run.scenarioAt(next.rate));
    run.listener.stepStarted({ stepIndex, rate: next.rate, phase: next.phase, runId: handle.id });
    let hostError: string | null = null;
    // Subscribing starts the step's run, so its samples come after 'step-started'.
    handle.events((event) => {
      if (event.type === 'sample') run.listener.sample(stepIndex, event.sample);
      if (event.type === 'error') hostError = event.message;
    });
    const [result] = await handle.done;
    if (!result) throw new StepError(hostError ?? 'the engine returned no result for the step');
    const step: MeasuredStep = { rate: next.rate, phase: next.phase, result };
    steps.push(step);
    judged.push({ rate: next.rate, judgement: judgeStep(result, run.search.goal) });
    run.listener.stepDone({ ...step, stepIndex });
  }
}
