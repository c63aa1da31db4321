import { setTimeout as sleep } from 'node:timers/promises';
import type { RunEvent } from '../../shared/contract/api.ts';
import { expandPlan, type CellOutcome, type ComparisonEvent } from '../../shared/comparison/cells.ts';
import { aggregateComparison, type ComparisonTable } from '../../shared/comparison/table.ts';
import type { ComparisonPlan } from '../../shared/comparison/plan.ts';
import { preflightChecks } from '../../shared/comparison/preflight-checks.ts';
import type { PreflightFailure, TargetCheckResult } from '../../shared/model/preflight.ts';
import type { RunResult, RunStatus } from '../../shared/model/result.ts';
import type { Scenario } from '../../shared/model/scenario.ts';
import { JobTable, type JobHandle } from '../engine/job-table.ts';

/** What the runner needs from the engine's RunManager (electron/engine/manager.ts). */
export interface RunManagerLike {
  start(scenario: Scenario): JobHandle<RunEvent, RunResult[]>;
  stop(runId: string): Promise<boolean>;
}

/** The pre-flight of one URL (electron/engine/target-check.ts, or a stand-in in tests). */
export type TargetChecker = (scenario: Scenario, signal: AbortSignal) => Promise<TargetCheckResult>;

/** A finished comparison: every cell run that produced a result, and the table built from them. */
export interface ComparisonOutcome {
  comparisonId: string;
  plan: ComparisonPlan;
  status: RunStatus;
  /** In run order; a cell stopped midway is included with status 'cancelled' (the table leaves it out). */
  outcomes: CellOutcome[];
  table: ComparisonTable;
  /** URLs that failed the check before the first cell (the comparison then ran no cell). */
  preflightFailures: PreflightFailure[];
}

/** What the runner tracks of one comparison beside its id and outcome. */
interface ComparisonState {
  readonly plan: ComparisonPlan;
  readonly abort: AbortController;
  /** The engine run of the cell running now. */
  currentRunId: string | null;
}

/**
 * Runs comparison plans cell after cell through the RunManager (one engine run per cell,
 * never two at once within a comparison), reporting progress over the whole matrix on the
 * comparison's own handle. Electron-free: the desktop, the web host and the CLI share it.
 */
export class ComparisonRunner {
  readonly #manager: RunManagerLike;
  readonly #checkTarget: TargetChecker;
  /** Finished comparisons are kept (20) so stop() still answers for them. */
  readonly #comparisons = new JobTable<ComparisonState, ComparisonEvent, ComparisonOutcome>({
    prefix: 'cmp',
    noun: 'comparison',
    keep: 20,
  });

  constructor(opts: { manager: RunManagerLike; checkTarget: TargetChecker }) {
    this.#manager = opts.manager;
    this.#checkTarget = opts.checkTarget;
  }

  /** A validated plan's comparison: its handle, at once; it begins when its events are subscribed to. */
  start(plan: ComparisonPlan): JobHandle<ComparisonEvent, ComparisonOutcome> {
    return this.#comparisons.start(
      { plan, abort: new AbortController(), currentRunId: null },
      (id, state, emit) => this.#execute(id, state, emit),
    );
  }

  /**
   * Stops a comparison: the running cell ends with its partial result, later cells are
   * skipped, finished cells are kept. Resolves after 'done'; false for an unknown id.
   */
  async stop(comparisonId: string): Promise<boolean> {
    const comparison = this.#comparisons.get(comparisonId);
    if (!comparison) return false;
    if (!comparison.finished) {
      const state = comparison.state;
      state.abort.abort();
      if (state.currentRunId !== null) await this.#manager.stop(state.currentRunId);
    }
    await comparison.done;
    return true;
  }

  activeComparisonIds(): string[] {
    return this.#comparisons.activeIds();
  }

  async #execute(
    comparisonId: string,
    entry: ComparisonState,
    emit: (event: ComparisonEvent) => void,
  ): Promise<ComparisonOutcome> {
    const { plan, abort } = entry;
    const cells = expandPlan(plan);
    const cellCount = cells.length;
    const outcomes: CellOutcome[] = [];
    const finish = (status: RunStatus, preflightFailures: PreflightFailure[] = []): ComparisonOutcome => {
      emit({
        type: 'done',
        comparisonId,
        status,
        outcomes,
        ...(preflightFailures.length > 0 ? { preflightFailures } : {}),
      });
      return {
        comparisonId,
        plan,
        status,
        outcomes,
        table: aggregateComparison(plan, outcomes),
        preflightFailures,
      };
    };
    emit({ type: 'started', comparisonId, cellCount });
    const failures = await this.#preflight(comparisonId, cells, abort.signal, emit);
    if (abort.signal.aborted) return finish('cancelled');
    if (failures.length > 0) {
      emit({ type: 'preflight-failed', comparisonId, failures });
      return finish('failed', failures);
    }
    for (const cell of cells) {
      if (abort.signal.aborted) break;
      if (cell.index > 0 && plan.pauseSeconds > 0) {
        emit({
          type: 'pause',
          comparisonId,
          nextCellIndex: cell.index,
          seconds: plan.pauseSeconds,
        });
        try {
          await sleep(plan.pauseSeconds * 1000, undefined, { signal: abort.signal });
        } catch {
          break;
        }
      }
      let results: RunResult[];
      try {
        const run = this.#manager.start(cell.scenario);
        entry.currentRunId = run.id;
        emit({
          type: 'cell-started',
          comparisonId,
          cellIndex: cell.index,
          cellCount,
          coordinates: cell.coordinates,
          runId: run.id,
        });
        // Subscribing starts the cell's run, so its samples (the engine's, the server's) come after 'cell-started'.
        run.events((event) => {
          if (event.type === 'sample')
            emit({ type: 'cell-sample', comparisonId, cellIndex: cell.index, sample: event.sample });
          else if (event.type === 'server-sample')
            emit({ type: 'cell-server-sample', comparisonId, cellIndex: cell.index, sample: event.sample });
        });
        results = await run.done;
      } catch (err) {
        emit({
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
      emit({ type: 'cell-done', comparisonId, cellCount, outcome });
    }
    const status: RunStatus =
      abort.signal.aborted || outcomes.some((o) => o.result.status === 'cancelled')
        ? 'cancelled'
        : outcomes.length > 0 && outcomes.every((o) => o.result.status === 'failed')
          ? 'failed'
          : 'completed';
    return finish(status);
  }

  /** Checks every distinct URL of the plan at once; the ones that failed, in plan order. */
  async #preflight(
    comparisonId: string,
    cells: ReturnType<typeof expandPlan>,
    signal: AbortSignal,
    emit: (event: ComparisonEvent) => void,
  ): Promise<PreflightFailure[]> {
    const checks = preflightChecks(cells);
    emit({ type: 'preflight', comparisonId, checks: checks.map((c) => c.check) });
    // A listener may have stopped the comparison on that event, before any check began.
    if (signal.aborted) return [];
    const results = await Promise.all(
      checks.map(async ({ check, scenario }): Promise<PreflightFailure | null> => {
        let r: TargetCheckResult;
        try {
          r = await this.#checkTarget(scenario, signal);
        } catch (err) {
          // The checker never throws for a failing target; a host-side breakdown still stops the matrix.
          r = {
            ok: false,
            kind: 'other',
            message: err instanceof Error ? err.message : String(err),
            fixes: [],
          };
        }
        return r.ok ? null : { ...check, kind: r.kind, message: r.message, fixes: r.fixes };
      }),
    );
    return results.filter((f): f is PreflightFailure => f !== null);
  }
}
