/**
 * The capacity search: the highest open-model rate a server serves within a latency and error
 * goal. The planner is a pure function of the steps measured so far, so the same steps always
 * give the same next step and the same answer: a saved search is judged again from its runs.
 *
 * The sequence: the start rate, then doubling while the goal holds (up to the top rate), then
 * bisecting between the highest rate that held and the lowest that broke until they are
 * within DEFAULTS.capacity.precisionPercent. A step breaks the goal when its p99 is over the
 * goal, or its errors or non-2xx responses are over the limit: the server broke. A step whose
 * figures are not the server's (shared/verdict/verdict.ts: the generator ran flat out, or the
 * schedule was not kept while the server was keeping up), twice at the same rate, ends the
 * search with "at least N req/s; the client was the limit", never a number blamed on the server.
 */
import { z } from 'zod';
import { DEFAULTS, LIMITS } from '../model/defaults.ts';
import { fixed, formatGrouped } from '../format/units.ts';
import type { RunResult } from '../model/result.ts';
import { boundedNumber } from '../model/number-schema.ts';
import { scheduleShortfall, type Caveat } from '../verdict/caveats.ts';
import { runVerdict } from '../verdict/verdict.ts';

export const capacityGoalSchema = z.strictObject({
  /** A step breaks the goal when its p99 latency is above this (ms). */
  p99Ms: boundedNumber('p99 goal', LIMITS.sloMs),
  /** ... or when transport errors, or non-2xx responses, are above this share of its requests (%). */
  errorPercent: boundedNumber('error limit', LIMITS.errorPercent).default(DEFAULTS.capacity.errorPercent),
});
export type CapacityGoal = z.infer<typeof capacityGoalSchema>;

/** How a search steps: where it starts, how high it may go, how long each step lasts. */
export const capacitySearchSchema = z
  .strictObject({
    goal: capacityGoalSchema,
    startRate: boundedNumber('start rate', LIMITS.rate).default(DEFAULTS.capacity.startRate),
    maxRate: boundedNumber('max rate', LIMITS.rate).default(DEFAULTS.capacity.maxRate),
    /** Measured seconds per step. */
    stepSeconds: boundedNumber('step', LIMITS.durationSeconds).default(DEFAULTS.capacity.stepSeconds),
    /** Seconds at the step's rate before measuring (fresh connections, caches, JIT). */
    warmupSeconds: boundedNumber('step warm-up', LIMITS.warmupSeconds).default(
      DEFAULTS.capacity.warmupSeconds,
    ),
  })
  .superRefine((s, ctx) => {
    if (s.maxRate < s.startRate) {
      ctx.addIssue({
        code: 'custom',
        path: ['maxRate'],
        message: `max rate ${s.maxRate} is below the start rate ${s.startRate}`,
      });
    }
  });
export type CapacitySearch = z.infer<typeof capacitySearchSchema>;
export type CapacitySearchInput = z.input<typeof capacitySearchSchema>;

// ---------------------------------------------------------------------------------------
// One step

/** A step's figures as the curve and the tables show them. */
export interface StepFigures {
  /** The rate asked for. */
  rate: number;
  /** Responses and errors per second over the measured time. */
  achievedRps: number;
  p50: number | null;
  p99: number | null;
  /** Transport errors (no response), percent of the requests. */
  errorPercent: number;
  /** Responses outside 2xx, percent of the requests. */
  non2xxPercent: number;
}

const percentOf = (part: number, whole: number): number => (whole > 0 ? (part / whole) * 100 : 0);

export function stepFigures(rate: number, result: RunResult): StepFigures {
  const q = result.requests;
  return {
    rate,
    achievedRps: result.throughput.requestsPerSecond,
    p50: result.latency?.percentiles['50'] ?? null,
    p99: result.latency?.percentiles['99'] ?? null,
    errorPercent: percentOf(q.errors, q.total),
    non2xxPercent: percentOf(q.non2xx, q.total),
  };
}

/**
 * What one step says about the goal.
 * - held: the server met the goal at this rate.
 * - broke: it did not (p99, errors or non-2xx over the limit); reasons say by how much.
 * - client-limit: the figures are not the server's (the verdict's client-bound, or a schedule
 *   not kept while the server kept up): the search cannot go higher.
 * - not-measured: nothing to judge (the target failed, or every answer was an error page).
 * - stopped: the step was stopped before its end.
 */
