import { setTimeout as sleep } from 'node:timers/promises';
import { expandPlan, type CellOutcome, type ComparisonCell } from '../../shared/comparison/cells.ts';
import type { ComparisonPlan } from '../../shared/comparison/plan.ts';
import { preflightChecks } from '../../shared/comparison/preflight-checks.ts';
import { keptOutcomes } from '../../shared/comparison/rerun.ts';
import type { ComparisonTable } from '../../shared/comparison/table.ts';
import type { PreflightFailure, TargetCheckResult } from '../../shared/model/preflight.ts';
import type { RunResult, RunStatus } from '../../shared/model/result.ts';
import { messageOf } from '../monitor/source.ts';
import { newRunId } from './ids.ts';
import { jobStatus, type JobContext, type JobRunner, type RunnerEvent } from './runner.ts';
import type { TargetRun } from './target-run.ts';

type Emit = (event: RunnerEvent<'comparison'>) => void;

/** A finished comparison as the command line reports it: every cell run, and the table built from them. */
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

/**
 * A comparison: every distinct URL checked first (a failure stops it before any load), then
 * the matrix's cells one after another (never two at once), each one engine run of its own,
 * with the plan's pause between them. A cell the host could not run is an 'error' and the
 * matrix goes on. Started to run some runs of a saved comparison again (context.rerun), it
 * first hands on the saved runs it keeps, as if just measured, then measures only the others.
 */
export const comparisonRunner: JobRunner<'comparison'> = {
  start(plan, emit, context) {
    const abort = new AbortController();
    let current: TargetRun | null = null;
    const execute = async (): Promise<RunStatus> => {
      const all = expandPlan(plan);
      emit({ type: 'progress', progress: { type: 'started', cellCount: all.length } });
      const kept = context.rerun ? await keptRuns(plan, context) : { ok: true as const, kept: [] };
      if (!kept.ok) {
        emit({ type: 'error', part: null, message: kept.message });
        return 'failed';
      }
      const again = new Set(context.rerun?.cells ?? all.map((c) => c.index));
      const cells = all.filter((c) => again.has(c.index));
      const failures = await preflight(cells, abort.signal, emit, context);
      if (abort.signal.aborted) return 'cancelled';
      if (failures.length > 0) {
        emit({ type: 'progress', progress: { type: 'preflight-failed', failures } });
        return 'failed';
      }
      for (const outcome of kept.kept) handOn(outcome, emit);
      const statuses: RunStatus[] = kept.kept.map((o) => o.result.status);
      for (const [i, cell] of cells.entries()) {
        if (abort.signal.aborted) break;
        if (i > 0 && plan.pauseSeconds > 0) {
          emit({
            type: 'progress',
            progress: { type: 'pause', next: cell.index, seconds: plan.pauseSeconds },
          });
          try {
            await sleep(plan.pauseSeconds * 1000, undefined, { signal: abort.signal });
          } catch {
            break;
          }
        }
        const part = cell.index;
        let result: RunResult | null;
        try {
          current = context.startTarget(
            cell.scenario,
            0,
            {
              started: () =>
                emit({
                  type: 'progress',
                  progress: { type: 'part-started', part, coordinates: cell.coordinates },
                }),
              sample: (sample) => emit({ type: 'sample', part, source: 'engine', sample }),
              reading: (sample) => emit({ type: 'sample', part, source: 'server', sample }),
              machine: (sample) => emit({ type: 'sample', part, source: 'machine', sample }),
            },
            // Each cell's run has an id of its own: the matrix finds a run's cell by it.
            { runId: newRunId(), appVersion: context.appVersion },
          );
          result = await current.done;
        } catch (error) {
          emit({ type: 'error', part, message: messageOf(error) });
          continue;
        } finally {
          current = null;
        }
        if (!result) continue;
        statuses.push(result.status);
        const outcome: CellOutcome = { cellIndex: cell.index, coordinates: cell.coordinates, result };
        emit({ type: 'result', part, result: outcome });
      }
      return jobStatus(abort.signal.aborted, statuses);
    };
    const done = execute();
    return {
      done,
      stop: async () => {
        abort.abort();
        await current?.stop();
        await done;
      },
    };
  },
};

/** The saved comparison's runs a re-run keeps, or why it cannot run. */
async function keptRuns(
  plan: ComparisonPlan,
  context: JobContext,
): Promise<{ ok: true; kept: CellOutcome[] } | { ok: false; message: string }> {
  const rerun = context.rerun!;
  let record;
  try {
    if (!context.readHistory) throw new Error('this host keeps no history');
    record = await context.readHistory(rerun.historyId);
  } catch (error) {
    return {
      ok: false,
      message: `the saved comparison ${rerun.historyId} could not be read: ${messageOf(error)}`,
    };
  }
  if (record.kind !== 'comparison') {
    return { ok: false, message: `History entry ${rerun.historyId} is not a comparison` };
  }
  return keptOutcomes(plan, record, rerun.cells);
}

/** A kept run handed on as a measured one: its samples (engine, server, machine), then its result. */
function handOn(outcome: CellOutcome, emit: Emit): void {
  const part = outcome.cellIndex;
  const r = outcome.result;
  for (const sample of r.samples) emit({ type: 'sample', part, source: 'engine', sample });
  for (const sample of r.serverResources?.samples ?? [])
    emit({ type: 'sample', part, source: 'server', sample });
  for (const sample of r.machine?.samples ?? []) emit({ type: 'sample', part, source: 'machine', sample });
  emit({ type: 'result', part, result: outcome });
}

/** Checks every distinct URL of the plan at once; the ones that failed, in plan order. */
async function preflight(
  cells: ComparisonCell[],
  signal: AbortSignal,
  emit: Emit,
  context: JobContext,
): Promise<PreflightFailure[]> {
  const checks = preflightChecks(cells);
  emit({ type: 'progress', progress: { type: 'preflight', checks: checks.map((c) => c.check) } });
  // A listener may have stopped the comparison on that event, before any check began.
  if (signal.aborted) return [];
  const results = await Promise.all(
    checks.map(async ({ check, scenario }): Promise<PreflightFailure | null> => {
      let r: TargetCheckResult;
      try {
        r = await context.checkTarget(scenario, signal);
      } catch (error) {
        // The checker never throws for a failing target; a host-side breakdown still stops the matrix.
        r = { ok: false, kind: 'other', message: messageOf(error), fixes: [] };
      }
      return r.ok ? null : { ...check, kind: r.kind, message: r.message, fixes: r.fixes };
    }),
  );
  return results.filter((f): f is PreflightFailure => f !== null);
}
