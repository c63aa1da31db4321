/**
 * The part of a job service (the engine's runs, the comparison runner) a host uses: start a
 * job and get its id, hear every job's events, stop one.
 */
export interface JobService<I, E> {
  start(input: I): string;
  subscribe(listener: (event: E) => void): () => void;
  /** Resolves after that job's last event; false for an unknown id. */
  stop(id: string): Promise<boolean>;
}

/** Where an owner's events go: a window's webContents, or a page's open sockets. */
export type Sink<E> = (event: E) => void;

/**
 * What a reattaching owner gets back of one job: fed every event the owner was sent (or would
 * have been, while it had no sink), in order, it keeps a bounded summary to hand out.
 */
export interface Replay<E, S> {
  add(event: E): void;
  snapshot(): S;
}

/** How one kind of job (runs, comparisons) reads. */
export interface JobKind<I, E, S> {
  idOf(event: E): string;
  /** The job's last event: after it the job is over. */
  isLast(event: E): boolean;
  /** Work done before the last event is passed on (saving in history); resolves with the event to pass. */
  finish?(input: I, last: E): Promise<E>;
  replay(id: string, input: I): Replay<E, S>;
  /** For console messages: "run", "comparison". */
  noun: string;
}

interface Entry<I, E, S> {
  owner: string;
  input: I;
  replay: Replay<E, S>;
  /** Events held until the caller has its start reply, so a job never shows up unannounced. */
  held: E[] | null;
}

/**
 * Events a service emitted for a job before start() returned its id are kept until it does;
 * bounded, for jobs this registry did not start (a service shared with another caller).
 */
const MAX_EARLY_EVENTS = 64;
const MAX_EARLY_JOBS = 16;

/**
 * A host's registry of jobs keyed by id, each owned by the caller that started it (an
 * Electron window, a web page). It routes every job's events to its owner only, keeps a
 * replay of each so a reloaded page takes its jobs up again, and stops an owner's jobs when
 * the owner goes away. One per host and kind; no module-level state.
 */
export class OwnedJobs<I, E, S> {
  readonly #service: JobService<I, E>;
  readonly #kind: JobKind<I, E, S>;
  readonly #jobs = new Map<string, Entry<I, E, S>>();
  readonly #sinks = new Map<string, Sink<E>>();
  readonly #early = new Map<string, E[]>();
  readonly #finishing = new Set<Promise<void>>();
  readonly #unsubscribe: () => void;

  constructor(service: JobService<I, E>, kind: JobKind<I, E, S>) {
    this.#service = service;
    this.#kind = kind;
    this.#unsubscribe = service.subscribe((event) => this.#route(event));
  }

  /** Sends the owner's events to sink from now on (replacing any earlier sink). */
  attach(owner: string, sink: Sink<E>): void {
    this.#sinks.set(owner, sink);
  }

  /** Events for the owner's jobs are dropped (but kept in their replays) until it attaches again. */
  detach(owner: string): void {
    this.#sinks.delete(owner);
  }

  start(input: I, owner: string): string {
    const id = this.#service.start(input);
    const entry: Entry<I, E, S> = { owner, input, replay: this.#kind.replay(id, input), held: [] };
    this.#jobs.set(id, entry);
    const early = this.#early.get(id) ?? [];
    this.#early.delete(id);
    for (const event of early) this.#route(event);
    // Released after the caller's reply is on its way: hosts send it when the handler's
    // promise settles (a microtask), this runs a macrotask later.
    setImmediate(() => {
      const held = entry.held ?? [];
      entry.held = null;
      for (const event of held) this.#deliver(id, entry, event);
    });
    return id;
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

  /** Stops every job of the owner (window closed, page gone); each keeps what it measured. */
  async stopOwned(owner: string): Promise<void> {
    await Promise.all(this.idsOf(owner).map((id) => this.#service.stop(id)));
    await this.#idle();
  }

  /** Stops every job this registry started and stops listening to the service. */
  async close(): Promise<void> {
    await Promise.all([...this.#jobs.keys()].map((id) => this.#service.stop(id)));
    await this.#idle();
    this.#unsubscribe();
    this.#sinks.clear();
  }

  async #idle(): Promise<void> {
    while (this.#finishing.size > 0) await Promise.all([...this.#finishing]);
  }

  #route(event: E): void {
    const id = this.#kind.idOf(event);
    const entry = this.#jobs.get(id);
    if (!entry) {
      this.#keepEarly(id, event);
      return;
    }
    if (!this.#kind.finish || !this.#kind.isLast(event)) {
      this.#pass(id, entry, event);
      return;
    }
    // The last event waits for the finishing work; the job stays listed until it is passed on.
    const finishing = this.#kind.finish(entry.input, event).then((last) => this.#pass(id, entry, last));
    this.#finishing.add(finishing);
    void finishing.finally(() => this.#finishing.delete(finishing));
  }

  #keepEarly(id: string, event: E): void {
    const early = this.#early.get(id) ?? [];
    if (early.length < MAX_EARLY_EVENTS || this.#kind.isLast(event)) early.push(event);
    this.#early.set(id, early);
    const oldest = this.#early.keys().next();
    if (this.#early.size > MAX_EARLY_JOBS && !oldest.done) this.#early.delete(oldest.value);
  }

  #pass(id: string, entry: Entry<I, E, S>, event: E): void {
    if (entry.held) entry.held.push(event);
    else this.#deliver(id, entry, event);
  }

  #deliver(id: string, entry: Entry<I, E, S>, event: E): void {
    entry.replay.add(event);
    if (this.#kind.isLast(event)) this.#jobs.delete(id);
    const sink = this.#sinks.get(entry.owner);
    if (!sink) return;
    try {
      sink(event);
    } catch (error) {
      // A broken window or socket must not break the service's event loop for other jobs.
      console.error(`trebuchet: could not deliver a ${this.#kind.noun} event:`, error);
    }
  }
}
