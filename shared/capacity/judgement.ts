/**
 * One capacity step judged against the goal: its figures as the curve and the tables show
 * them, and whether the server held, broke it, or the figures are not the server's (the
 * verdict's client-bound, a schedule not kept while the server kept up). Pure.
 */
import type { RunResult } from '../model/result.ts';
import { scheduleShortfall, type Caveat } from '../verdict/caveats.ts';
import { runVerdict } from '../verdict/verdict.ts';
import { machineBusyWhy } from '../verdict/limits.ts';
import { msText, pctText, type CapacityGoal } from './goal.ts';
import { thinP99 } from './step-length.ts';

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
 * - machine-busy: the step did not hold while the machine was busy (the verdict's machine
 *   busy): its figures are the machine's, so it is measured again once the machine is calm;
 *   `broke` says what it would have broken.
 * - not-measured: nothing to judge (the target failed, or every answer was an error page).
 * - stopped: the step was stopped before its end.
 */
export type StepJudgement =
  | { kind: 'held' }
  | { kind: 'broke'; reasons: string[] }
  | { kind: 'client-limit'; reason: string }
  | { kind: 'machine-busy'; reason: string; broke: string[] }
  | { kind: 'not-measured'; reason: string }
  | { kind: 'stopped' };

/** A step's judgement in a few words, as tables and step lines show it. */
export const JUDGEMENT_LABELS: Record<StepJudgement['kind'], string> = {
  held: 'held',
  broke: 'broke the goal',
  'client-limit': 'client was the limit',
  'machine-busy': 'machine busy',
  'not-measured': 'not measured',
  stopped: 'stopped',
};

/** Why a step was judged so, when there is more to say than its label. */
export function judgementDetail(j: StepJudgement): string | null {
  switch (j.kind) {
    case 'broke':
      return j.reasons.join('; ');
    case 'machine-busy':
      return [...j.broke, j.reason].join('; ');
    case 'client-limit':
    case 'not-measured':
      return j.reason;
    case 'held':
    case 'stopped':
      return null;
  }
}

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

/**
 * Whether one step met the goal, judged on its verdict and figures. A step that did not hold
 * while the machine was busy is the machine's figure, never a break of the server's (a held
 * one stands: the server held the goal even beside the other work).
 */
export function judgeStep(result: RunResult, goal: CapacityGoal): StepJudgement {
  if (result.status === 'cancelled' || result.status === 'interrupted') return { kind: 'stopped' };
  const verdict = runVerdict(result);
  if (verdict.state === 'not-measured' || verdict.state === 'all-non-2xx') {
    return { kind: 'not-measured', reason: verdict.headline };
  }
  const judged = judgeFigures(result, goal, verdict.caveats);
  const busy = machineBusyWhy(result);
  if (busy === null || judged.kind === 'held') return judged;
  return { kind: 'machine-busy', reason: busy, broke: judged.kind === 'broke' ? judged.reasons : [] };
}

/** The step's judgement on its figures alone (the machine aside). */
function judgeFigures(
  result: RunResult,
  goal: CapacityGoal,
  caveats: readonly Caveat[],
): Exclude<StepJudgement, { kind: 'machine-busy' | 'not-measured' | 'stopped' }> {
  const clientBound = badCaveat(caveats, 'client-bound');
  if (clientBound) return { kind: 'client-limit', reason: clientBound.message };

  const f = stepFigures(0, result);
  const limit = `the ${pctText(goal.errorPercent)} limit`;
  const reasons: string[] = [];
  // Errors and error statuses are the server's answers, whatever the schedule did.
  if (f.errorPercent > goal.errorPercent) reasons.push(`errors ${pctText(f.errorPercent)}, over ${limit}`);
  if (f.non2xxPercent > goal.errorPercent) reasons.push(`non-2xx ${pctText(f.non2xxPercent)}, over ${limit}`);
  if (reasons.length > 0) return { kind: 'broke', reasons };

  const overGoal = f.p99 !== null && f.p99 > goal.p99Ms;
  const thin = thinP99(result.requests.responses);
  const p99 = f.p99 === null ? [] : [`p99 ${msText(f.p99)}${thin ? ` (${thin})` : ''}`];
  const slipped = badCaveat(caveats, 'rate-not-reached');
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
