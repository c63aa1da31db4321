import { describe, expect, it } from 'vitest';
import {
  answerShort,
  capacityAnswer,
  capacitySearchSchema,
  capacitySentence,
  judgeStep,
  nextCapacityStep,
  type CapacitySearch,
  type CapacitySearchInput,
  type JudgedStep,
} from '../../shared/capacity/search.ts';
import { capacityPlanSchema, stepScenario } from '../../shared/capacity/plan.ts';
import { stepLengthNeeds, stepSecondsAt } from '../../shared/capacity/step-length.ts';
import type { RunResult } from '../../shared/model/result.ts';
import { parseWith } from '../../shared/model/validation.ts';
import { knee, stepResult } from '../helpers/capacity-results.ts';

const search = (over: Partial<CapacitySearchInput> = {}): CapacitySearch =>
  capacitySearchSchema.parse({ goal: { p99Ms: 10 }, ...over });

/** Runs a search against a simulated server to its answer; the rates it asked for, in order. */
function simulate(s: CapacitySearch, at: (rate: number) => RunResult) {
  const steps: JudgedStep[] = [];
  for (let i = 0; i < 100; i++) {
    const next = nextCapacityStep(s, steps);
    if (next.kind === 'done') return { rates: steps.map((x) => x.rate), answer: next.answer };
    steps.push({ rate: next.rate, judgement: judgeStep(at(next.rate), s.goal) });
  }
  throw new Error('the search did not end within 100 steps');
}

