import { z } from 'zod';
import type { RunResult } from './result.ts';
import type { Scenario } from './scenario.ts';

/*
 * What a kind of job (a run, a comparison, a capacity search) declares for the contract
 * (shared/contract/jobs.ts): the schema of its plan, of its progress and of one part's
 * result. A job runs in parts (a run's targets, a comparison's cells, a search's steps), each
 * one engine run whose samples stream live under the part's index.
 */

/** A part's index within its job, 0-based, in the order the parts run. */
export const partSchema = z.number().int().nonnegative();

/** The progress every kind reports when one of its parts begins its load: the part's index first. */
export type PartStarted = { type: 'part-started'; part: number };

export interface JobSpec<
  Plan extends z.ZodType,
  Progress extends z.ZodType<{ type: string }>,
  Result extends z.ZodType,
> {
  plan: Plan;
  /** What the job says of its way (started, a part began, ...): a union on `type` with a 'part-started'. */
  progress: Progress;
  /** One part's final result. */
  result: Result;
  /** The engine run inside a part's result (its samples travel live, not in the result). */
  runOf(result: z.output<Result>): RunResult;
  /** The part's result with its engine run replaced. */
  withRun(result: z.output<Result>, run: RunResult): z.output<Result>;
  /**
   * The scenario a started part runs, and which of its targets: what a part cut short by the
   * host stopping (electron/jobs/journal/) is rebuilt as a run of.
   */
  partScenario(
    plan: z.output<Plan>,
    started: Extract<z.output<Progress>, PartStarted>,
  ): { scenario: Scenario; targetIndex: number };
  /** A started part's result made of its run (a cell's coordinates, a step's rate added). */
  partResult(started: Extract<z.output<Progress>, PartStarted>, run: RunResult): z.output<Result>;
}

type HasPartStarted<P> = [Extract<P, { type: 'part-started' }>] extends [never]
  ? false
  : Extract<P, { type: 'part-started' }> extends PartStarted
    ? true
    : false;

/** A kind's spec, checked: its progress has a 'part-started' that names the part. */
export function defineJob<
  Plan extends z.ZodType,
  Progress extends z.ZodType<{ type: string }>,
  Result extends z.ZodType,
>(
  spec: JobSpec<Plan, Progress, Result> & (HasPartStarted<z.output<Progress>> extends true ? unknown : never),
): JobSpec<Plan, Progress, Result> {
  return spec;
}