export type StepJudgement =
  | { kind: 'held' }
  | { kind: 'broke'; reasons: string[] }
  | { kind: 'client-limit'; reason: string }
  | { kind: 'not-measured'; reason: string }
  | { kind: 'stopped' };

/** A step's judgement in a few words, as tables and step lines show it. */
export const JUDGEMENT_LABELS: Record<StepJudgement['kind'], string> = {
  held: 'held',
  broke: 'broke the goal',
  'client-limit': 'client was the limit',
  'not-measured': 'not measured',
  stopped: 'stopped',
};

/** Why a step was judged so, when there is more to say than its label. */
export function judgementDetail(j: StepJudgement): string | null {
  switch (j.kind) {
    case 'broke':
      return j.reasons.join('; ');
    case 'client-limit':
    case 'not-measured':
      return j.reason;
    case 'held':
    case 'stopped':
      return null;
  }
}

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

const pctText = (p: number): string => `${fixed(p, p > 0 && p < 0.1 ? 2 : 1)}%`;

/**
 * The server's own latency when the schedule slipped, apart from the lateness the latency
 * from the scheduled send time carries: the p99 from each request's actual send to its last
 * byte (the engine's "total" phase), or, from an engine that does not time phases, how long
 * the server held each request by Little's law (the mean in flight over the measured samples,
 * over the rate it answered at). The figure that tells a schedule the server fell behind (it
 * held the slots) from one the client could not keep.
 */
export function serverOwnLatency(result: RunResult): { ms: number; text: string } | null {
  const sent = result.phases?.total?.percentiles['99'];
  if (sent !== undefined) {
    return { ms: sent, text: `the server's own p99, from each request's actual send, was ${msText(sent)}` };
  }
  const measured = result.samples.filter((s) => !s.warmup);
  // The last window ends after the schedule, while in-flight drains: left out when there are others.
  const steady = measured.length > 1 ? measured.filter((s) => s.final !== true) : measured;
  const rps = result.throughput.requestsPerSecond;
  if (steady.length === 0 || rps <= 0) return null;
  const hold = (steady.reduce((a, s) => a + s.inFlight, 0) / steady.length / rps) * 1000;
  return {
    ms: hold,
    text: `the server held each request about ${msText(hold)} (in flight over answered per second)`,
  };
}

const badCaveat = (caveats: readonly Caveat[], code: Caveat['code']): Caveat | undefined =>
  caveats.find((c) => c.code === code && c.severity === 'bad');

/** Whether one step met the goal, judged on its verdict and figures. */
export function judgeStep(result: RunResult, goal: CapacityGoal): StepJudgement {
  if (result.status === 'cancelled') return { kind: 'stopped' };
  const verdict = runVerdict(result);
  if (verdict.state === 'not-measured' || verdict.state === 'all-non-2xx') {
    return { kind: 'not-measured', reason: verdict.headline };
  }
  const clientBound = badCaveat(verdict.caveats, 'client-bound');
  if (clientBound) return { kind: 'client-limit', reason: clientBound.message };

  const f = stepFigures(0, result);
  const limit = `the ${pctText(goal.errorPercent)} limit`;
  const reasons: string[] = [];
  // Errors and error statuses are the server's answers, whatever the schedule did.
  if (f.errorPercent > goal.errorPercent) reasons.push(`errors ${pctText(f.errorPercent)}, over ${limit}`);
  if (f.non2xxPercent > goal.errorPercent) reasons.push(`non-2xx ${pctText(f.non2xxPercent)}, over ${limit}`);
  if (reasons.length > 0) return { kind: 'broke', reasons };

  const overGoal = f.p99 !== null && f.p99 > goal.p99Ms;
  const p99 = f.p99 === null ? [] : [`p99 ${msText(f.p99)}`];
  const slipped = badCaveat(verdict.caveats, 'rate-not-reached');
  if (!slipped) return overGoal ? { kind: 'broke', reasons: p99 } : { kind: 'held' };
  // The latency runs from the scheduled send time, so requests sent late carry their lateness:
  // within the goal even so, the server's own latency was lower still, and it got the rate.
  if (!overGoal && scheduleShortfall(result)?.droppedOver !== true) return { kind: 'held' };
  const own = serverOwnLatency(result);
  if (own !== null && own.ms > goal.p99Ms) {
    return {
      kind: 'broke',
      reasons: [
        ...(overGoal ? p99 : []),
        `${own.text}, over the ${msText(goal.p99Ms)} goal, so the schedule fell behind`,
      ],
    };
  }
  return { kind: 'client-limit', reason: slipped.message };
}

