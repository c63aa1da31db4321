import { describe, expect, it } from 'vitest';
import {
  ComparisonRunner,
  type RunManagerLike,
  type TargetChecker,
} from '../../electron/services/comparison-runner.ts';
import { comparisonEventSchema, type ComparisonEvent } from '../../shared/comparison/cells.ts';
import { comparisonPlanSchema, type ComparisonPlan } from '../../shared/comparison/plan.ts';
import type { RunResult } from '../../shared/model/result.ts';
import type { Scenario } from '../../shared/model/scenario.ts';
import { resultWith } from '../helpers/comparison-results.ts';

/** A RunManager stand-in: each run answers, once subscribed to, with what answer() returns for it. */
function fakeManager(
  answer: (scenario: Scenario, n: number) => RunResult[] | Error,
): RunManagerLike & { started: Scenario[] } {
  const started: Scenario[] = [];
  return {
    started,
    start(scenario) {
      const id = `run-${started.length}`;
      const a = answer(scenario, started.length);
      started.push(scenario);
      return {
        id,
        events: () => () => undefined,
        done: a instanceof Error ? Promise.reject(a) : Promise.resolve(a),
      };
    },
    stop: () => Promise.resolve(true),
  };
}

const plan = comparisonPlanSchema.parse({
  targets: [
    { name: 'a', urls: { http: 'http://127.0.0.1:1/' } },
    { name: 'b', urls: { http: 'http://127.0.0.1:2/' } },
  ],
  load: { model: 'open', durationSeconds: 1 },
  levels: [10, 20],
  repetitions: 1,
});

/** A pre-flight stand-in that passes every URL. */
const passes: TargetChecker = () => Promise.resolve({ ok: true });

/** Starts the plan's comparison, records its events, and resolves with them and its outcome. */
async function run(
  runner: ComparisonRunner,
  p: ComparisonPlan,
  onEvent: (e: ComparisonEvent, id: string) => void = () => undefined,
) {
  const events: ComparisonEvent[] = [];
  const comparison = runner.start(p);
  comparison.events((e) => {
    events.push(e);
    onEvent(e, comparison.id);
  });
  return { events, out: await comparison.done };
}

