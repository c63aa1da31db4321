import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { RunEvent } from '../../shared/api.ts';
import {
  aggregateComparison,
  expandPlan,
  type CellOutcome,
  type ComparisonEvent,
  type ComparisonPlan,
  type ComparisonTable,
} from '../../shared/comparison.ts';
import type { RunResult } from '../../shared/result.ts';
import type { Scenario } from '../../shared/scenario.ts';

/** What the runner needs from the engine's RunManager (electron/engine/manager.ts). */
export interface RunManagerLike {
  start(scenario: Scenario): string;
  subscribe(listener: (event: RunEvent) => void): () => void;
  stop(runId: string): Promise<boolean>;
  whenDone(runId: string): Promise<RunResult[]>;
}

export type ComparisonStatus = Extract<ComparisonEvent, { type: 'done' }>['status'];

/** A finished comparison: every cell run that produced a result, and the table built from them. */
export interface ComparisonOutcome {
  comparisonId: string;
  plan: ComparisonPlan;
  status: ComparisonStatus;
  /** In run order; a cell stopped midway is included with status 'cancelled' (the table leaves it out). */
  outcomes: CellOutcome[];
  table: ComparisonTable;
}

interface Entry {
  readonly plan: ComparisonPlan;
  readonly done: Promise<ComparisonOutcome>;
  readonly abort: AbortController;
  /** The engine run of the cell running now. */
  currentRunId: string | null;
  finished: boolean;
}

/** Finished comparisons kept so whenDone() still answers for them. */
const FINISHED_KEPT = 20;

/**
 * Runs comparison plans cell after cell through the RunManager (one engine run per cell,
 * never two at once within a comparison), reporting progress over the whole matrix on one
 * event stream. Electron-free: the desktop, the web host and the CLI share it.
 */
export class ComparisonRunner {
  readonly #manager: RunManagerLike;
  readonly #entries = new Map<string, Entry>();
  readonly #listeners = new Set<(event: ComparisonEvent) => void>();
  /** Engine run id -> the comparison and cell it belongs to, to forward its samples. */
  readonly #runCells = new Map<string, { comparisonId: string; cellIndex: number }>();
  #unsubscribe: (() => void) | null = null;

  constructor(opts: { manager: RunManagerLike }) {
    this.#manager = opts.manager;
  }

  /** Starts a validated plan and returns its id at once; events begin on a microtask. */
  start(plan: ComparisonPlan): string {
    const comparisonId = `cmp-${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
    let resolveDone: (o: ComparisonOutcome) => void = () => undefined;
    const entry: Entry = {
      plan,
      done: new Promise((resolve) => (resolveDone = resolve)),
      abort: new AbortController(),
      currentRunId: null,
      finished: false,
    };
    this.#entries.set(comparisonId, entry);
    this.#unsubscribe ??= this.#manager.subscribe((e) => this.#forward(e));
    queueMicrotask(() => {
      void this.#execute(comparisonId, entry).then((outcome) => {
        entry.finished = true;
        this.#forget();
        resolveDone(outcome);
      });
    });
    return comparisonId;
  }

  /** Every comparison's events; returns the unsubscribe function. */
  subscribe(listener: (event: ComparisonEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  /**
   * Stops a comparison: the running cell ends with its partial result, later cells are
   * skipped, finished cells are kept. Resolves after 'done'; false for an unknown id.
   */
  async stop(comparisonId: string): Promise<boolean> {
    const entry = this.#entries.get(comparisonId);
    if (!entry) return false;
    if (!entry.finished) {
      entry.abort.abort();
      if (entry.currentRunId !== null) await this.#manager.stop(entry.currentRunId);
    }
    await entry.done;
    return true;
  }

  /** The comparison's outcome; rejects for an unknown id. */
  whenDone(comparisonId: string): Promise<ComparisonOutcome> {
    const entry = this.#entries.get(comparisonId);
    return entry ? entry.done : Promise.reject(new Error(`comparison ${comparisonId} is unknown`));
  }

  activeComparisonIds(): string[] {
    return [...this.#entries].filter(([, e]) => !e.finished).map(([id]) => id);
  }

  async #execute(comparisonId: string, entry: Entry): Promise<ComparisonOutcome> {
    const { plan, abort } = entry;
    const cells = expandPlan(plan);
    const cellCount = cells.length;
    const outcomes: CellOutcome[] = [];
    this.#emit({ type: 'started', comparisonId, cellCount });
    for (const cell of cells) {
      if (abort.signal.aborted) break;
      if (cell.index > 0 && plan.pauseSeconds > 0) {
        this.#emit({ type: 'pause', comparisonId, nextCellIndex: cell.index, seconds: plan.pauseSeconds });
        try {
          await sleep(plan.pauseSeconds * 1000, undefined, { signal: abort.signal });
        } catch {
          break;
        }
      }
      let results: RunResult[];
      try {
        const runId = this.#manager.start(cell.scenario);
        entry.currentRunId = runId;
        this.#runCells.set(runId, { comparisonId, cellIndex: cell.index });
        this.#emit({
          type: 'cell-started',
          comparisonId,
          cellIndex: cell.index,
          cellCount,
          coordinates: cell.coordinates,
          runId,
        });
        // A stop() that came between start() and here would have found no run to stop.
        if (abort.signal.aborted) await this.#manager.stop(runId);
        results = await this.#manager.whenDone(runId);
        this.#runCells.delete(runId);
      } catch (err) {
        this.#emit({
          type: 'error',
          comparisonId,
          cellIndex: cell.index,
          message: err instanceof Error ? err.message : String(err),
        });
        continue;
      } finally {
        entry.currentRunId = null;
      }
      const result = results[0];
      if (!result) continue;
      const outcome: CellOutcome = { cellIndex: cell.index, coordinates: cell.coordinates, result };
      outcomes.push(outcome);
      this.#emit({ type: 'cell-done', comparisonId, cellCount, outcome });
    }
    const status: ComparisonStatus =
      abort.signal.aborted || outcomes.some((o) => o.result.status === 'cancelled')
        ? 'cancelled'
        : outcomes.length > 0 && outcomes.every((o) => o.result.status === 'failed')
          ? 'failed'
          : 'completed';
    this.#emit({ type: 'done', comparisonId, status, outcomes });
    return { comparisonId, plan, status, outcomes, table: aggregateComparison(plan, outcomes) };
  }

  #forward(event: RunEvent): void {
    if (event.type !== 'sample') return;
    const where = this.#runCells.get(event.runId);
    if (!where) return;
    this.#emit({
      type: 'cell-sample',
      comparisonId: where.comparisonId,
      cellIndex: where.cellIndex,
      sample: event.sample,
    });
  }

  #emit(event: ComparisonEvent): void {
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch {
        // One listener's failure must not stop the comparison or starve the others.
      }
    }
  }

  #forget(): void {
    const finished = [...this.#entries].filter(([, e]) => e.finished);
    for (const [id] of finished.slice(0, Math.max(0, finished.length - FINISHED_KEPT)))
      this.#entries.delete(id);
    if (this.activeComparisonIds().length === 0 && this.#unsubscribe) {
      this.#unsubscribe();
      this.#unsubscribe = null;
    }
  }
}
