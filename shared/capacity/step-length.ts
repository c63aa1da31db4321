/**
 * How long a capacity step must measure for its p99 to be the server's: a p99 of 400
 * requests rests on its 4 slowest, so one passing stall of a busy machine decides it (nginx
 * "held 194 req/s at p99 < 10 ms" with 2 s steps because one 200 req/s step of 400 requests
 * read 14.9 ms; with 5 s steps it held 5,000). A step is lengthened until it measures
 * P99_MIN_REQUESTS at its rate, up to MAX_STEP_STRETCH times the step asked for; a p99 still
 * resting on fewer is marked where it is judged. The search's form says what the goal needs.
 * Pure.
 */
import { LIMITS } from '../model/defaults.ts';
import { formatGrouped } from '../figures/units.ts';

/** Requests a step measures for its p99 to rest on about 10 of them (the slowest 1%). */
export const P99_MIN_REQUESTS = 1000;

/** A step is lengthened at most to this many times the length asked for. */
export const MAX_STEP_STRETCH = 5;

/** The search's settings the rule reads. */
interface StepSettings {
  stepSeconds: number;
}

const tenths = (s: number): number => Math.ceil(s * 10 - 1e-9) / 10;

const secondsText = (s: number): string => `${formatGrouped(s, Number.isInteger(s) ? 0 : 1)} s`;

/** The measured seconds of a step at `rate`: the step, or longer to measure P99_MIN_REQUESTS. */
export function stepSecondsAt(search: StepSettings, rate: number): number {
  const cap = Math.min(search.stepSeconds * MAX_STEP_STRETCH, LIMITS.durationSeconds.max);
  const needed = tenths(P99_MIN_REQUESTS / rate);
  return Math.max(search.stepSeconds, Math.min(needed, cap));
}

/**
 * Why a measured p99 is not firm: "of 400 requests, fewer than the 1,000 a p99 needs", or
 * null when it rests on enough.
 */
export function thinP99(responses: number): string | null {
  if (responses >= P99_MIN_REQUESTS) return null;
  return `of ${formatGrouped(responses, 0)} request${responses === 1 ? '' : 's'}, fewer than the ${formatGrouped(P99_MIN_REQUESTS, 0)} a p99 needs`;
}

/**
 * What the goal needs of the step length, for the search's form: "A p99 needs about 1,000
 * requests a step: steps below 500 req/s run longer, up to 10 s (100 req/s: 10 s)." Null
 * when every step from the start rate on measures enough as it is.
 */
export function stepLengthNeeds(search: StepSettings & { startRate: number }): string | null {
  const { stepSeconds, startRate } = search;
  if (!(stepSeconds > 0) || !(startRate > 0)) return null;
  if (stepSeconds * startRate >= P99_MIN_REQUESTS) return null;
  const below = P99_MIN_REQUESTS / stepSeconds;
  const atStart = stepSecondsAt(search, startRate);
  const head = `A p99 needs about ${formatGrouped(P99_MIN_REQUESTS, 0)} requests a step: steps below ${formatGrouped(below, below >= 100 ? 0 : 1)} req/s run longer, up to ${secondsText(stepSeconds * MAX_STEP_STRETCH)}`;
  const start = `${formatGrouped(startRate, Number.isInteger(startRate) ? 0 : 1)} req/s`;
  if (atStart * startRate >= P99_MIN_REQUESTS) return `${head} (${start}: ${secondsText(atStart)}).`;
  const needed = tenths(P99_MIN_REQUESTS / startRate);
  return `${head}; at ${start} that is not enough (it needs ${secondsText(needed)}): its p99 is marked. A longer step or a higher start rate gives a firm p99.`;
}
