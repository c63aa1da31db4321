import {
  stepScenario,
  type CapacityEvent,
  type CapacityPlan,
  type CapacityStep,
} from '../../shared/capacity/plan.ts';
import type { RunStatus } from '../../shared/model/result.ts';
import { JobTable, type JobHandle } from '../engine/job-table.ts';
import { runCapacitySearch } from './capacity-search.ts';
import type { RunManagerLike } from './comparison-runner.ts';

/** A finished capacity job: every measured step, in run order (the answers are judged from them). */
export interface CapacityOutcome {
  capacityId: string;
  plan: CapacityPlan;
  status: RunStatus;
  steps: CapacityStep[];
}

interface CapacityState {
  readonly plan: CapacityPlan;
  readonly abort: AbortController;
  /** The engine run of the step running now. */
  currentRunId: string | null;
}

/**
 * Runs capacity searches, one per target of the plan and one after another, each step an
 * open-model run through the RunManager (never two at once), reporting on the job's own
 * handle. Electron-free: the desktop, the web host and the CLI share it.
 */
export class CapacityRunner {
  readonly #manager: RunManagerLike;
  /** Finished jobs are kept (20) so stop() still answers for them. */
  readonly #jobs = new JobTable<CapacityState, CapacityEvent, CapacityOutcome>({
    prefix: 'cap',
    noun: 'capacity search',
    keep: 20,
  });

  constructor(opts: { manager: RunManagerLike }) {
    this.#manager = opts.manager;
  }

  /** A validated plan's job: its handle, at once; it begins when its events are subscribed to. */
  start(plan: CapacityPlan): JobHandle<CapacityEvent, CapacityOutcome> {
    return this.#jobs.start({ plan, abort: new AbortController(), currentRunId: null }, (id, state, emit) =>
      this.#execute(id, state, emit),
    );
  }

  /**
   * Stops a job: the running step ends with its partial result, no step follows, measured
   * steps are kept. Resolves after 'done'; false for an unknown id.
   */
  async stop(capacityId: string): Promise<boolean> {
    const job = this.#jobs.get(capacityId);
    if (!job) return false;
    if (!job.finished) {
      job.state.abort.abort();
      if (job.state.currentRunId !== null) await this.#manager.stop(job.state.currentRunId);
    }
    await job.done;
    return true;
  }

  activeIds(): string[] {
    return this.#jobs.activeIds();
  }

  async #execute(
    capacityId: string,
    state: CapacityState,
    emit: (event: CapacityEvent) => void,
  ): Promise<CapacityOutcome> {
    const { plan, abort } = state;
    const steps: CapacityStep[] = [];
    emit({ type: 'started', capacityId, searchCount: plan.targets.length });
    for (let searchIndex = 0; searchIndex < plan.targets.length; searchIndex++) {
      if (abort.signal.aborted) break;
      try {
        await runCapacitySearch({
          manager: this.#manager,
          search: plan.search,
          scenarioAt: (rate) => stepScenario(plan, searchIndex, rate),
          signal: abort.signal,
          listener: {
            stepStarted: (s) => {
              state.currentRunId = s.runId;
              emit({ type: 'step-started', capacityId, searchIndex, ...s });
            },
            sample: (stepIndex, sample) =>
              emit({ type: 'step-sample', capacityId, searchIndex, stepIndex, sample }),
            stepDone: (s) => {
              state.currentRunId = null;
              const step: CapacityStep = { searchIndex, ...s };
              steps.push(step);
              emit({ type: 'step-done', capacityId, step });
            },
          },
        });
      } catch (err) {
        state.currentRunId = null;
        emit({
          type: 'error',
          capacityId,
          searchIndex,
          message: err instanceof Error ? err.message : String(err),
        });
      }
    }
    const status: RunStatus =
      abort.signal.aborted || steps.some((s) => s.result.status === 'cancelled')
        ? 'cancelled'
        : // No step at all (the engine broke down) measured nothing either.
          steps.every((s) => s.result.status === 'failed')
          ? 'failed'
          : 'completed';
    emit({ type: 'done', capacityId, status, steps });
    return { capacityId, plan, status, steps };
  }
}
