import type { RunEvent } from '../../shared/api.ts';
import type { Scenario } from '../../shared/scenario.ts';

/** The part of the engine's RunManager a host uses (electron/engine/manager.ts). */
export interface RunService {
  start(scenario: Scenario): string;
  subscribe(listener: (event: RunEvent) => void): () => void;
  /** Resolves after that run's 'done' (partial results, status 'cancelled'). */
  stop(runId: string): Promise<boolean>;
  stopAll(): Promise<void>;
}

/** Where an owner's events go: a window's webContents, or a page's open sockets. */
export type EventSink = (event: RunEvent) => void;

interface RunEntry {
  owner: string;
  /** Events held until the caller has its run.start reply, so a run never shows up unannounced. */
  held: RunEvent[] | null;
}

/**
 * Events a manager emitted for a run before start() returned its id are kept until it does;
 * bounded, for runs this registry did not start (a manager shared with another caller).
 */
const MAX_EARLY_EVENTS = 64;
const MAX_EARLY_RUNS = 16;

/**
 * The host's registry of runs keyed by run id, each owned by the caller that started it
 * (an Electron window, a web page). It routes every run's events to its owner only, and
 * stops an owner's runs when the owner goes away. One per host; no module-level state.
 */
export class RunRegistry {
  readonly #service: RunService;
  readonly #runs = new Map<string, RunEntry>();
  readonly #sinks = new Map<string, EventSink>();
  readonly #early = new Map<string, RunEvent[]>();
  readonly #unsubscribe: () => void;

  constructor(service: RunService) {
    this.#service = service;
    this.#unsubscribe = service.subscribe((event) => this.#route(event));
  }

  /** Sends the owner's run events to sink from now on (replacing any earlier sink). */
  attach(owner: string, sink: EventSink): void {
    this.#sinks.set(owner, sink);
  }

  /** Events for the owner's runs are dropped until it attaches again; the runs go on. */
  detach(owner: string): void {
    this.#sinks.delete(owner);
  }

  start(scenario: Scenario, owner: string): string {
    const runId = this.#service.start(scenario);
    const early = this.#early.get(runId) ?? [];
    this.#early.delete(runId);
    const entry: RunEntry = { owner, held: early };
    if (!early.some((event) => event.type === 'done')) this.#runs.set(runId, entry);
    // Release after the caller's reply is on its way: hosts send it when the handler's
    // promise settles (a microtask), this runs a macrotask later.
    setImmediate(() => {
      const held = entry.held ?? [];
      entry.held = null;
      for (const event of held) this.#deliver(entry, event);
    });
    return runId;
  }

  /** Stops a run the owner started; false when unknown, finished or someone else's. */
  async stop(runId: string, owner: string): Promise<boolean> {
    const entry = this.#runs.get(runId);
    if (!entry || entry.owner !== owner) return false;
    return this.#service.stop(runId);
  }

  /** The owner's runs that have not ended yet. */
  runsOf(owner: string): string[] {
    return [...this.#runs].filter(([, entry]) => entry.owner === owner).map(([runId]) => runId);
  }

  /** Stops every run of the owner (window closed, page gone); each keeps its partial result. */
  async stopOwned(owner: string): Promise<void> {
    await Promise.all(this.runsOf(owner).map((runId) => this.#service.stop(runId)));
  }

  /** Stops every run this registry started and stops listening to the manager. */
  async close(): Promise<void> {
    await Promise.all([...this.#runs.keys()].map((runId) => this.#service.stop(runId)));
    this.#unsubscribe();
    this.#sinks.clear();
  }

  #route(event: RunEvent): void {
    const entry = this.#runs.get(event.runId);
    if (!entry) {
      const early = this.#early.get(event.runId) ?? [];
      if (early.length < MAX_EARLY_EVENTS || event.type === 'done') early.push(event);
      this.#early.set(event.runId, early);
      const oldest = this.#early.keys().next();
      if (this.#early.size > MAX_EARLY_RUNS && !oldest.done) this.#early.delete(oldest.value);
      return;
    }
    if (entry.held) entry.held.push(event);
    else this.#deliver(entry, event);
    if (event.type === 'done') this.#runs.delete(event.runId);
  }

  #deliver(entry: RunEntry, event: RunEvent): void {
    const sink = this.#sinks.get(entry.owner);
    if (!sink) return;
    try {
      sink(event);
    } catch (error) {
      // A broken window or socket must not break the engine's event loop for other runs.
      console.error('trebuchet: could not deliver a run event:', error);
    }
  }
}
