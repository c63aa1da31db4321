/**
 * The capacity search: the highest open-model rate a server serves within a latency and error
 * goal. The planner is a pure function of the steps measured so far, so the same steps always
 * give the same next step and the same answer: a saved search is judged again from its runs.
 *
 * The sequence: the start rate, then doubling while the goal holds (up to the top rate), then
 * bisecting between the highest rate that held and the lowest that broke until they are
 * within DEFAULTS.capacity.precisionPercent. A step breaks the goal when its p99 is over the
 * goal, or its errors or non-2xx responses are over the limit: the server broke. A rate that
 * broke is measured again before the break counts (BREAK_TRIES), so one noisy step does not
 * decide the search; a step's length is shared/capacity/step-length.ts's. A step whose
 * figures are not the server's (shared/verdict/verdict.ts: the generator ran flat out, or the
 * schedule was not kept while the server was keeping up), twice at the same rate, ends the
 * search with "at least N req/s; the client was the limit", never a number blamed on the server.
 * A step that did not hold while the machine was busy (other processes took its CPU) is
 * measured again, after the runner waited for the machine to calm (MACHINE_BUSY_TRIES times at
 * most); when no quiet step could be had, the answer says its figure is the machine's.
 */
import { z } from 'zod';
import { DEFAULTS, LIMITS } from '../model/defaults.ts';
import { boundedNumber } from '../model/number-schema.ts';
import { capacityGoalSchema, goalText, rateText, type CapacityGoal } from './goal.ts';
import type { StepJudgement } from './judgement.ts';

// The goal, its words and the step's judgement have files of their own; the search's users
// find them here too.
export { capacityGoalSchema, goalText, msText, rateText, type CapacityGoal } from './goal.ts';
export {
  JUDGEMENT_LABELS,
  judgeStep,
  judgementDetail,
  serverOwnLatency,
  stepFigures,
  type StepFigures,
  type StepJudgement,
} from './judgement.ts';

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
 * - machine-busy: a rate was measured only while the machine was busy; the held rate is a lower bound.
 * - none-held: the start rate already broke the goal.
 * - not-measured: a step measured nothing (a failing target, an error page).
 * - stopped: stopped before it ended.
 */
