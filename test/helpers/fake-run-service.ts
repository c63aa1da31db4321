import type { RunEvent } from '../../shared/contract/api.ts';
import type { ComparisonEvent } from '../../shared/comparison/cells.ts';
import type { ComparisonPlan } from '../../shared/comparison/plan.ts';
import type { RunResult } from '../../shared/model/result.ts';
import type { Scenario } from '../../shared/model/scenario.ts';
import type { JobHandle } from '../../electron/engine/job-table.ts';
import type { ComparisonService } from '../../electron/host/comparison-registry.ts';
import type { RunService } from '../../electron/host/run-registry.ts';

interface FakeJob<E> {
  listeners: Set<(event: E) => void>;
  begun: boolean;
  ended: boolean;
  finish(event: E): void;
}

/**
 * A job service stand-in (the engine's runs, the comparison runner) for tests of the hosts'
 * glue: it records calls, runs nothing, and emits only the events a test pushes, to the job
 * they name, so routing can be checked event by event. Like a real job, one emits nothing
 * before its handle is subscribed to: a test that tries fails.
 */
class FakeJobService<I, E extends { type: string }, R> {
  readonly started: I[] = [];
  readonly stopped: string[] = [];
  readonly #jobs = new Map<string, FakeJob<E>>();
  readonly #prefix: string;
  readonly #idOf: (event: E) => string;
  readonly #cancelled: (id: string) => E;
  readonly #outcome: (last: E) => R;

  constructor(opts: {
    prefix: string;
    idOf: (event: E) => string;
    cancelled: (id: string) => E;
    outcome: (last: E) => R;
  }) {
    this.#prefix = opts.prefix;
    this.#idOf = opts.idOf;
    this.#cancelled = opts.cancelled;
    this.#outcome = opts.outcome;
  }

  start(input: I): JobHandle<E, R> {
    this.started.push(input);
    const id = `${this.#prefix}-${this.started.length}`;
    let finish: (outcome: R) => void = () => undefined;
    const done = new Promise<R>((resolve) => (finish = resolve));
    const job: FakeJob<E> = {
      listeners: new Set(),
      begun: false,
      ended: false,
      finish: (event) => finish(this.#outcome(event)),
    };
    this.#jobs.set(id, job);
    return {
      id,
      done,
      events: (listener) => {
        job.listeners.add(listener);
        job.begun = true;
        return () => job.listeners.delete(listener);
      },
    };
  }

  /** Whether the job's handle has been subscribed to (a real job would have begun). */
  begun(id: string): boolean {
    return this.#jobs.get(id)?.begun === true;
  }

  stop(id: string): Promise<boolean> {
    this.stopped.push(id);
    const job = this.#jobs.get(id);
    // Like a real job, one that has ended does not end again.
    if (job?.begun && !job.ended) this.emit(this.#cancelled(id));
    return Promise.resolve(true);
  }

  emit(event: E): void {
    const id = this.#idOf(event);
    const job = this.#jobs.get(id);
    if (!job?.begun) throw new Error(`${event.type} emitted for ${id} before its handle was subscribed to`);
    if (job.ended) throw new Error(`${event.type} emitted for ${id} after its 'done'`);
    job.ended = event.type === 'done';
    for (const listener of job.listeners) listener(event);
    if (job.ended) job.finish(event);
  }
}

/** The engine's RunManager, faked. */
export class FakeRunService extends FakeJobService<Scenario, RunEvent, RunResult[]> implements RunService {
  constructor() {
    super({
      prefix: 'run',
      idOf: (e) => e.runId,
      cancelled: (runId) => ({ type: 'done', runId, status: 'cancelled', results: [] }),
      outcome: (last) => (last.type === 'done' ? last.results : []),
    });
  }
}

/** The ComparisonRunner, faked: its outcome is the last event's outcomes (no table). */
export class FakeComparisonService
  extends FakeJobService<ComparisonPlan, ComparisonEvent, unknown>
  implements ComparisonService
{
  constructor() {
    super({
      prefix: 'cmp',
      idOf: (e) => e.comparisonId,
      cancelled: (comparisonId) => ({ type: 'done', comparisonId, status: 'cancelled', outcomes: [] }),
      outcome: (last) => (last.type === 'done' ? last.outcomes : []),
    });
  }
}

/** Waits past the macrotask after which the Electron IPC binding begins a job it started. */
export function nextMacrotask(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
