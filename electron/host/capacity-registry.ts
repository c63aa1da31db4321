import type { ActiveCapacity } from '../../shared/contract/api.ts';
import type { CapacityEvent, CapacityPlan } from '../../shared/capacity/plan.ts';
import type { HistorySaver } from '../services/history-saver.ts';
import { OwnedJobs, type JobRules, type JobService, type Replay } from './owned-jobs.ts';

/** The part of the CapacityRunner (electron/services/capacity-runner.ts) a host uses. */
export type CapacityService = JobService<CapacityPlan, CapacityEvent, unknown>;

/** A search's events but its steps' samples, of which only the latest is kept (for the live req/s). */
class CapacityReplay implements Replay<CapacityEvent, ActiveCapacity> {
  readonly #capacityId: string;
  readonly #plan: CapacityPlan;
  readonly #events: CapacityEvent[] = [];
  #lastSample: CapacityEvent | null = null;

  constructor(capacityId: string, plan: CapacityPlan) {
    this.#capacityId = capacityId;
    this.#plan = plan;
  }

  add(event: CapacityEvent): void {
    if (event.type === 'step-sample') {
      this.#lastSample = event;
      return;
    }
    // A step's start or end makes the sample before it stale.
    if (event.type === 'step-started' || event.type === 'step-done') this.#lastSample = null;
    this.#events.push(event);
  }

  snapshot(): ActiveCapacity {
    return {
      capacityId: this.#capacityId,
      plan: this.#plan,
      events: this.#lastSample ? [...this.#events, this.#lastSample] : [...this.#events],
    };
  }
}

const SEARCHES: JobRules<CapacityPlan, CapacityEvent, ActiveCapacity> = {
  noun: 'capacity search',
  lastRecord: (plan, event) => {
    if (event.type !== 'done') return undefined;
    // Stopped (or broken down) before any step ended: nothing was measured, nothing to keep.
    if (event.steps.length === 0) return null;
    return { kind: 'capacity', status: event.status, plan, steps: event.steps };
  },
  replay: (capacityId, plan) => new CapacityReplay(capacityId, plan),
};

/**
 * The host's capacity searches keyed by id, each owned by the caller that started it: its
 * events go to that owner only, a reloaded owner gets them back (capacity.active), and each
 * is saved in run history as one record holding every step's run.
 */
export class CapacityRegistry extends OwnedJobs<CapacityPlan, CapacityEvent, ActiveCapacity> {
  constructor(opts: { service: CapacityService; history: HistorySaver }) {
    super({ service: opts.service, kind: SEARCHES, history: opts.history });
  }
}
