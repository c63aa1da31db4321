import { describe, expect, it } from 'vitest';
import { CapacityRunner } from '../../electron/services/capacity-runner.ts';
import type { RunManagerLike } from '../../electron/services/comparison-runner.ts';
import type { RunEvent } from '../../shared/contract/api.ts';
import {
  capacityEventSchema,
  capacityPlanSchema,
  type CapacityEvent,
  type CapacityPlan,
} from '../../shared/capacity/plan.ts';
import { capacityReports } from '../../shared/capacity/report.ts';
import type { RunResult } from '../../shared/model/result.ts';
import type { Scenario } from '../../shared/model/scenario.ts';
import { knee, stepResult } from '../helpers/capacity-results.ts';
import { sampleFixture } from '../helpers/run-result.ts';

/**
 * A RunManager stand-in: each run, once subscribed to, sends one sample and answers with what
 * answer() gives for its scenario; a run it is told to hold waits until stopped.
 */
function fakeManager(answer: (s: Scenario) => RunResult[], hold: (s: Scenario) => boolean = () => false) {
  const started: Scenario[] = [];
  const stopped: string[] = [];
  const waiting = new Map<string, (r: RunResult[]) => void>();
  const manager: RunManagerLike = {
    start(scenario) {
      const id = `run-${started.length}`;
      started.push(scenario);
      let finish: (r: RunResult[]) => void = () => undefined;
      const done = new Promise<RunResult[]>((resolve) => (finish = resolve));
      return {
        id,
        done,
        events: (listener: (e: RunEvent) => void) => {
          if (hold(scenario)) waiting.set(id, finish);
          listener({ type: 'sample', runId: id, targetIndex: 0, sample: sampleFixture() });
          if (!hold(scenario)) finish(answer(scenario));
          return () => undefined;
        },
      };
    },
    stop(runId) {
      stopped.push(runId);
      const rate = started[Number(runId.slice(4))]!.load;
      waiting.get(runId)?.([stepResult(rate.model === 'open' ? rate.rate : 0, {}, { status: 'cancelled' })]);
      return Promise.resolve(true);
    },
  };
  return { manager, started, stopped };
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

async function run(
  runner: CapacityRunner,
  p: CapacityPlan,
  onEvent: (e: CapacityEvent, id: string) => void = () => undefined,
) {
  const events: CapacityEvent[] = [];
  const job = runner.start(p);
  job.events((e) => {
    events.push(e);
    onEvent(e, job.id);
  });
  return { events, out: await job.done };
}

describe('capacity runner (fake engine)', () => {
  it('runs each target’s search step by step as open-model runs and keeps every step', async () => {
    const { manager, started } = fakeManager((s) => [
      knee(s.targets[0]!.name === 'fast' ? 800 : 250)(rateOf(s)),
    ]);
    const { events, out } = await run(new CapacityRunner({ manager }), plan);
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
    expect(out.status).toBe('completed');
    expect(out.steps.map((s) => [s.searchIndex, s.stepIndex, s.phase]).slice(2, 8)).toEqual([
      [0, 2, 'doubling'],
      [0, 3, 'doubling'],
      [0, 4, 'doubling'],
      [0, 5, 'doubling'],
      [0, 6, 'bisecting'],
      [0, 7, 'bisecting'],
    ]);
    const [fast, slow] = capacityReports(plan, out.steps, null);
    expect(fast!.answer).toMatchObject({ stop: 'converged', heldRate: 800, limitRate: 825 });
    expect(slow!.answer).toMatchObject({ stop: 'converged', heldRate: 250, limitRate: 257 });
    // What crosses to the UI validates; a step's sample follows its start and precedes its end.
    for (const e of events) capacityEventSchema.parse(e);
    expect(events.slice(0, 4).map((e) => e.type)).toEqual([
      'started',
      'step-started',
      'step-sample',
      'step-done',
    ]);
    expect(events.at(-1)).toMatchObject({ type: 'done', status: 'completed', steps: out.steps });
  });

  it('stops the running step, starts no other and keeps what was measured', async () => {
    const { manager, started, stopped } = fakeManager(
      (s) => [knee(1e6)(rateOf(s))],
      (s) => rateOf(s) === 400,
    );
    const runner = new CapacityRunner({ manager });
    const { out } = await run(runner, plan, (e, id) => {
      if (e.type === 'step-sample' && e.stepIndex === 2) void runner.stop(id);
    });
    expect(stopped).toEqual(['run-2']);
    expect(started).toHaveLength(3);
    expect(out.status).toBe('cancelled');
    expect(out.steps.map((s) => s.result.status)).toEqual(['completed', 'completed', 'cancelled']);
    const [fast, slow] = capacityReports(plan, out.steps, null);
    expect(fast!.answer?.message).toBe('stopped; 200 req/s held so far at p99 < 10 ms');
    expect(slow!.answer?.message).toBe('stopped before any rate held');
  });

  it('reports a step the engine gave no result for, and goes on with the next target', async () => {
    const { manager, started } = fakeManager((s) =>
      s.targets[0]!.name === 'fast' ? [] : [knee(1e6)(rateOf(s))],
    );
    const { events, out } = await run(
      new CapacityRunner({ manager }),
      capacityPlanSchema.parse({ ...plan, search: { ...plan.search, maxRate: 200 } }),
    );
    expect(events.filter((e) => e.type === 'error')).toEqual([
      {
        type: 'error',
        capacityId: out.capacityId,
        searchIndex: 0,
        message: 'the engine returned no result for the step',
      },
    ]);
    expect(started.map((s) => `${s.targets[0]!.name}@${rateOf(s)}`)).toEqual([
      'fast@100',
      'slow@100',
      'slow@200',
    ]);
    expect(out.status).toBe('completed');
  });
});
