import { randomBytes } from 'node:crypto';

/** One job: its id, its owner's state, and the promise of its outcome. */
export interface Job<S, R> {
  readonly id: string;
  readonly state: S;
  readonly done: Promise<R>;
  finished: boolean;
}

/**
 * Jobs of one kind (runs, comparisons) keyed by id, never a module-level "current" one.
 * start() returns the id at once and executes the job on a microtask, so a listener that
 * subscribes right after still sees its first event. Finished jobs are kept so whenDone()
 * and stop() still answer for them; beyond `keep` the oldest are forgotten.
 */
export class JobTable<S, R> {
  readonly #jobs = new Map<string, Job<S, R>>();
  readonly #prefix: string;
  readonly #keep: number;
  readonly #noun: string;
  readonly #onFinished: () => void;

  constructor(opts: { prefix: string; noun: string; keep: number; onFinished?: () => void }) {
    this.#prefix = opts.prefix;
    this.#noun = opts.noun;
    this.#keep = opts.keep;
    this.#onFinished = opts.onFinished ?? (() => undefined);
  }

  /** Registers a job and executes it on a microtask; `execute` must not reject. */
  start(state: S, execute: (id: string, state: S) => Promise<R>): string {
    const id = `${this.#prefix}-${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
    let resolveDone: (outcome: R) => void = () => undefined;
    const job: Job<S, R> = {
      id,
      state,
      done: new Promise((resolve) => (resolveDone = resolve)),
      finished: false,
    };
    this.#jobs.set(id, job);
    queueMicrotask(() => {
      void execute(id, state).then((outcome) => {
        job.finished = true;
        this.#forgetOld();
        this.#onFinished();
        resolveDone(outcome);
      });
    });
    return id;
  }

  get(id: string): Job<S, R> | undefined {
    return this.#jobs.get(id);
  }

  /** The job's outcome; rejects for an unknown id. */
  whenDone(id: string): Promise<R> {
    const job = this.#jobs.get(id);
    return job ? job.done : Promise.reject(new Error(`${this.#noun} ${id} is unknown`));
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
