import type { RunEvent } from '../../shared/api.ts';
import type { HistorySummary, RunRecordDraft } from '../../shared/history.ts';
import type { Scenario } from '../../shared/scenario.ts';
import { EventStream } from '../engine/event-stream.ts';
import type { RunService } from '../host/run-registry.ts';

/** What the recorder needs from the history store (electron/stores/history-store.ts). */
export interface HistorySink {
  save(draft: RunRecordDraft): Promise<HistorySummary>;
}

/** Where a finished run was saved, as the 'done' events carry it. */
export type SavedAs = { historyId: string } | { historyError: string };

/**
 * Saves finished runs and comparisons in run history, for every host alike. A save never
 * throws: a full disk or a broken directory becomes a message on the 'done' event, and
 * the run's results still reach the UI. idle() lets a host that is shutting down wait for
 * the saves in flight.
 */
export class HistoryRecorder {
  readonly #history: HistorySink;
  readonly #appVersion: string;
  readonly #pending = new Set<Promise<unknown>>();

  constructor(opts: { history: HistorySink; appVersion: string }) {
    this.#history = opts.history;
    this.#appVersion = opts.appVersion;
  }

  /** Saves a record; appVersion is filled in here so every record says which app wrote it. */
  record(draft: DistributiveOmit<RunRecordDraft, 'appVersion'>): Promise<SavedAs> {
    const full: RunRecordDraft = { ...draft, appVersion: this.#appVersion };
    const saving = this.#history.save(full).then(
      (summary): SavedAs => ({ historyId: summary.id }),
      (error: unknown): SavedAs => {
        const message = error instanceof Error ? error.message : String(error);
        console.error('trebuchet: could not save the run in history:', message);
        return { historyError: `The run could not be saved in history: ${message}` };
      },
    );
    this.#pending.add(saving);
    void saving.finally(() => this.#pending.delete(saving));
    return saving;
  }

  /** Resolves once every save started so far has finished. */
  async idle(): Promise<void> {
    while (this.#pending.size > 0) await Promise.all([...this.#pending]);
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/**
 * The engine as the run registry sees it, with history: every run started through it is
 * saved when it ends (completed, cancelled or failed), and its 'done' event is passed on
 * only after the save, carrying the saved run's id. Runs started on the engine by others
 * (a comparison's cells, saved as one comparison) are neither saved nor passed on.
 */
export class RecordingRunService implements RunService {
  readonly #engine: RunService;
  readonly #recorder: HistoryRecorder;
  readonly #scenarios = new Map<string, Scenario>();
  readonly #events = new EventStream<RunEvent>((error) =>
    console.error('trebuchet: a run event listener failed:', error),
  );
  readonly #unsubscribe: () => void;

  constructor(opts: { engine: RunService; recorder: HistoryRecorder }) {
    this.#engine = opts.engine;
    this.#recorder = opts.recorder;
    this.#unsubscribe = this.#engine.subscribe((event) => this.#receive(event));
  }

  start(scenario: Scenario): string {
    const runId = this.#engine.start(scenario);
    this.#scenarios.set(runId, scenario);
    return runId;
  }

  subscribe(listener: (event: RunEvent) => void): () => void {
    return this.#events.subscribe(listener);
  }

  stop(runId: string): Promise<boolean> {
    return this.#engine.stop(runId);
  }

  /** Stops every run and waits until each one is saved. */
  async stopAll(): Promise<void> {
    await this.#engine.stopAll();
    await this.#recorder.idle();
  }

  /** Stops listening to the engine (the engine itself is not stopped). */
  close(): void {
    this.#unsubscribe();
    this.#events.clear();
  }

  #receive(event: RunEvent): void {
    const scenario = this.#scenarios.get(event.runId);
    if (!scenario) return;
    if (event.type !== 'done') {
      this.#events.emit(event);
      return;
    }
    this.#scenarios.delete(event.runId);
    // 'done' is a run's last event, so holding it back while saving keeps the run's order.
    void this.#recorder
      .record({ kind: 'scenario', status: event.status, scenario, results: event.results })
      .then((saved) => this.#events.emit({ ...event, ...saved }));
  }
}
