/**
 * A capacity search on a busy machine (issue 32), judged from given readings: a step that did
 * not hold while other processes took the machine is never counted as the server's break; the
 * search waits for calm (bounded) and measures the rate again, and when no quiet step could be
 * had its answer says the figure is the machine's.
 */
import { describe, expect, it } from 'vitest';
import { calmBound, capacityRunner } from '../../electron/jobs/capacity.ts';
import type { CalmOutcome } from '../../electron/machine/calm.ts';
import { capacityPlanSchema } from '../../shared/capacity/plan.ts';
import { capacityReports } from '../../shared/capacity/report.ts';
import {
  answerShort,
  judgeStep,
  MACHINE_BUSY_TRIES,
  nextCapacityStep,
} from '../../shared/capacity/search.ts';
import type { RunResult } from '../../shared/model/result.ts';
import type { Scenario } from '../../shared/model/scenario.ts';
import { machineWaitText } from '../../shared/format/capacity-text.ts';
import { knee, stepResult } from '../helpers/capacity-results.ts';
import { FakeEngine } from '../helpers/fake-engine.ts';
import { runWith } from '../helpers/jobs.ts';
import { machineFacts } from '../helpers/machine-results.ts';
import { sampleFixture } from '../helpers/run-result.ts';

const goal = { p99Ms: 10, errorPercent: 1 };

/** A step measured while two `yes` took the machine. */
const busy = (r: RunResult): RunResult => ({
  ...r,
  machine: machineFacts({
    cpuBusyPercent: 100,
    cpuIdlePercent: 0,
    otherCpuPercent: 180,
    otherProcesses: [{ name: 'yes', pid: 4242, cpuPercent: 90 }],
  }),
});

const rateOf = (s: Scenario): number => (s.load.model === 'open' ? s.load.rate : 0);

const plan = capacityPlanSchema.parse({
  name: 'busy machine',
  targets: [{ name: 'nginx', url: 'http://127.0.0.1:1/' }],
  search: { goal: { p99Ms: 10 }, startRate: 100, stepSeconds: 2, warmupSeconds: 0.5 },
});

const calm =
  (outcome: boolean): (() => Promise<CalmOutcome>) =>
  () =>
    Promise.resolve({
      calm: outcome,
      waitedSeconds: outcome ? 3 : calmBound(plan.search),
      otherPercent: 2,
      busiest: [],
    });

describe('a capacity step on a busy machine', () => {
  it('is the machine’s when it did not hold, what it would have broken said; a held one stands', () => {
    const broke = judgeStep(busy(stepResult(400, { p99: 80 })), goal);
    expect(broke.kind).toBe('machine-busy');
    expect(broke.kind === 'machine-busy' && broke.broke).toEqual(['p99 80 ms']);
    expect(broke.kind === 'machine-busy' && broke.reason).toBe(
      'other processes took 90% of its 2 cores (yes (pid 4242) 90.0%)',
    );
    expect(judgeStep(busy(stepResult(400, { p99: 2 })), goal)).toEqual({ kind: 'held' });
  });

  it('is measured again after a wait, and after MACHINE_BUSY_TRIES the answer says no quiet step could be had', () => {
    const search = plan.search;
    const machineBusy = {
      kind: 'machine-busy' as const,
      reason: 'other processes took 90% of its 2 cores',
      broke: ['p99 80.0 ms'],
    };
    const steps = [
      { rate: 100, judgement: { kind: 'held' as const } },
      { rate: 200, judgement: machineBusy },
    ];
    expect(nextCapacityStep(search, steps)).toEqual({
      kind: 'step',
      rate: 200,
      phase: 'doubling',
      afterBusy: true,
    });
    for (let i = 1; i < MACHINE_BUSY_TRIES; i++) steps.push({ rate: 200, judgement: machineBusy });
    const done = nextCapacityStep(search, steps);
    expect(done.kind === 'done' && done.answer).toEqual({
      stop: 'machine-busy',
      heldRate: 100,
      limitRate: 200,
      exact: false,
      message:
        "at least 100 req/s at p99 < 10 ms; 200 req/s was measured only while the machine was busy, so not the server's (other processes took 90% of its 2 cores); no quiet step could be had",
    });
    expect(done.kind === 'done' && answerShort(done.answer)).toBe(
      'at least 100 req/s (the machine was busy at 200 req/s)',
    );
  });
});

describe('the capacity runner on a busy machine (fake engine)', () => {
  it('waits for calm before measuring a busy step again, and finds the server’s answer once calm', async () => {
    // The server holds up to 300 req/s; the first two steps at 400 and above ran beside hogs.
    let busySteps = 2;
    const engine = new FakeEngine({
      answer: (s) => {
        const r = knee(300)(rateOf(s));
        return rateOf(s) >= 400 && busySteps-- > 0 ? busy(r) : r;
      },
      hold: () => false,
      samples: () => [sampleFixture()],
      cancelled: (s) => stepResult(rateOf(s), {}, { status: 'cancelled' }),
    });
    const waits: number[] = [];
    const { events, results, status } = await runWith(capacityRunner, plan, engine, {
      context: {
        waitForCalm: (opts) => {
          waits.push(opts.maxSeconds);
          return calm(true)();
        },
      },
    });
    expect(status).toBe('completed');
    // 400 broke on a busy machine twice: each time a wait of up to 4 steps' time (2.5 s each), then 400 again.
    expect(engine.started.map(rateOf).slice(0, 6)).toEqual([100, 200, 400, 400, 400, 400]);
    expect(waits).toEqual([10, 10]);
    const said = events.flatMap((e) =>
      e.type === 'progress' && (e.progress.type === 'machine-wait' || e.progress.type === 'machine-calm')
        ? [machineWaitText(e.progress)]
        : [],
    );
    expect(said.slice(0, 2)).toEqual([
      'the machine was busy at 400 req/s: waiting up to 10 s for it to calm before measuring it again',
      'the machine calmed after 3 s: measuring again',
    ]);
    const [report] = capacityReports(plan, results, null);
    expect(report!.answer).toMatchObject({ stop: 'converged', heldRate: 300 });
    // The busy steps are in the report, marked as not the server's; none counted as a break.
    expect(report!.steps.filter((s) => s.judgement.kind === 'machine-busy')).toHaveLength(2);
  });

  it('says its answer is not the server’s when the machine stays busy', async () => {
    const engine = new FakeEngine({
      answer: (s) => (rateOf(s) >= 400 ? busy(knee(300)(rateOf(s))) : knee(300)(rateOf(s))),
      hold: () => false,
      samples: () => [sampleFixture()],
      cancelled: (s) => stepResult(rateOf(s), {}, { status: 'cancelled' }),
    });
    const { results } = await runWith(capacityRunner, plan, engine, {
      context: { waitForCalm: calm(false) },
    });
    const [report] = capacityReports(plan, results, null);
    expect(report!.answer?.stop).toBe('machine-busy');
    expect(report!.answer?.message).toMatch(
      /400 req\/s was measured only while the machine was busy, so not the server's/,
    );
    expect(engine.started.map(rateOf)).toEqual([100, 200, 400, 400, 400]);
  });
});
