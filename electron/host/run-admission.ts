import { LIMITS } from '../../shared/model/defaults.ts';

/** What the admission counts: the host's run and comparison registries (electron/host/owned-jobs.ts). */
export interface JobCounter {
  /** The owner's jobs that have not ended. */
  idsOf(owner: string): string[];
}

export class TooManyRunsError extends Error {
  readonly code = 'too-many-runs';
  constructor(max: number) {
    super(
      `this host already runs ${max} runs and comparisons at once, the most it allows (each one loads the machine); stop one or wait for one to end`,
    );
    this.name = 'TooManyRunsError';
  }
}

/**
 * Caps the runs and comparisons one host runs at the same time, whoever started them: every
 * run holds worker threads, sockets and memory, and runs side by side measure each other's
 * load rather than the server. Call admit() right before starting, in the same tick.
 */
export class RunAdmission {
  readonly #counters: readonly JobCounter[];
  readonly #max: number;
  /** Owners that started a job; one with none left is forgotten at the next count. */
  readonly #owners = new Set<string>();

  constructor(counters: readonly JobCounter[], max: number = LIMITS.concurrentRuns.max) {
    this.#counters = counters;
    this.#max = max;
  }

  /** Jobs running now, over every owner. */
  active(): number {
    let total = 0;
    for (const owner of this.#owners) {
      const n = this.#counters.reduce((sum, c) => sum + c.idsOf(owner).length, 0);
      if (n === 0) this.#owners.delete(owner);
      total += n;
    }
    return total;
  }

  /** Throws a TooManyRunsError when the host is at its cap; else counts the owner in. */
  admit(owner: string): void {
    if (this.active() >= this.#max) throw new TooManyRunsError(this.#max);
    this.#owners.add(owner);
  }
}