describe('capacity search planner', () => {
  it('doubles from the start rate, then bisects to within 5 % of the knee', () => {
    const { rates, answer } = simulate(search({ startRate: 100 }), knee(2050));
    // Every rate that broke is measured again before the break counts.
    expect(rates).toEqual([100, 200, 400, 800, 1600, 3200, 3200, 2400, 2400, 2000, 2200, 2200, 2100, 2100]);
    expect(answer.stop).toBe('converged');
    expect(answer.exact).toBe(true);
    expect(answer.heldRate).toBe(2000);
    expect(answer.limitRate).toBe(2100);
    expect((answer.limitRate! - answer.heldRate!) / answer.heldRate!).toBeLessThanOrEqual(0.05);
    expect(answer.message).toBe(
      'holds 2,000 req/s at p99 < 10 ms; 2,100 req/s broke it twice: p99 80 ms, then p99 80 ms',
    );
  });

  it('finds the knee within 5 % for capacities across four decades', () => {
    for (const capacity of [37, 512, 2000, 7777, 45_000]) {
      const { answer } = simulate(search({ startRate: 10 }), knee(capacity));
      expect(answer.stop).toBe('converged');
      expect(answer.heldRate).toBeLessThanOrEqual(capacity);
      expect(answer.heldRate!).toBeGreaterThanOrEqual(capacity * 0.95);
    }
  });

  it('says "not even the lowest rate held" when the start rate breaks the goal', () => {
    const { rates, answer } = simulate(search({ startRate: 500 }), knee(100));
    expect(rates).toEqual([500, 500]);
    expect(answer.stop).toBe('none-held');
    expect(answer.heldRate).toBeNull();
    expect(answer.message).toBe(
      'not even the lowest rate held: 500 req/s broke p99 < 10 ms twice: p99 80 ms, then p99 80 ms',
    );
    expect(answerShort(answer)).toBe('no rate (not even 500 req/s held)');
  });

  it('stops at the top rate with a lower bound when it still holds there', () => {
    const { rates, answer } = simulate(search({ startRate: 1000, maxRate: 5000 }), knee(1e9));
    expect(rates).toEqual([1000, 2000, 4000, 5000]);
    expect(answer.stop).toBe('max-rate');
    expect(answer.exact).toBe(false);
    expect(answerShort(answer)).toBe('at least 5,000 req/s (the top rate)');
  });

  it('ends with "the client was the limit" when the generator ran flat out, never blaming the server', () => {
    const at = (rate: number) =>
      rate < 3000
        ? stepResult(rate, {})
        : // Flat out: its latency is high too, but that is the client's, not the server's.
          stepResult(
            rate,
            { p99: 300 },
            { generator: { cpuPercentMean: 99, cpuPercentMax: 100, saturated: true } },
          );
    const { rates, answer } = simulate(search({ startRate: 800 }), at);
    // 3,200 measured twice: once could be a passing stall of the machine.
    expect(rates).toEqual([800, 1600, 3200, 3200]);
    expect(answer.stop).toBe('client-limit');
    expect(answer.heldRate).toBe(1600);
    expect(answer.exact).toBe(false);
    expect(answer.message).toMatch(
      /^at least 1,600 req\/s at p99 < 10 ms; the client was the limit at 3,200 req\/s: The client, not the server, was the limit/,
    );
    expect(answerShort(answer)).toBe('at least 1,600 req/s (the client was the limit)');
  });

  it('blames a schedule not kept on the client when the server answered fast (a tiny in-flight cap)', () => {
    // 2 requests in flight at 6,400 req/s answered: each held 0.3 ms, far inside the goal.
    const j = judgeStep(
      stepResult(6400, { p99: 400, inFlight: 2, late: 9000, dropped: 5000 }),
      search().goal,
    );
    expect(j.kind).toBe('client-limit');
    expect(j.kind === 'client-limit' && j.reason).toMatch(/^The rate was not reached at 6,400 req\/s/);
  });

  it('blames a schedule not kept on the server when it held the requests past the goal', () => {
    // 1,000 requests in flight answered at 2,000 req/s: each held 500 ms (Little's law).
    const r = stepResult(2000, { p99: 900, inFlight: 1000, late: 3000, dropped: 2000 });
    const j = judgeStep(r, search().goal);
    expect(j).toEqual({
      kind: 'broke',
      reasons: [
        'p99 900 ms',
        'the server held each request about 500 ms (in flight over answered per second), over the 10 ms goal, so the schedule fell behind',
      ],
    });
  });

  it("judges a schedule not kept on the server's own p99 from each actual send, when the engine timed it", () => {
    const phases = (p99: number) => ({
      total: { min: 1, mean: 2, stdev: 1, median: 2, max: p99, percentiles: { '99': p99 } },
    });
    // Few in flight at the samples (Little's law would say 0.5 ms), but the requests sent
    // waited 30 ms each for their answer: the server fell behind.
    const slow = stepResult(2000, { p99: 900, inFlight: 1, late: 3000 }, { phases: phases(30) });
    expect(judgeStep(slow, search().goal)).toEqual({
      kind: 'broke',
      reasons: [
        'p99 900 ms',
        "the server's own p99, from each request's actual send, was 30 ms, over the 10 ms goal, so the schedule fell behind",
      ],
    });
    // Many in flight (Little's law would say 500 ms), yet each answer came 3 ms after its
    // send: the lateness was the client's (a busy machine), not the server's.
    const busy = stepResult(2000, { p99: 900, inFlight: 1000, late: 3000 }, { phases: phases(3) });
    expect(judgeStep(busy, search().goal).kind).toBe('client-limit');
  });

  it('holds a step sent partly late when its p99, lateness included, is within the goal', () => {
    // 3 % went out late (a busy machine), none dropped: the latency from the scheduled time
    // still met the goal, so the server's own did.
    const late = stepResult(1000, { p99: 8, late: 90 });
    expect(judgeStep(late, search().goal)).toEqual({ kind: 'held' });
    // Requests never sent are load the server did not get: the rate was not offered.
    const dropped = stepResult(1000, { p99: 8, late: 90, dropped: 90 });
    expect(judgeStep(dropped, search().goal).kind).toBe('client-limit');
  });

  it('breaks the goal on errors or non-2xx above the limit, and holds within a looser one', () => {
    const r = stepResult(1000, { errors: 60, non2xx: 90 });
    expect(judgeStep(r, search().goal)).toEqual({
      kind: 'broke',
      reasons: ['errors 2.0%, over the 1.0% limit', 'non-2xx 3.0%, over the 1.0% limit'],
    });
    expect(judgeStep(r, search({ goal: { p99Ms: 10, errorPercent: 5 } }).goal)).toEqual({ kind: 'held' });
  });

  it('ends "not measured" on a failed step or an error page, and "stopped" on a stopped one', () => {
    const s = search({ startRate: 100 });
    const failed = stepResult(
      100,
      {},
      {
        status: 'failed',
        error: { kind: 'refused', message: 'connect ECONNREFUSED 127.0.0.1:1' },
      },
    );
    const j = judgeStep(failed, s.goal);
    expect(j.kind).toBe('not-measured');
    const notFound = stepResult(100, { non2xx: 300 }, { statusCodes: { '404': 300 } });
    expect(judgeStep(notFound, s.goal)).toEqual({
      kind: 'not-measured',
      reason: 'Every response was 404 Not Found: check the path.',
    });
    const stopped = stepResult(200, {}, { status: 'cancelled' });
    const steps: JudgedStep[] = [
      { rate: 100, judgement: { kind: 'held' } },
      { rate: 200, judgement: judgeStep(stopped, s.goal) },
    ];
    const answer = capacityAnswer(s, steps);
    expect(answer.stop).toBe('stopped');
    expect(answer.message).toBe('stopped; 100 req/s held so far at p99 < 10 ms');
    // Stopped between steps: the planner had one more to go.
    expect(capacityAnswer(s, steps.slice(0, 1)).stop).toBe('stopped');
  });

  it('words several servers in one sentence', () => {
    const s = search({ startRate: 100 });
    const a = simulate(s, knee(2050)).answer;
    const b = simulate(s, knee(1000)).answer;
    expect(
      capacitySentence(s.goal, [
        { label: 'nginx', answer: a },
        { label: 'Apache', answer: b },
      ]),
    ).toBe('nginx holds 2,000 req/s, Apache 1,000 req/s at p99 < 10 ms');
  });

  it('validates its fields with messages that name them', () => {
    const r = parseWith(capacitySearchSchema, { goal: { p99Ms: -1 }, startRate: 500, maxRate: 100 });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.issues).toEqual(
      expect.arrayContaining([{ path: 'goal.p99Ms', message: 'p99 goal must be at least 0.001' }]),
    );
    const order = parseWith(capacitySearchSchema, { goal: { p99Ms: 10 }, startRate: 500, maxRate: 100 });
    expect(order.ok || order.issues).toEqual([
      { path: 'maxRate', message: 'max rate 100 is below the start rate 500' },
    ]);
  });

  it('measures a rate again when the client was the limit once, and goes on when it holds then', () => {
    let tries = 0;
    // A stall of the machine at the first 1,600 req/s step only.
    const at = (rate: number) =>
      rate === 1600 && tries++ === 0 ? stepResult(rate, { p99: 40, late: 200 }) : knee(2050)(rate);
    const { rates, answer } = simulate(search({ startRate: 800 }), at);
    expect(rates.slice(0, 4)).toEqual([800, 1600, 1600, 3200]);
    expect(answer).toMatchObject({ stop: 'converged', exact: true });
    expect(answer.heldRate!).toBeGreaterThanOrEqual(2050 * 0.95);
    expect(answer.heldRate!).toBeLessThanOrEqual(2050);
  });

  it('measures a step that broke the goal again: one noisy step does not decide the search, and the answer says so', () => {
    // nginx with 2 s steps: one 200 req/s step read 14.9 ms (a stall of a busy machine); the
    // search had answered "holds 100 req/s" on it. It is run again, holds, and the search goes on.
    let tries = 0;
    const at = (rate: number) =>
      rate === 200 && tries++ === 0 ? stepResult(rate, { p99: 14.9 }) : knee(1e9)(rate);
    const { rates, answer } = simulate(search({ startRate: 100, maxRate: 5000 }), at);
    expect(rates).toEqual([100, 200, 200, 400, 800, 1600, 3200, 5000]);
    expect(answer.stop).toBe('max-rate');
    expect(answer.heldRate).toBe(5000);
    expect(answer.message).toBe(
      "holds at least 5,000 req/s at p99 < 10 ms: the search's top rate held (raise the max rate to go further); " +
        '200 req/s broke it once, p99 14.9 ms (of 600 requests, fewer than the 1,000 a p99 needs), and held when run again',
    );
    // The planner says which step is a second try.
    const s = search({ startRate: 100 });
    const broke: JudgedStep['judgement'] = { kind: 'broke', reasons: ['p99 14.9 ms'] };
    expect(nextCapacityStep(s, [{ rate: 100, judgement: broke }])).toEqual({
      kind: 'step',
      rate: 100,
      phase: 'doubling',
      again: true,
    });
    const bisecting: JudgedStep[] = [
      { rate: 100, judgement: { kind: 'held' } },
      { rate: 200, judgement: broke },
      { rate: 200, judgement: broke },
      { rate: 150, judgement: broke },
    ];
    expect(nextCapacityStep(s, bisecting)).toMatchObject({ rate: 150, phase: 'bisecting', again: true });
  });

  it('judges a search saved before breaks were run again on the break it has, and says so', () => {
    const s = search({ startRate: 100 });
    const steps: JudgedStep[] = [
      { rate: 2000, judgement: { kind: 'held' } },
      { rate: 2100, judgement: { kind: 'broke', reasons: ['p99 80 ms'] } },
    ];
    const answer = capacityAnswer(s, steps);
    expect(answer).toMatchObject({ stop: 'converged', heldRate: 2000, limitRate: 2100 });
    expect(answer.message).toBe(
      'holds 2,000 req/s at p99 < 10 ms; 2,100 req/s broke it once, not run again: p99 80 ms',
    );
  });

  it('marks a p99 that rests on fewer than 1,000 requests where it breaks the goal', () => {
    // 3 s at 100 req/s: 300 requests, so the p99 is the 3rd slowest.
    expect(judgeStep(stepResult(100, { p99: 14.9 }), search().goal)).toEqual({
      kind: 'broke',
      reasons: ['p99 14.9 ms (of 300 requests, fewer than the 1,000 a p99 needs)'],
    });
    expect(judgeStep(stepResult(400, { p99: 14.9 }), search().goal)).toEqual({
      kind: 'broke',
      reasons: ['p99 14.9 ms'],
    });
  });
});

