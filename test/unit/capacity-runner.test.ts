import { describe, expect, it } from 'vitest';
import { capacityRunner } from '../../electron/jobs/capacity.ts';
import { jobEnvelopeSchema } from '../../shared/contract/jobs.ts';
import { capacityPlanSchema, type CapacityPlan } from '../../shared/capacity/plan.ts';
import { capacityReports } from '../../shared/capacity/report.ts';
import type { RunResult } from '../../shared/model/result.ts';
import type { Scenario } from '../../shared/model/scenario.ts';
import { knee, stepResult } from '../helpers/capacity-results.ts';
import { FakeEngine } from '../helpers/fake-engine.ts';
import { runWith } from '../helpers/jobs.ts';
import { sampleFixture } from '../helpers/run-result.ts';

/**
 * The engine, faked: each step's run sends one sample and answers with what answer() gives
 * for its scenario; a run it is told to hold waits until stopped, then answers cancelled.
 */
function fakeEngine(answer: (s: Scenario) => RunResult | null, hold: (s: Scenario) => boolean = () => false) {
  return new FakeEngine({
    answer,
    hold,
    samples: () => [sampleFixture()],
    cancelled: (s) => stepResult(rateOf(s), {}, { status: 'cancelled' }),
  });
}

const rateOf = (s: Scenario): number => (s.load.model === 'open' ? s.load.rate : 0);

const plan: CapacityPlan = capacityPlanSchema.parse({
  name: 'how much',
  targets: [
    { name: 'fast', url: 'http://127.0.0.1:1/' },
    { name: 'slow', url: 'http://127.0.0.1:2/' },
  ],
  search: { goal: { p99Ms: 10 }, startRate: 100, stepSeconds: 2, warmupSeconds: 0.5 },
  maxInFlight: 50,
});

describe('capacity runner (fake engine)', () => {
  it('runs each target’s search step by step as open-model runs and keeps every step', async () => {
    const engine = fakeEngine((s) => knee(s.targets[0]!.name === 'fast' ? 800 : 250)(rateOf(s)));
    const { events, results: steps, status } = await runWith(capacityRunner, plan, engine);
    const started = engine.started;
    // A rate that broke is measured again before the break counts.
    expect(started.map((s) => `${s.targets[0]!.name}@${rateOf(s)}`)).toEqual([
      'fast@100',
      'fast@200',
      'fast@400',
      'fast@800',
      'fast@1600',
      'fast@1600',
      'fast@1200',
      'fast@1200',
      'fast@1000',
      'fast@1000',
      'fast@900',
      'fast@900',
      'fast@850',
      'fast@850',
      'fast@825',
      'fast@825',
      'slow@100',
      'slow@200',
      'slow@400',
      'slow@400',
      'slow@300',
      'slow@300',
      'slow@250',
      'slow@275',
      'slow@275',
      'slow@263',
      'slow@263',
      'slow@257',
      'slow@257',
    ]);
    // Each step: the open model at its rate, the step's duration after its warm-up, the plan's cap.
    expect(started[3]).toMatchObject({
      name: 'how much · fast · 800 req/s',
      load: { model: 'open', rate: 800, durationSeconds: 2, maxInFlight: 50 },
      options: { warmupSeconds: 0.5, protocol: 'http1.1' },
    });
    // Lengthened to measure 1,000 requests, so their p99 rests on 10: 10 s at 100 req/s, 5 s at 200.
    expect(started.slice(0, 3).map((s) => s.load.model === 'open' && s.load.durationSeconds)).toEqual([
      10, 5, 2.5,
    ]);
    expect(status).toBe('completed');
    expect(steps.map((s) => [s.searchIndex, s.stepIndex, s.phase]).slice(2, 8)).toEqual([
      [0, 2, 'doubling'],
      [0, 3, 'doubling'],
      [0, 4, 'doubling'],
      [0, 5, 'doubling'],
      [0, 6, 'bisecting'],
      [0, 7, 'bisecting'],
    ]);
    const [fast, slow] = capacityReports(plan, steps, null);
    expect(fast!.answer).toMatchObject({ stop: 'converged', heldRate: 800, limitRate: 825 });
    expect(slow!.answer).toMatchObject({ stop: 'converged', heldRate: 250, limitRate: 257 });
    // What crosses to the UI validates (a result without its samples, which went live);
    // a step's sample follows its start and precedes its end, all under the step's part.
    events.forEach((event, n) => {
      const travelling =
        event.type === 'result'
          ? { ...event, result: { ...event.result, result: { ...event.result.result, samples: [] } } }
          : event;
      jobEnvelopeSchema.parse({ jobId: 'cap-1', kind: 'capacity', n, event: travelling });
    });
    expect(events.slice(0, 4).map((e) => (e.type === 'progress' ? e.progress.type : e.type))).toEqual([
      'started',
      'part-started',
      'sample',
      'result',
    ]);
    // Parts number the steps over the whole job: 16 of the first search, then the second's 13.
    expect(events.flatMap((e) => (e.type === 'result' ? [e.part] : []))).toEqual(steps.map((_, i) => i));
    expect(steps).toHaveLength(29);
    expect(events.at(-1)).toMatchObject({ type: 'result', part: 28, result: steps[28] });
  });

  it('stops the running step, starts no other and keeps what was measured', async () => {
    const engine = fakeEngine(
      (s) => knee(1e6)(rateOf(s)),
      (s) => rateOf(s) === 400,
    );
    const { results: steps, status } = await runWith(capacityRunner, plan, engine, {
      onEvent: (e, stop) => {
        if (e.type === 'sample' && e.part === 2) stop();
      },
    });
    expect(engine.stopped).toEqual([2]);
    expect(engine.started).toHaveLength(3);
    expect(status).toBe('cancelled');
    expect(steps.map((s) => s.result.status)).toEqual(['completed', 'completed', 'cancelled']);
    const [fast, slow] = capacityReports(plan, steps, null);
    expect(fast!.answer?.message).toBe('stopped; 200 req/s held so far at p99 < 10 ms');
    expect(slow!.answer?.message).toBe('stopped before any rate held');
  });

  it('reports a step the engine gave no result for, and goes on with the next target', async () => {
    const engine = fakeEngine((s) => (s.targets[0]!.name === 'fast' ? null : knee(1e6)(rateOf(s))));
    const { events, status } = await runWith(
      capacityRunner,
      capacityPlanSchema.parse({ ...plan, search: { ...plan.search, maxRate: 200 } }),
      engine,
    );
    expect(events.filter((e) => e.type === 'error')).toEqual([
      { type: 'error', part: 0, message: 'the engine returned no result for the step' },
    ]);
    expect(engine.started.map((s) => `${s.targets[0]!.name}@${rateOf(s)}`)).toEqual([
      'fast@100',
      'slow@100',
      'slow@200',
    ]);
    expect(status).toBe('completed');
  });
});