export const CAPACITY_STOPS = [
  'converged',
  'max-rate',
  'client-limit',
  'machine-busy',
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
  | {
      kind: 'step';
      rate: number;
      phase: 'doubling' | 'bisecting';
      /** The rate broke the goal once: it is measured again before the break counts. */
      again?: true;
      /** The last step at this rate was measured on a busy machine: wait for calm before it. */
      afterBusy?: true;
    }
  | { kind: 'done'; answer: CapacityAnswer };

/** How many times a rate is measured before "the client was the limit" there ends the search. */
export const CLIENT_LIMIT_TRIES = 2;

/**
 * How many times a rate is measured on a busy machine before the search gives up on a quiet
 * step there: the runner waits for calm before each new try (electron/machine/calm.ts).
 */
export const MACHINE_BUSY_TRIES = 3;

/**
 * How many times a rate that broke the goal is measured before the break counts: a passing
 * stall of a busy machine breaks one step, a server past its capacity breaks both.
 */
export const BREAK_TRIES = 2;

/** Rates as people read them: whole req/s from 100 up, one decimal below. */
export function roundRate(rate: number): number {
  return rate >= 100 ? Math.round(rate) : Math.max(LIMITS.rate.min, Math.round(rate * 10) / 10);
}

const brokeAt = (steps: readonly JudgedStep[], rate: number): string[][] =>
  steps.flatMap((s) => (s.rate === rate && s.judgement.kind === 'broke' ? [s.judgement.reasons] : []));

/** " twice: p99 14.9 ms, then p99 15.2 ms": how often a rate broke the goal, each try's reasons. */
function breaksText(steps: readonly JudgedStep[], rate: number | null): string {
  const tries = rate === null ? [] : brokeAt(steps, rate).map((r) => r.join('; '));
  if (tries.length === 0) return '';
  if (tries.length === 1) return ` once, not run again: ${tries[0]}`;
  return ` ${tries.length === 2 ? 'twice' : `${tries.length} times`}: ${tries.join(', then ')}`;
}

/** "; 200 req/s broke it once, p99 14.9 ms, and held when run again": breaks that did not count. */
function notCounted(steps: readonly JudgedStep[], standing: ReadonlyMap<number, Standing>): string {
  return [...standing]
    .flatMap(([rate, kind]) => {
      const tries = kind === 'held' ? brokeAt(steps, rate) : [];
      if (tries.length === 0) return [];
      const times = tries.length === 1 ? 'once' : `${tries.length} times`;
      return [
        `; ${rateText(rate)} broke it ${times}, ${tries.map((r) => r.join('; ')).join(', then ')}, and held when run again`,
      ];
    })
    .join('');
}

function answer(
  search: CapacitySearch,
  stop: CapacityStop,
  heldRate: number | null,
  limitRate: number | null,
  detail: string,
  steps: readonly JudgedStep[] = [],
  standing: ReadonlyMap<number, Standing> = new Map(),
): CapacityAnswer {
  const goal = goalText(search.goal);
  const held = heldRate === null ? '' : rateText(heldRate);
  const at = limitRate === null ? '' : rateText(limitRate);
  const messages: Record<CapacityStop, string> = {
    converged: `holds ${held} at ${goal}; ${at} broke it${breaksText(steps, limitRate)}`,
    'max-rate': `holds at least ${held} at ${goal}: the search's top rate held (raise the max rate to go further)`,
    'client-limit':
      heldRate === null
        ? `not measured: the client was the limit already at ${at}: ${detail}`
        : `at least ${held} at ${goal}; the client was the limit at ${at}: ${detail}`,
    'machine-busy':
      heldRate === null
        ? `not the server's: ${at} was measured only while the machine was busy (${detail}); no quiet step could be had`
        : `at least ${held} at ${goal}; ${at} was measured only while the machine was busy, so not the server's (${detail}); no quiet step could be had`,
    'none-held': `not even the lowest rate held: ${at} broke ${goal}${breaksText(steps, limitRate)}`,
    'not-measured': `not measured at ${at}: ${detail}`,
    stopped: heldRate === null ? 'stopped before any rate held' : `stopped; ${held} held so far at ${goal}`,
  };
  const message = messages[stop] + (stop === 'stopped' ? '' : notCounted(steps, standing));
  return { stop, heldRate, limitRate, exact: stop === 'converged', message };
}

/** Where a rate stands: its latest step that held or broke (a break measured again that held did not count). */
type Standing = 'held' | 'broke';

function standings(steps: readonly JudgedStep[]): Map<number, Standing> {
  const out = new Map<number, Standing>();
  for (const s of steps) {
    if (s.judgement.kind === 'held' || s.judgement.kind === 'broke') out.set(s.rate, s.judgement.kind);
  }
  return out;
}

/** How a planner treats a break seen once. */
interface PlannerRules {
  /** Measure a rate that broke again before the break counts (false: it counts at once). */
  confirmBreaks: boolean;
}

/**
 * The next step of a search, or its answer, from the steps measured so far (in order). Pure
 * and deterministic: the search runner asks it after every step, a report asks it again.
 */
export function nextCapacityStep(
  search: CapacitySearch,
  steps: readonly JudgedStep[],
  rules: PlannerRules = { confirmBreaks: true },
): CapacityNext {
  const last = steps.at(-1);
  if (!last) return { kind: 'step', rate: roundRate(search.startRate), phase: 'doubling' };
  const standing = standings(steps);
  let lo: number | null = null;
  let hi: number | null = null;
  for (const [rate, kind] of standing) {
    if (kind === 'held' && (lo === null || rate > lo)) lo = rate;
    if (kind === 'broke' && (hi === null || rate < hi)) hi = rate;
  }
  const done = (
    stop: CapacityStop,
    held: number | null,
    limit: number | null,
    detail: string,
  ): CapacityNext => ({
    kind: 'done',
    answer: answer(search, stop, held, limit, detail, steps, standing),
  });
  const j = last.judgement;
  switch (j.kind) {
    case 'stopped':
      return done('stopped', lo, last.rate, '');
    case 'not-measured':
      return done('not-measured', lo, last.rate, j.reason);
    case 'client-limit': {
      // A passing stall of a busy machine makes one step late; the same rate measured again
      // tells that from a client that cannot keep the schedule at all.
      const tries = steps.filter((s) => s.rate === last.rate && s.judgement.kind === 'client-limit').length;
      if (tries < CLIENT_LIMIT_TRIES) {
        return { kind: 'step', rate: last.rate, phase: hi === null ? 'doubling' : 'bisecting' };
      }
      return done('client-limit', lo, last.rate, j.reason);
    }
    case 'machine-busy': {
      const tries = steps.filter((s) => s.rate === last.rate && s.judgement.kind === 'machine-busy').length;
      if (tries < MACHINE_BUSY_TRIES) {
        return {
          kind: 'step',
          rate: last.rate,
          phase: hi === null ? 'doubling' : 'bisecting',
          afterBusy: true,
        };
      }
      return done('machine-busy', lo, last.rate, j.reason);
    }
    case 'broke':
      if (rules.confirmBreaks && brokeAt(steps, last.rate).length < BREAK_TRIES) {
        const before = standings(steps.slice(0, -1));
        const bisecting = [...before].some(([rate, kind]) => kind === 'broke' && rate !== last.rate);
        return { kind: 'step', rate: last.rate, phase: bisecting ? 'bisecting' : 'doubling', again: true };
      }
      break;
    case 'held':
      break;
  }
  if (lo === null) return done('none-held', null, hi, '');
  if (hi === null) {
    if (lo >= search.maxRate) return done('max-rate', lo, null, '');
    return { kind: 'step', rate: Math.min(roundRate(lo * 2), search.maxRate), phase: 'doubling' };
  }
  const mid = roundRate((lo + hi) / 2);
  if (hi - lo <= (DEFAULTS.capacity.precisionPercent / 100) * lo || mid <= lo || mid >= hi) {
    return done('converged', lo, hi, '');
  }
  return { kind: 'step', rate: mid, phase: 'bisecting' };
}

/**
 * The answer of a search that has ended: the planner's; or, when it ended waiting to measure
 * a break again (a search saved before breaks were, or stopped just then), the planner's with
 * that break counted (its answer says it was not run again); else 'stopped' (stopped between
 * steps while the planner had another step to go).
 */
export function capacityAnswer(search: CapacitySearch, steps: readonly JudgedStep[]): CapacityAnswer {
  const next = nextCapacityStep(search, steps);
  if (next.kind === 'done') return next.answer;
  if (next.again) {
    const counted = nextCapacityStep(search, steps, { confirmBreaks: false });
    if (counted.kind === 'done') return counted.answer;
  }
  let held: number | null = null;
  for (const [rate, kind] of standings(steps)) if (kind === 'held') held = Math.max(held ?? 0, rate);
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
    case 'machine-busy':
      return a.heldRate === null
        ? 'not measured (the machine was busy)'
        : `at least ${held} (the machine was busy at ${a.limitRate === null ? 'the next rate' : rateText(a.limitRate)})`;
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