// ---------------------------------------------------------------------------------------
// The plan of steps

export interface JudgedStep {
  rate: number;
  judgement: StepJudgement;
}

/**
 * Why a search ended.
 * - converged: the highest rate that held and the lowest that broke are within the precision.
 * - max-rate: the top rate held (the server may hold more).
 * - client-limit: a step's figures were not the server's; the held rate is a lower bound.
 * - none-held: the start rate already broke the goal.
 * - not-measured: a step measured nothing (a failing target, an error page).
 * - stopped: stopped before it ended.
 */
export const CAPACITY_STOPS = [
  'converged',
  'max-rate',
  'client-limit',
  'none-held',
  'not-measured',
  'stopped',
] as const;
export type CapacityStop = (typeof CAPACITY_STOPS)[number];

export interface CapacityAnswer {
  stop: CapacityStop;
  /** The highest rate that held; null when none did. */
  heldRate: number | null;
  /** The rate the search stopped at: the lowest that broke, where the client gave out, or the one not measured. */
  limitRate: number | null;
  /** True when heldRate is the server's capacity within the precision, not a lower bound. */
  exact: boolean;
  /** One sentence with the numbers. */
  message: string;
}

export type CapacityNext =
  { kind: 'step'; rate: number; phase: 'doubling' | 'bisecting' } | { kind: 'done'; answer: CapacityAnswer };

/** How many times a rate is measured before "the client was the limit" there ends the search. */
export const CLIENT_LIMIT_TRIES = 2;

/** Rates as people read them: whole req/s from 100 up, one decimal below. */
export function roundRate(rate: number): number {
  return rate >= 100 ? Math.round(rate) : Math.max(LIMITS.rate.min, Math.round(rate * 10) / 10);
}

function answer(
  search: CapacitySearch,
  stop: CapacityStop,
  heldRate: number | null,
  limitRate: number | null,
  detail: string,
): CapacityAnswer {
  const goal = goalText(search.goal);
  const held = heldRate === null ? '' : rateText(heldRate);
  const at = limitRate === null ? '' : rateText(limitRate);
  const messages: Record<CapacityStop, string> = {
    converged: `holds ${held} at ${goal}; ${at} broke it (${detail})`,
    'max-rate': `holds at least ${held} at ${goal}: the search's top rate held (raise the max rate to go further)`,
    'client-limit':
      heldRate === null
        ? `not measured: the client was the limit already at ${at}: ${detail}`
        : `at least ${held} at ${goal}; the client was the limit at ${at}: ${detail}`,
    'none-held': `not even the lowest rate held: ${at} broke ${goal} (${detail})`,
    'not-measured': `not measured at ${at}: ${detail}`,
    stopped: heldRate === null ? 'stopped before any rate held' : `stopped; ${held} held so far at ${goal}`,
  };
  return { stop, heldRate, limitRate, exact: stop === 'converged', message: messages[stop] };
}

/**
 * The next step of a search, or its answer, from the steps measured so far (in order). Pure
 * and deterministic: the search runner asks it after every step, a report asks it again.
 */