describe('comparison runner (fake engine)', () => {
  it('hands each cell scenario to the engine in order and aggregates the results', async () => {
    const manager = fakeManager((s) => [
      resultWith({ rps: s.load.model === 'open' ? s.load.rate : 0, url: s.targets[0]!.url }),
    ]);
    const runner = new ComparisonRunner({ manager, checkTarget: passes });
    const { out } = await run(runner, plan);
    expect(
      manager.started.map((s) => `${s.targets[0]!.url}@${s.load.model === 'open' ? s.load.rate : ''}`),
    ).toEqual([
      'http://127.0.0.1:1/@10',
      'http://127.0.0.1:2/@10',
      'http://127.0.0.1:1/@20',
      'http://127.0.0.1:2/@20',
    ]);
    expect(out.status).toBe('completed');
    expect(out.table.cells.map((c) => c.figures.rps!.mean)).toEqual([10, 10, 20, 20]);
  });

  it('reports a cell the host could not run and carries on', async () => {
    const manager = fakeManager((_s, n) =>
      n === 1 ? new Error('worker crashed') : [resultWith({ rps: 5 })],
    );
    const runner = new ComparisonRunner({ manager, checkTarget: passes });
    const { events, out } = await run(runner, plan);
    expect(events.filter((e) => e.type === 'error')).toEqual([
      { type: 'error', comparisonId: out.comparisonId, cellIndex: 1, message: 'worker crashed' },
    ]);
    expect(out.outcomes.map((o) => o.cellIndex)).toEqual([0, 2, 3]);
    expect(out.status).toBe('completed');
  });

  it('is failed when every cell failed', async () => {
    const runner = new ComparisonRunner({
      manager: fakeManager(() => [resultWith({ rps: 0, status: 'failed', total: 0 })]),
      checkTarget: passes,
    });
    const { out } = await run(runner, plan);
    expect(out.status).toBe('failed');
    expect(out.table.cells[0]!.failures).toEqual(['connection refused']);
  });

  it('stops during the pause between cells', async () => {
    const manager = fakeManager(() => [resultWith({ rps: 1 })]);
    const runner = new ComparisonRunner({ manager, checkTarget: passes });
    // A 60 s pause that stop() did not cut short would outlast the test's timeout.
    const { out } = await run(runner, { ...plan, pauseSeconds: 60 }, (e, id) => {
      if (e.type === 'pause') void runner.stop(id);
    });
    expect(out.status).toBe('cancelled');
    expect(out.outcomes).toHaveLength(1);
    expect(manager.started).toHaveLength(1);
  });

  it('checks every distinct URL once before the first cell, then runs the matrix', async () => {
    const checked: string[] = [];
    const manager = fakeManager(() => [resultWith({ rps: 1 })]);
    const twice = comparisonPlanSchema.parse({
      ...plan,
      targets: [...plan.targets, { name: 'a again', urls: { http: 'http://127.0.0.1:1/' } }],
      repetitions: 2,
    });
    const runner = new ComparisonRunner({
      manager,
      checkTarget: (s) => {
        // No cell may start before every check answered.
        expect(manager.started).toHaveLength(0);
        checked.push(`${s.targets[0]!.url} ${s.options.protocol}`);
        return Promise.resolve({ ok: true });
      },
    });
    const { events, out } = await run(runner, twice);
    expect(checked).toEqual(['http://127.0.0.1:1/ http1.1', 'http://127.0.0.1:2/ http1.1']);
    expect(events.find((e) => e.type === 'preflight')).toEqual({
      type: 'preflight',
      comparisonId: out.comparisonId,
      checks: [
        { url: 'http://127.0.0.1:1/', protocol: 'http1.1', targets: ['a', 'a again'] },
        { url: 'http://127.0.0.1:2/', protocol: 'http1.1', targets: ['b'] },
      ],
    });
    expect(manager.started).toHaveLength(12);
    expect(out.preflightFailures).toEqual([]);
  });

  it('stops before any load when a URL fails the check, saying why and what would fix it', async () => {
    const manager = fakeManager(() => [resultWith({ rps: 1 })]);
    const runner = new ComparisonRunner({
      manager,
      checkTarget: (s) =>
        Promise.resolve(
          s.targets[0]!.url.endsWith(':2/')
            ? {
                ok: false,
                kind: 'tls',
                message: 'certificate is self-signed (DEPTH_ZERO_SELF_SIGNED_CERT) for https://127.0.0.1:2/',
                fixes: ['turn-off-verification', 'choose-ca-file'],
              }
            : { ok: true },
        ),
    });
    const { events, out } = await run(runner, plan);
    const failures = [
      {
        url: 'http://127.0.0.1:2/',
        protocol: 'http1.1',
        targets: ['b'],
        kind: 'tls',
        message: 'certificate is self-signed (DEPTH_ZERO_SELF_SIGNED_CERT) for https://127.0.0.1:2/',
        fixes: ['turn-off-verification', 'choose-ca-file'],
      },
    ];
    expect(manager.started).toHaveLength(0);
    expect(out).toMatchObject({ status: 'failed', outcomes: [], preflightFailures: failures });
    expect(events.map((e) => e.type)).toEqual(['started', 'preflight', 'preflight-failed', 'done']);
    const failed = events.find((e) => e.type === 'preflight-failed');
    // What crosses to the UI validates against the event schema.
    expect(comparisonEventSchema.parse(failed)).toEqual({
      type: 'preflight-failed',
      comparisonId: out.comparisonId,
      failures,
    });
  });

  it('is cancelled when stopped during the check', async () => {
    const manager = fakeManager(() => [resultWith({ rps: 1 })]);
    let stop: () => void = () => undefined;
    const runner: ComparisonRunner = new ComparisonRunner({
      manager,
      checkTarget: (_s, signal) =>
        new Promise((resolve) => {
          const stopped = () =>
            resolve({ ok: false, kind: 'other', message: 'stopped before the load began', fixes: [] });
          if (signal.aborted) stopped();
          signal.addEventListener('abort', stopped);
          stop();
        }),
    });
    const { out } = await run(runner, plan, (e, id) => {
      if (e.type === 'started') stop = () => void runner.stop(id);
    });
    expect(out.status).toBe('cancelled');
    expect(out.preflightFailures).toEqual([]);
    expect(manager.started).toHaveLength(0);
  });
});
