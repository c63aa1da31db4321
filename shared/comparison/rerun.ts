import { z } from 'zod';
import { LIMITS } from '../model/defaults.ts';
import { runVerdict } from '../verdict/verdict.ts';
import { expandPlan, type CellOutcome } from './cells.ts';
import type { ComparisonPlan } from './plan.ts';

/*
 * "Re-run the marked cells" (issue 32): the runs of a saved comparison that were measured on
 * a busy machine are run again, and the others kept, so the comparison comes back whole (a
 * new History entry) without measuring what was measured cleanly. Pure.
 */

/** What jobs.start takes beside a comparison's plan to run only some of its runs again. */
export const comparisonRerunSchema = z.strictObject({
  /** The saved comparison (History) whose other runs are kept. */
  historyId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'history id is malformed'),
  /** The runs to measure again, by cell index (shared/comparison/cells.ts expandPlan). */
  cells: z
    .array(z.number().int().nonnegative())
    .min(1, 'name at least one cell to run again')
    .max(LIMITS.comparisonRuns.max),
});
export type ComparisonRerun = z.infer<typeof comparisonRerunSchema>;

/** The runs measured while the machine was busy: the cells the matrix marks and a re-run measures again. */
export function busyCells(outcomes: readonly CellOutcome[]): number[] {
  return outcomes
    .filter((o) =>
      runVerdict(o.result).caveats.some((c) => c.code === 'machine-busy' && c.severity === 'bad'),
    )
    .map((o) => o.cellIndex);
}

/**
 * The saved comparison's runs that a re-run keeps (every one but those it measures again), or
 * why it cannot: a saved matrix of other cells than the plan's.
 */
export function keptOutcomes(
  plan: ComparisonPlan,
  saved: { plan: ComparisonPlan; outcomes: readonly CellOutcome[] },
  cells: readonly number[],
): { ok: true; kept: CellOutcome[] } | { ok: false; message: string } {
  const coordinates = (p: ComparisonPlan): string => JSON.stringify(expandPlan(p).map((c) => c.coordinates));
  if (coordinates(plan) !== coordinates(saved.plan)) {
    return { ok: false, message: "the saved comparison's matrix is not this plan's: run it whole instead" };
  }
  const count = expandPlan(plan).length;
  const outside = cells.find((c) => c >= count);
  if (outside !== undefined)
    return { ok: false, message: `cell ${outside} is not in the plan's ${count} cells` };
  const again = new Set(cells);
  return { ok: true, kept: saved.outcomes.filter((o) => !again.has(o.cellIndex)) };
}
