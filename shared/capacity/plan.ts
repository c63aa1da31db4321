/**
 * A capacity search job (the Capacity mode, `trebuchet capacity`): one search per target, one
 * after another, each step an open-model run of its own. The plan, the scenario of each step
 * and its measured steps (its job: ./job.ts). Pure.
 */
import { z } from 'zod';
import { capacitySearchSchema } from './search.ts';
import { stepSecondsAt } from './step-length.ts';
import { DEFAULTS, LIMITS } from '../model/defaults.ts';
import { boundedInt } from '../model/number-schema.ts';
import { routeIssues } from '../model/route.ts';
import { requestListIssues } from '../model/request-list.ts';
import { runResultSchema } from '../model/result.ts';
import {
  displayNameSchema,
  protocolSchema,
  runOptionsSchema,
  SCENARIO_VERSION,
  targetLabel,
  targetSchema,
  targetsSchema,
  type Scenario,
} from '../model/scenario.ts';

export const CAPACITY_PLAN_VERSION = 1;

/** The options of every step; the warm-up is the search's (capacitySearchSchema.warmupSeconds). */
const stepOptionsSchema = runOptionsSchema.omit({ warmupSeconds: true });

/**
 * A server to search. protocol: this search's own protocol, over the plan's (a comparison's
 * search per target and protocol, shared/capacity/from-comparison.ts); absent: the plan's.
 */
export const capacityTargetSchema = targetSchema.extend({ protocol: protocolSchema.optional() });
export type CapacityTarget = z.infer<typeof capacityTargetSchema>;

export const capacityPlanSchema = z
  .strictObject({
    version: z.literal(CAPACITY_PLAN_VERSION).default(CAPACITY_PLAN_VERSION),
    name: displayNameSchema.default('Capacity search'),
    /** One search per target, in order. */
    targets: targetsSchema(capacityTargetSchema),
    search: capacitySearchSchema,
    /** The open model's cap on unanswered requests, in every step. */
    maxInFlight: boundedInt('max in flight', LIMITS.maxInFlight).default(DEFAULTS.open.maxInFlight),
    options: stepOptionsSchema.default(() => stepOptionsSchema.parse({})),
  })
  .superRefine((plan, ctx) => {
    for (const issue of routeIssues(plan.targets)) ctx.addIssue({ code: 'custom', ...issue });
    for (const issue of requestListIssues(plan.targets, plan.options.engine))
      ctx.addIssue({ code: 'custom', ...issue });
  });
export type CapacityPlan = z.infer<typeof capacityPlanSchema>;
export type CapacityPlanInput = z.input<typeof capacityPlanSchema>;

export const STEP_PHASES = ['doubling', 'bisecting'] as const;
export const stepPhaseSchema = z.enum(STEP_PHASES);
export type StepPhase = z.infer<typeof stepPhaseSchema>;

/**
 * The open-model scenario of one step: the target at the rate, for the step's time after its
 * warm-up (longer at a low rate, so its p99 rests on enough requests: step-length.ts).
 */
export function stepScenario(plan: CapacityPlan, targetIndex: number, rate: number): Scenario {
  const searched = plan.targets[targetIndex];
  if (!searched) throw new RangeError(`the plan has no target ${targetIndex}`);
  const { protocol = plan.options.protocol, ...target } = searched;
  return {
    version: SCENARIO_VERSION,
    name: `${plan.name} · ${targetLabel(target)} · ${rate} req/s`,
    targets: [target],
    load: {
      model: 'open',
      rate,
      durationSeconds: stepSecondsAt(plan.search, rate),
      maxInFlight: plan.maxInFlight,
    },
    options: { ...plan.options, protocol, warmupSeconds: plan.search.warmupSeconds },
  };
}

const index = z.number().int().nonnegative();

/** One measured step: which search (the target's index), its place in it, its rate and run. */
export const capacityStepSchema = z.strictObject({
  searchIndex: index,
  stepIndex: index,
  rate: z.number().positive(),
  phase: stepPhaseSchema,
  result: runResultSchema,
});
export type CapacityStep = z.infer<typeof capacityStepSchema>;
