import type { JobHandle } from '../engine/job-table.ts';
import type { HistoryDraft, HistorySaver, SavedAs } from '../services/history-saver.ts';

/** The part of a job service (the engine's runs, the comparison runner) a host uses. */
export interface JobService<I, E, R> {
  start(input: I): JobHandle<E, R>;
  /** Resolves after that job's last event; false for an unknown id. */
  stop(id: string): Promise<boolean>;
}

/**
 * Where one job's events go to its owner: a window's webContents, a page's open sockets.
 * `last` is true on the job's last event.
 */
export type Sink<E> = (event: E, last: boolean) => void;

/** Opens the sink of one more job of an owner. */
export type SinkOpener<E> = () => Sink<E>;

/**
 * What a reattaching owner gets back of one job: fed every event the owner was sent (or would
 * have been, while it had no sink), in order, it keeps a bounded summary to hand out.
 */
export interface Replay<E, S> {
  add(event: E): void;
  snapshot(): S;
}

/** How one kind of job (runs, comparisons) reads. */
export interface JobRules<I, E, S> {
  /**
   * For the job's last event, what to save in history (null: nothing worth keeping); undefined
   * for every other event. A saved last event is passed on once saved, with where (SavedAs:
   * historyId or historyError) added.
   */
  lastRecord(input: I, event: E): HistoryDraft | null | undefined;
  replay(id: string, input: I): Replay<E, S>;
  /** For console messages: "run", "comparison". */
  noun: string;
}

interface Entry<I, E, S> {
  owner: string;
  input: I;
  replay: Replay<E, S>;
  sink: Sink<E> | null;
}

/** A job registered for its owner; its events flow once begin() is called. */
export interface OwnedJob {
  id: string;
  /** Subscribes to the job (which starts it): call once the caller has its start reply. */
  begin: () => void;
}

/**
 * A host's registry of jobs keyed by id, each owned by the caller that started it (an
 * Electron window, a web page). Each job's handle feeds its owner's sink only, so nothing is
 * broadcast and filtered; a replay of each lets a reloaded page take its jobs up again; an
 * owner's jobs stop when the owner goes away. A finished job (completed, cancelled or failed)
 * is saved in run history before its last event is passed on, carrying where it was saved:
 * the one place that happens for both kinds. One registry per host and kind.
 */
export class OwnedJobs<I, E, S> {
  readonly #service: JobService<I, E, unknown>;
  readonly #kind: JobRules<I, E, S>;
  readonly #history: HistorySaver;
  readonly #jobs = new Map<string, Entry<I, E, S>>();
  readonly #openers = new Map<string, SinkOpener<E>>();
  readonly #finishing = new Set<Promise<void>>();

  constructor(opts: { service: JobService<I, E, unknown>; kind: JobRules<I, E, S>; history: HistorySaver }) {
    this.#service = opts.service;
    this.#kind = opts.kind;
    this.#history = opts.history;
  }

  /** Gives the owner's jobs, those running and those to come, a sink each (replacing any earlier). */
  attach(owner: string, open: SinkOpener<E>): void {
    this.#openers.set(owner, open);
    for (const entry of this.#jobs.values()) if (entry.owner === owner) entry.sink = open();
  }

  /** Events for the owner's jobs are dropped (but kept in their replays) until it attaches again. */
  detach(owner: string): void {
    this.#openers.delete(owner);
    for (const entry of this.#jobs.values()) if (entry.owner === owner) entry.sink = null;
  }

  /**
   * Registers a job for the owner and returns its id. Its events start with begin(), which the
   * host calls once the start reply is on its way: the reply comes first by construction.
   */
  start(input: I, owner: string): OwnedJob {
    const job = this.#service.start(input);
    const entry: Entry<I, E, S> = { owner, input, replay: this.#kind.replay(job.id, input), sink: null };
    this.#jobs.set(job.id, entry);
    return {
      id: job.id,
      begin: () => {
        entry.sink ??= this.#openers.get(owner)?.() ?? null;
        job.events((event) => this.#receive(job.id, entry, event));
      },
    };
  }

  /** Stops a job the owner started; false when unknown, finished or someone else's. */
  async stop(id: string, owner: string): Promise<boolean> {
    const entry = this.#jobs.get(id);
    if (!entry || entry.owner !== owner) return false;
    return this.#service.stop(id);
  }

  /** The owner's jobs whose last event has not been passed on yet, oldest first. */
  idsOf(owner: string): string[] {
    return [...this.#jobs].filter(([, entry]) => entry.owner === owner).map(([id]) => id);
  }

  /** What a reattaching owner needs of each of its jobs, oldest first. */
  activeOf(owner: string): S[] {
    return [...this.#jobs.values()].filter((e) => e.owner === owner).map((e) => e.replay.snapshot());
  }

  /** Stops every job of the owner (window closed, page gone); each keeps and saves what it measured. */
  async stopOwned(owner: string): Promise<void> {
    await Promise.all(this.idsOf(owner).map((id) => this.#service.stop(id)));
    await this.#idle();
  }

  /** Stops every job this registry started and waits until each is saved. */
  async close(): Promise<void> {
    await Promise.all([...this.#jobs.keys()].map((id) => this.#service.stop(id)));
    await this.#idle();
    this.#openers.clear();
  }

  async #idle(): Promise<void> {
    while (this.#finishing.size > 0) await Promise.all([...this.#finishing]);
  }

  #receive(id: string, entry: Entry<I, E, S>, event: E): void {
    const record = this.#kind.lastRecord(entry.input, event);
    if (record === undefined || record === null) {
      this.#deliver(id, entry, event, record === null);
      return;
    }
    // The last event waits for the save; the job stays listed until it is passed on.
    const finishing = this.#history
      .save(record)
      .then((saved: SavedAs) => this.#deliver(id, entry, { ...event, ...saved }, true));
    this.#finishing.add(finishing);
    void finishing.finally(() => this.#finishing.delete(finishing));
  }

  #deliver(id: string, entry: Entry<I, E, S>, event: E, last: boolean): void {
    entry.replay.add(event);
    if (last) this.#jobs.delete(id);
    if (!entry.sink) return;
    try {
      entry.sink(event, last);
    } catch (error) {
      // A broken window or socket must not break the job's event loop.
      console.error(`trebuchet: could not deliver a ${this.#kind.noun} event:`, error);
    }
  }
}
