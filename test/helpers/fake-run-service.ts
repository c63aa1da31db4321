import type { RunEvent } from '../../shared/api.ts';
import type { RunResult } from '../../shared/result.ts';
import type { Scenario } from '../../shared/scenario.ts';
import type { RunService } from '../../electron/host/run-registry.ts';

/**
 * An engine stand-in for tests of the hosts' glue: it records calls and emits only the
 * events a test pushes, so routing can be checked event by event.
 */
export class FakeRunService implements RunService {
  readonly started: Scenario[] = [];
  readonly stopped: string[] = [];
  readonly #listeners = new Set<(event: RunEvent) => void>();
  readonly #done = new Map<string, { promise: Promise<RunResult[]>; resolve(results: RunResult[]): void }>();
  #next = 1;

  start(scenario: Scenario): string {
    this.started.push(scenario);
    return `run-${this.#next++}`;
  }
  subscribe(listener: (event: RunEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }
  stop(runId: string): Promise<boolean> {
    this.stopped.push(runId);
    this.emit({ type: 'done', runId, status: 'cancelled', results: [] });
    return Promise.resolve(true);
  }
  async stopAll(): Promise<void> {
    await Promise.resolve();
  }
  /** Resolves with the results of the run's 'done' event, once a test emits it. */
  whenDone(runId: string): Promise<RunResult[]> {
    return this.#waiter(runId).promise;
  }
  emit(event: RunEvent): void {
    for (const listener of this.#listeners) listener(event);
    if (event.type === 'done') this.#waiter(event.runId).resolve(event.results);
  }
  #waiter(runId: string) {
    let waiter = this.#done.get(runId);
    if (!waiter) {
      let resolve: (results: RunResult[]) => void = () => undefined;
      const promise = new Promise<RunResult[]>((r) => (resolve = r));
      waiter = { promise, resolve };
      this.#done.set(runId, waiter);
    }
    return waiter;
  }
}

/** Waits until the registry has released held events (it does so a macrotask after start). */
export function nextMacrotask(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
