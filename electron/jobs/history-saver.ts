import type { HistorySummary, HistoryRecordDraft } from '../../shared/records/history.ts';

/** What the saver needs from the history store (electron/stores/history-store.ts). */
export interface HistorySink {
  save(draft: HistoryRecordDraft): Promise<HistorySummary>;
}

/** Where a finished run was saved, as the 'done' events carry it. */
export type SavedAs = { historyId: string } | { historyError: string };

/**
 * Saves finished runs and comparisons in run history, for every host alike. A save never
 * throws: a full disk or a broken directory becomes a message on the 'done' event, and
 * the run's results still reach the UI. idle() lets a host that is shutting down wait for
 * the saves in flight.
 */
export class HistorySaver {
  readonly #history: HistorySink;
  readonly #appVersion: string;
  readonly #pending = new Set<Promise<unknown>>();

  constructor(opts: { history: HistorySink; appVersion: string }) {
    this.#history = opts.history;
    this.#appVersion = opts.appVersion;
  }

  /** Saves a record; appVersion is filled in here so every record says which app wrote it. */
  save(draft: HistoryDraft): Promise<SavedAs> {
    const full: HistoryRecordDraft = { ...draft, appVersion: this.#appVersion };
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

/** A record to save, as its job knows it (the app version is filled in on saving). */
export type HistoryDraft = DistributiveOmit<HistoryRecordDraft, 'appVersion'>;
