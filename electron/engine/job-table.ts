import { randomBytes } from 'node:crypto';
import { EventStream } from './event-stream.ts';

/**
 * A started job (a run, a comparison) as its consumer holds it: its id, its events and its
 * outcome. Nothing runs until the first call to events(), so whoever subscribes first hears
 * every event from the first, by construction: a host sends the start reply before it
 * subscribes, a comparison announces a cell before it subscribes to the cell's run.
 */
export interface JobHandle<E, R> {
  readonly id: string;
  /** Subscribes to the job's events (the first call starts it); returns the unsubscribe function. */
  events(listener: (event: E) => void): () => void;
  /** The outcome, after the job's last event; never rejects. */
  readonly done: Promise<R>;
}

/** One job as its service tracks it. */
export interface Job<S, R> {
  readonly id: string;
  readonly state: S;
  readonly done: Promise<R>;
  finished: boolean;
}

/**
 * Jobs of one kind (runs, comparisons) keyed by id, never a module-level "current" one.
 * Finished jobs are kept so stop() still answers for them; beyond `keep` the oldest are
 * forgotten.
 */
export class JobTable<S, E, R> {
  readonly #jobs = new Map<string, Job<S, R>>();
  readonly #prefix: string;
  readonly #keep: number;
  readonly #noun: string;

  constructor(opts: { prefix: string; noun: string; keep: number }) {
    this.#prefix = opts.prefix;
    this.#noun = opts.noun;
    this.#keep = opts.keep;
  }

  /**
   * Registers a job and returns its handle; `execute` runs on the handle's first subscription
   * and must not reject. A listener that throws harms neither the job nor other listeners.
   */
  start(state: S, execute: (id: string, state: S, emit: (event: E) => void) => Promise<R>): JobHandle<E, R> {
    const id = `${this.#prefix}-${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
    const stream = new EventStream<E>((error) =>
      console.error(`trebuchet: a ${this.#noun} event listener failed:`, error),
    );
    let resolveDone: (outcome: R) => void = () => undefined;
    const job: Job<S, R> = {
      id,
      state,
      done: new Promise((resolve) => (resolveDone = resolve)),
      finished: false,
    };
    this.#jobs.set(id, job);
    let begun = false;
    const events = (listener: (event: E) => void): (() => void) => {
      const unsubscribe = stream.subscribe(listener);
      if (!begun) {
        begun = true;
        void execute(id, state, (event) => stream.emit(event)).then((outcome) => {
          job.finished = true;
          stream.clear();
          this.#forgetOld();
          resolveDone(outcome);
        });
      }
      return unsubscribe;
    };
    return { id, events, done: job.done };
  }

  get(id: string): Job<S, R> | undefined {
    return this.#jobs.get(id);
  }

  /** Ids of the jobs not finished yet. */
  activeIds(): string[] {
    return [...this.#jobs.values()].filter((j) => !j.finished).map((j) => j.id);
  }

  #forgetOld(): void {
    const finished = [...this.#jobs.values()].filter((j) => j.finished);
    for (const j of finished.slice(0, Math.max(0, finished.length - this.#keep))) this.#jobs.delete(j.id);
  }
}