describe('capacity step length', () => {
  it('lengthens a step until it measures 1,000 requests, up to five times the step', () => {
    const s = { stepSeconds: 2 };
    expect([100, 200, 400, 500, 1000, 10, 0.5].map((rate) => stepSecondsAt(s, rate))).toEqual([
      10, 5, 2.5, 2, 2, 10, 10,
    ]);
    expect(stepSecondsAt({ stepSeconds: 5 }, 300)).toBe(5);
    expect(stepSecondsAt({ stepSeconds: 1 }, 300)).toBe(3.4);
    const plan = capacityPlanSchema.parse({
      targets: [{ url: 'http://127.0.0.1:8080/' }],
      search: { goal: { p99Ms: 10 }, stepSeconds: 2 },
    });
    expect(stepScenario(plan, 0, 200).load).toMatchObject({ model: 'open', rate: 200, durationSeconds: 5 });
    expect(stepScenario(plan, 0, 5000).load).toMatchObject({ durationSeconds: 2 });
  });

  it('tells the form what step length the goal needs', () => {
    expect(stepLengthNeeds({ stepSeconds: 2, startRate: 100 })).toBe(
      'A p99 needs about 1,000 requests a step: steps below 500 req/s run longer, up to 10 s (100 req/s: 10 s).',
    );
    expect(stepLengthNeeds({ stepSeconds: 1, startRate: 50 })).toBe(
      'A p99 needs about 1,000 requests a step: steps below 1,000 req/s run longer, up to 5 s; at 50 req/s that is not enough (it needs 20 s): its p99 is marked. A longer step or a higher start rate gives a firm p99.',
    );
    expect(stepLengthNeeds({ stepSeconds: 5, startRate: 200 })).toBeNull();
    expect(stepLengthNeeds({ stepSeconds: Number.NaN, startRate: 200 })).toBeNull();
  });
});
