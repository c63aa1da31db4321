import { z } from 'zod';
import { capacityPlanSchema, capacityStepSchema, stepPhaseSchema, stepScenario } from './plan.ts';
import { defineJob, partSchema } from '../model/job-spec.ts';

/*
 * A capacity search as a job: its plan is a CapacityPlan, its parts are the steps in run order
 * over every search (part 0, 1, 2... whatever the search), each part's result a CapacityStep.
 * The answers are not sent: each is judged again from the steps (shared/capacity/report.ts).
 */

const index = z.number().int().nonnegative();

export const capacityProgressSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('started'), searchCount: index }),
  /** Step `stepIndex` of search `searchIndex` began as part `part`, at `rate`. */
  z.strictObject({
    type: z.literal('part-started'),
    part: partSchema,
    searchIndex: index,
    stepIndex: index,
    rate: z.number().positive(),
    phase: stepPhaseSchema,
  }),
]);
export type CapacityProgress = z.infer<typeof capacityProgressSchema>;

export const capacityJobSpec = defineJob({
  plan: capacityPlanSchema,
  progress: capacityProgressSchema,
  result: capacityStepSchema,
  runOf: (step) => step.result,
  withRun: (step, result) => ({ ...step, result }),
  partScenario: (plan, started) => ({
    scenario: stepScenario(plan, started.searchIndex, started.rate),
    targetIndex: 0,
  }),
  partResult: ({ searchIndex, stepIndex, rate, phase }, result) => ({
    searchIndex,
    stepIndex,
    rate,
    phase,
    result,
  }),
});
