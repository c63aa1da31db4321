import { z } from 'zod';
import { defineJob, partSchema } from './job-spec.ts';
import { runResultSchema } from './result.ts';
import { scenarioSchema } from './scenario.ts';

/*
 * A run as a job: its plan is a scenario, its parts are the scenario's targets (one after
 * another), each part's result a RunResult.
 */

export const runProgressSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('started'), targetCount: z.number().int().nonnegative() }),
  /** Target `part` began its load (after its server monitor's first reading, if it has one). */
  z.strictObject({ type: z.literal('part-started'), part: partSchema }),
]);
export type RunJobProgress = z.infer<typeof runProgressSchema>;

export const runJobSpec = defineJob({
  plan: scenarioSchema,
  progress: runProgressSchema,
  result: runResultSchema,
  runOf: (result) => result,
  withRun: (_result, run) => run,
  partScenario: (scenario, started) => ({ scenario, targetIndex: started.part }),
  partResult: (_started, run) => run,
});
