import { z } from 'zod';
import { cellCoordinatesSchema, cellOutcomeSchema, expandPlan } from './cells.ts';
import { comparisonPlanSchema } from './plan.ts';
import { defineJob, partSchema } from '../model/job-spec.ts';
import { preflightCheckSchema, preflightFailureSchema } from '../model/preflight.ts';

/*
 * A comparison as a job: its plan is a ComparisonPlan, its parts are the matrix's cells in run
 * order (part = cellIndex), each part's result a CellOutcome. The UI rebuilds the table from
 * the outcomes (aggregateComparison, cheap and pure), so nothing but measured data travels.
 */

export const comparisonProgressSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('started'), cellCount: z.number().int().nonnegative() }),
  /** Before the first cell: the pre-flight of every distinct URL, then its failures (none: cells follow). */
  z.strictObject({ type: z.literal('preflight'), checks: z.array(preflightCheckSchema) }),
  /** The pre-flight stopped the comparison before any load: no cell runs, nothing is saved. */
  z.strictObject({ type: z.literal('preflight-failed'), failures: z.array(preflightFailureSchema).min(1) }),
  /** Cell `part` began its load. */
  z.strictObject({ type: z.literal('part-started'), part: partSchema, coordinates: cellCoordinatesSchema }),
  /** Waiting `seconds` before cell `next`. */
  z.strictObject({ type: z.literal('pause'), next: partSchema, seconds: z.number().nonnegative() }),
]);
export type ComparisonProgress = z.infer<typeof comparisonProgressSchema>;

export const comparisonJobSpec = defineJob({
  plan: comparisonPlanSchema,
  progress: comparisonProgressSchema,
  result: cellOutcomeSchema,
  runOf: (outcome) => outcome.result,
  withRun: (outcome, result) => ({ ...outcome, result }),
  partScenario: (plan, started) => {
    const cell = expandPlan(plan)[started.part];
    if (!cell) throw new RangeError(`the plan has no cell ${started.part}`);
    return { scenario: cell.scenario, targetIndex: 0 };
  },
  partResult: (started, result) => ({ cellIndex: started.part, coordinates: started.coordinates, result }),
});
