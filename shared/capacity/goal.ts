/**
 * A capacity search's goal (the p99 a step must stay under, the share of errors it may have)
 * and the words every capacity answer, table and chart quotes figures in. Pure.
 */
import { z } from 'zod';
import { DEFAULTS, LIMITS } from '../model/defaults.ts';
import { fixed, formatGrouped } from '../figures/units.ts';
import { boundedNumber } from '../model/number-schema.ts';

export const capacityGoalSchema = z.strictObject({
  /** A step breaks the goal when its p99 latency is above this (ms). */
  p99Ms: boundedNumber('p99 goal', LIMITS.sloMs),
  /** ... or when transport errors, or non-2xx responses, are above this share of its requests (%). */
  errorPercent: boundedNumber('error limit', LIMITS.errorPercent).default(DEFAULTS.capacity.errorPercent),
});
export type CapacityGoal = z.infer<typeof capacityGoalSchema>;

/** "10 ms", "0.5 ms", "12.3 ms". */
export function msText(ms: number): string {
  return `${formatGrouped(ms, ms >= 100 || Number.isInteger(ms) ? 0 : ms >= 10 ? 1 : 2)} ms`;
}

/** "2,000 req/s", "0.5 req/s". */
export function rateText(rate: number): string {
  return `${formatGrouped(rate, Number.isInteger(rate) ? 0 : 1)} req/s`;
}

/** "p99 < 10 ms": the goal as the answers quote it. */
export function goalText(goal: CapacityGoal): string {
  return `p99 < ${msText(goal.p99Ms)}`;
}

/** "1.0%", "0.05%". */
export const pctText = (p: number): string => `${fixed(p, p > 0 && p < 0.1 ? 2 : 1)}%`;
