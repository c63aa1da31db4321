import { z } from 'zod';
import { capacityPlanSchema, capacityStepSchema, stepPhaseSchema, stepScenario } from './plan.ts';
import { defineJob, partSchema } from '../model/job-spec.ts';
import { OTHER_PROCESSES_SHOWN, otherProcessSchema } from '../model/machine-facts.ts';

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
  /**
   * A step at `rate` did not hold while the machine was busy: the search waits up to
   * `maxSeconds` for it to calm before measuring the rate again.
   */
  z.strictObject({
    type: z.literal('machine-wait'),
    searchIndex: index,
    rate: z.number().positive(),
    maxSeconds: z.number().nonnegative(),
  }),
  /** The wait ended: the machine calmed (or not, within the bound) after `waitedSeconds`; others' share of all cores at the end. */
  z.strictObject({
    type: z.literal('machine-calm'),
    searchIndex: index,
    calm: z.boolean(),
    waitedSeconds: z.number().nonnegative(),
    otherPercent: z.number().nonnegative(),
    busiest: z.array(otherProcessSchema).max(OTHER_PROCESSES_SHOWN),
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
