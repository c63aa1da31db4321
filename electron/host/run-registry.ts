import type { ActiveRun, RunEvent } from '../../shared/contract/api.ts';
import type { Scenario } from '../../shared/model/scenario.ts';
import type { HistorySaver } from '../services/history-saver.ts';
import { OwnedJobs, type JobRules, type JobService, type Replay } from './owned-jobs.ts';

/** The part of the engine's RunManager a host uses (electron/engine/manager.ts). */
export type RunService = JobService<Scenario, RunEvent, unknown>;

/**
 * Samples a reloaded page gets back of the target running now: one per tick, so an hour at
 * the default 1 s tick (six minutes at 100 ms); beyond that the oldest go first.
 */
export const MAX_REPLAY_SAMPLES = 3600;

/**
 * A run's events as a reloaded page needs them: all but the samples, and the samples of the
 * target running now only (a finished target's result carries all of its own). Those come
 * last in the replay, as they came after that target's 'target-started'.
 */
class RunReplay implements Replay<RunEvent, ActiveRun> {
  readonly #runId: string;
  readonly #scenario: Scenario;
  readonly #events: RunEvent[] = [];
  #samples: Extract<RunEvent, { type: 'sample' | 'server-sample' }>[] = [];
  /** performance.now() when the target running now started; null between targets. */
  #targetStartedAt: number | null = null;

  constructor(runId: string, scenario: Scenario) {
    this.#runId = runId;
    this.#scenario = scenario;
  }

  add(event: RunEvent): void {
    switch (event.type) {
      case 'sample':
      case 'server-sample':
        // A sample under the last one's seq replaces it (the engine's final fold).
        if (
          this.#samples.at(-1)?.type === event.type &&
          this.#samples.at(-1)?.sample.seq === event.sample.seq
        )
          this.#samples.pop();
        this.#samples.push(event);
        if (this.#samples.length > MAX_REPLAY_SAMPLES) this.#samples.splice(0, MAX_REPLAY_SAMPLES / 10);
        return;
      case 'target-started':
        this.#targetStartedAt = performance.now();
        this.#samples = [];
        break;
      case 'target-done':
        this.#targetStartedAt = null;
        this.#samples = [];
        break;
      case 'started':
      case 'done':
      case 'error':
        break;
    }
    this.#events.push(event);
  }

  snapshot(): ActiveRun {
    const started = this.#targetStartedAt;
    return {
      runId: this.#runId,
      scenario: this.#scenario,
      events: [...this.#events, ...this.#samples],
      targetElapsedSeconds: started === null ? null : (performance.now() - started) / 1000,
    };
  }
}

const RUNS: JobRules<Scenario, RunEvent, ActiveRun> = {
  noun: 'run',
  lastRecord: (scenario, event) =>
    event.type === 'done'
      ? { kind: 'scenario', status: event.status, scenario, results: event.results }
      : undefined,
  replay: (runId, scenario) => new RunReplay(runId, scenario),
};

/**
 * The host's runs keyed by run id, each owned by the caller that started it (an Electron
 * window, a web page): events go to the owner only, a reloaded owner gets its runs back
 * (run.active), an owner's runs stop when it goes away, and each is saved in run history.
 */
export class RunRegistry extends OwnedJobs<Scenario, RunEvent, ActiveRun> {
  constructor(opts: { service: RunService; history: HistorySaver }) {
    super({ service: opts.service, kind: RUNS, history: opts.history });
  }
}
