import type { ActiveComparison } from '../../shared/contract/api.ts';
import type { ComparisonEvent } from '../../shared/comparison/cells.ts';
import type { ComparisonPlan } from '../../shared/comparison/plan.ts';
import type { HistorySaver } from '../services/history-saver.ts';
import { OwnedJobs, type JobRules, type JobService, type Replay } from './owned-jobs.ts';

/** The part of the ComparisonRunner (electron/services/comparison-runner.ts) a host uses. */
export type ComparisonService = JobService<ComparisonPlan, ComparisonEvent, unknown>;

/**
 * A comparison's events but its cells' samples, of which only the latest engine sample and
 * the latest server reading are kept (for the live req/s and server CPU).
 */
class ComparisonReplay implements Replay<ComparisonEvent, ActiveComparison> {
  readonly #comparisonId: string;
  readonly #plan: ComparisonPlan;
  readonly #events: ComparisonEvent[] = [];
  #lastSample: ComparisonEvent | null = null;
  #lastServerSample: ComparisonEvent | null = null;

  constructor(comparisonId: string, plan: ComparisonPlan) {
    this.#comparisonId = comparisonId;
    this.#plan = plan;
  }

  add(event: ComparisonEvent): void {
    if (event.type === 'cell-sample') {
      this.#lastSample = event;
      return;
    }
    if (event.type === 'cell-server-sample') {
      this.#lastServerSample = event;
      return;
    }
    // A cell's start or end makes the samples before it stale.
    if (event.type === 'cell-started' || event.type === 'cell-done') {
      this.#lastSample = null;
      this.#lastServerSample = null;
    }
    this.#events.push(event);
  }

  snapshot(): ActiveComparison {
    const latest = [this.#lastSample, this.#lastServerSample].filter((e) => e !== null);
    return { comparisonId: this.#comparisonId, plan: this.#plan, events: [...this.#events, ...latest] };
  }
}

const COMPARISONS: JobRules<ComparisonPlan, ComparisonEvent, ActiveComparison> = {
  noun: 'comparison',
  lastRecord: (plan, event) => {
    if (event.type !== 'done') return undefined;
    // The pre-flight stopped it before any load: nothing was measured, so there is nothing to
    // keep; the page shows why it did not run.
    if (event.preflightFailures) return null;
    return { kind: 'comparison', status: event.status, plan, outcomes: event.outcomes };
  },
  replay: (comparisonId, plan) => new ComparisonReplay(comparisonId, plan),
};

/**
 * The host's comparisons keyed by id, each owned by the caller that started it: its events
 * go to that owner only, a reloaded owner gets them back (compare.active), and each is saved
 * in run history as one record.
 */
export class ComparisonRegistry extends OwnedJobs<ComparisonPlan, ComparisonEvent, ActiveComparison> {
  constructor(opts: { service: ComparisonService; history: HistorySaver }) {
    super({ service: opts.service, kind: COMPARISONS, history: opts.history });
  }
}