export function nextCapacityStep(search: CapacitySearch, steps: readonly JudgedStep[]): CapacityNext {
  const last = steps.at(-1);
  if (!last) return { kind: 'step', rate: roundRate(search.startRate), phase: 'doubling' };
  let lo: number | null = null;
  let hi: number | null = null;
  for (const s of steps) {
    if (s.judgement.kind === 'held' && (lo === null || s.rate > lo)) lo = s.rate;
    if (s.judgement.kind === 'broke' && (hi === null || s.rate < hi)) hi = s.rate;
  }
  const j = last.judgement;
  switch (j.kind) {
    case 'stopped':
      return { kind: 'done', answer: answer(search, 'stopped', lo, last.rate, '') };
    case 'not-measured':
      return { kind: 'done', answer: answer(search, 'not-measured', lo, last.rate, j.reason) };
    case 'client-limit': {
      // A passing stall of a busy machine makes one step late; the same rate measured again
      // tells that from a client that cannot keep the schedule at all.
      const tries = steps.filter((s) => s.rate === last.rate && s.judgement.kind === 'client-limit').length;
      if (tries < CLIENT_LIMIT_TRIES) {
        return { kind: 'step', rate: last.rate, phase: hi === null ? 'doubling' : 'bisecting' };
      }
      return { kind: 'done', answer: answer(search, 'client-limit', lo, last.rate, j.reason) };
    }
    case 'held':
    case 'broke':
      break;
  }
  if (lo === null) {
    const reasons = j.kind === 'broke' ? j.reasons.join('; ') : '';
    return { kind: 'done', answer: answer(search, 'none-held', null, hi, reasons) };
  }
  if (hi === null) {
    if (lo >= search.maxRate) return { kind: 'done', answer: answer(search, 'max-rate', lo, null, '') };
    return { kind: 'step', rate: Math.min(roundRate(lo * 2), search.maxRate), phase: 'doubling' };
  }
  const mid = roundRate((lo + hi) / 2);
  if (hi - lo <= (DEFAULTS.capacity.precisionPercent / 100) * lo || mid <= lo || mid >= hi) {
    const broke = steps.find((s) => s.rate === hi && s.judgement.kind === 'broke')?.judgement;
    const reasons = broke?.kind === 'broke' ? broke.reasons.join('; ') : '';
    return { kind: 'done', answer: answer(search, 'converged', lo, hi, reasons) };
  }
  return { kind: 'step', rate: mid, phase: 'bisecting' };
}

/**
 * The answer of a search that has ended: the planner's, or 'stopped' when the search ended
 * (stopped between steps) while the planner had another step to go.
 */
export function capacityAnswer(search: CapacitySearch, steps: readonly JudgedStep[]): CapacityAnswer {
  const next = nextCapacityStep(search, steps);
  if (next.kind === 'done') return next.answer;
  let held: number | null = null;
  for (const s of steps) if (s.judgement.kind === 'held') held = Math.max(held ?? 0, s.rate);
  return answer(search, 'stopped', held, steps.at(-1)?.rate ?? null, '');
}

// ---------------------------------------------------------------------------------------
// Answers in words

/** An answer in a few words: "2,000 req/s", "at least 1,600 req/s (the client was the limit)". */
export function answerShort(a: CapacityAnswer): string {
  const held = a.heldRate === null ? '' : rateText(a.heldRate);
  switch (a.stop) {
    case 'converged':
      return held;
    case 'max-rate':
      return `at least ${held} (the top rate)`;
    case 'client-limit':
      return a.heldRate === null
        ? 'not measured (the client was the limit)'
        : `at least ${held} (the client was the limit)`;
    case 'none-held':
      return `no rate (not even ${a.limitRate === null ? 'the lowest' : rateText(a.limitRate)} held)`;
    case 'not-measured':
      return 'not measured';
    case 'stopped':
      return a.heldRate === null ? 'stopped' : `at least ${held} (stopped)`;
  }
}

/**
 * One sentence for several servers' answers against the same goal: "nginx holds 1,950 req/s,
 * Apache 980 req/s at p99 < 10 ms"; a server with no rate that held reads "H2O: not measured".
 */
export function capacitySentence(
  goal: CapacityGoal,
  answers: readonly { label: string; answer: CapacityAnswer }[],
): string {
  const first = answers.findIndex((a) => a.answer.heldRate !== null);
  const parts = answers.map(({ label, answer: a }, i) =>
    a.heldRate === null
      ? `${label}: ${answerShort(a)}`
      : `${label} ${i === first ? 'holds ' : ''}${answerShort(a)}`,
  );
  return `${parts.join(', ')} at ${goalText(goal)}`;
}
