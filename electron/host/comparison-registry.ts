import type { ComparisonEvent, ComparisonPlan } from '../../shared/comparison.ts';
import type { HistoryRecorder } from '../services/history-recorder.ts';

/** The part of the ComparisonRunner (electron/services/comparison-runner.ts) a host uses. */
export interface ComparisonService {
  start(plan: ComparisonPlan): string;
  subscribe(listener: (event: ComparisonEvent) => void): () => void;
  /** Resolves after that comparison's 'done' (finished cells kept); false for an unknown id. */
  stop(comparisonId: string): Promise<boolean>;
}

export type ComparisonSink = (event: ComparisonEvent) => void;

interface Entry {
  owner: string;
  plan: ComparisonPlan;
  /** Events held until the caller has its compare.start reply (as the run registry does). */
  held: ComparisonEvent[] | null;
}

/**
 * The host's comparisons keyed by id, each owned by the caller that started it: its events
 * go to that owner only, and each finished comparison (completed, cancelled or failed) is
 * saved in run history before its 'done' is passed on, carrying the saved run's id.
 */
export class ComparisonRegistry {
  readonly #service: ComparisonService;
  readonly #recorder: HistoryRecorder;
  readonly #entries = new Map<string, Entry>();
  readonly #sinks = new Map<string, ComparisonSink>();
  readonly #unsubscribe: () => void;

  constructor(opts: { service: ComparisonService; recorder: HistoryRecorder }) {
    this.#service = opts.service;
    this.#recorder = opts.recorder;
    this.#unsubscribe = this.#service.subscribe((event) => this.#route(event));
  }

  attach(owner: string, sink: ComparisonSink): void {
    this.#sinks.set(owner, sink);
  }

  detach(owner: string): void {
    this.#sinks.delete(owner);
  }

  start(plan: ComparisonPlan, owner: string): string {
    const comparisonId = this.#service.start(plan);
    const entry: Entry = { owner, plan, held: [] };
    this.#entries.set(comparisonId, entry);
    // Released a macrotask later, after the host has sent the reply (a microtask away).
    setImmediate(() => {
      const held = entry.held ?? [];
      entry.held = null;
      for (const event of held) this.#deliver(entry, event);
    });
    return comparisonId;
  }

  /** Stops a comparison the owner started; false when unknown, finished or someone else's. */
  async stop(comparisonId: string, owner: string): Promise<boolean> {
    const entry = this.#entries.get(comparisonId);
    if (!entry || entry.owner !== owner) return false;
    return this.#service.stop(comparisonId);
  }

  /** The owner's comparisons that have not ended yet. */
  comparisonsOf(owner: string): string[] {
    return [...this.#entries].filter(([, e]) => e.owner === owner).map(([id]) => id);
  }

  async stopOwned(owner: string): Promise<void> {
    await Promise.all(this.comparisonsOf(owner).map((id) => this.#service.stop(id)));
    await this.#recorder.idle();
  }

  /** Stops every comparison (each saved with the cells it finished) and stops listening. */
  async close(): Promise<void> {
    await Promise.all([...this.#entries.keys()].map((id) => this.#service.stop(id)));
    await this.#recorder.idle();
    this.#unsubscribe();
    this.#sinks.clear();
  }

  #route(event: ComparisonEvent): void {
    const entry = this.#entries.get(event.comparisonId);
    if (!entry) return;
    if (event.type !== 'done') {
      this.#pass(entry, event);
      return;
    }
    this.#entries.delete(event.comparisonId);
    void this.#recorder
      .record({ kind: 'comparison', status: event.status, plan: entry.plan, outcomes: event.outcomes })
      .then((saved) => this.#pass(entry, { ...event, ...saved }));
  }

  #pass(entry: Entry, event: ComparisonEvent): void {
    if (entry.held) entry.held.push(event);
    else this.#deliver(entry, event);
  }

  #deliver(entry: Entry, event: ComparisonEvent): void {
    const sink = this.#sinks.get(entry.owner);
    if (!sink) return;
    try {
      sink(event);
    } catch (error) {
      console.error('trebuchet: could not deliver a comparison event:', error);
    }
  }
}
