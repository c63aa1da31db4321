import { describe, expect, it } from 'vitest';
import { comparisonRunner } from '../../electron/jobs/comparison.ts';
import { jobEnvelopeSchema } from '../../shared/contract/jobs.ts';
import { comparisonPlanSchema } from '../../shared/comparison/plan.ts';
import { aggregateComparison } from '../../shared/comparison/table.ts';
import { resultWith } from '../helpers/comparison-results.ts';
import { FakeEngine } from '../helpers/fake-engine.ts';
import { runWith } from '../helpers/jobs.ts';

const plan = comparisonPlanSchema.parse({
  targets: [
    { name: 'a', urls: { http: 'http://127.0.0.1:1/' } },
    { name: 'b', urls: { http: 'http://127.0.0.1:2/' } },
  ],
  load: { model: 'open', durationSeconds: 1 },
  levels: [10, 20],
  repetitions: 1,
});

describe('comparison runner (fake engine)', () => {
  it('hands each cell scenario to the engine in order and aggregates the results', async () => {
    const engine = new FakeEngine({
      answer: (s) => resultWith({ rps: s.load.model === 'open' ? s.load.rate : 0, url: s.targets[0]!.url }),
    });
    const { events, results, status } = await runWith(comparisonRunner, plan, engine);
    expect(
      engine.started.map((s) => `${s.targets[0]!.url}@${s.load.model === 'open' ? s.load.rate : ''}`),
    ).toEqual([
      'http://127.0.0.1:1/@10',
      'http://127.0.0.1:2/@10',
      'http://127.0.0.1:1/@20',
      'http://127.0.0.1:2/@20',
    ]);
    expect(status).toBe('completed');
    expect(aggregateComparison(plan, results).cells.map((c) => c.figures.rps!.mean)).toEqual([
      10, 10, 20, 20,
    ]);
    // Each cell: its start (once its load began), then its result, under the cell's index.
    expect(
      events.flatMap((e) =>
        e.type === 'progress' && e.progress.type === 'part-started'
          ? [`start ${e.progress.part}`]
          : e.type === 'result'
            ? [`result ${e.part}`]
            : [],
      ),
    ).toEqual(['start 0', 'result 0', 'start 1', 'result 1', 'start 2', 'result 2', 'start 3', 'result 3']);
    // Each cell's run has an id of its own (the matrix finds a run's cell by it).
    expect(new Set(engine.runIds).size).toBe(4);
  });

  it('reports a cell the host could not run and carries on', async () => {
    const engine = new FakeEngine({
      answer: (_s, n) => (n === 1 ? new Error('worker crashed') : resultWith({ rps: 5 })),
    });
    const { events, results, status } = await runWith(comparisonRunner, plan, engine);
    expect(events.filter((e) => e.type === 'error')).toEqual([
      { type: 'error', part: 1, message: 'worker crashed' },
    ]);
    expect(results.map((o) => o.cellIndex)).toEqual([0, 2, 3]);
    expect(status).toBe('completed');
  });

  it('is failed when every cell failed', async () => {
    const engine = new FakeEngine({ answer: () => resultWith({ rps: 0, status: 'failed', total: 0 }) });
    const { results, status } = await runWith(comparisonRunner, plan, engine);
    expect(status).toBe('failed');
    expect(aggregateComparison(plan, results).cells[0]!.failures).toEqual(['connection refused']);
  });

  it('stops during the pause between cells', async () => {
    const engine = new FakeEngine({ answer: () => resultWith({ rps: 1 }) });
    // A 60 s pause that stop() did not cut short would outlast the test's timeout.
    const { results, status } = await runWith(comparisonRunner, { ...plan, pauseSeconds: 60 }, engine, {
      onEvent: (e, stop) => {
        if (e.type === 'progress' && e.progress.type === 'pause') stop();
      },
    });
    expect(status).toBe('cancelled');
    expect(results).toHaveLength(1);
    expect(engine.started).toHaveLength(1);
  });

  it('checks every distinct URL once before the first cell, then runs the matrix', async () => {
    const checked: string[] = [];
    const engine = new FakeEngine({ answer: () => resultWith({ rps: 1 }) });
    const twice = comparisonPlanSchema.parse({
      ...plan,
      targets: [...plan.targets, { name: 'a again', urls: { http: 'http://127.0.0.1:1/' } }],
      repetitions: 2,
    });
    const { events } = await runWith(comparisonRunner, twice, engine, {
      checkTarget: (s) => {
        // No cell may start before every check answered.
        expect(engine.started).toHaveLength(0);
        checked.push(`${s.targets[0]!.url} ${s.options.protocol}`);
        return Promise.resolve({ ok: true });
      },
    });
    expect(checked).toEqual(['http://127.0.0.1:1/ http1.1', 'http://127.0.0.1:2/ http1.1']);
    expect(events.find((e) => e.type === 'progress' && e.progress.type === 'preflight')).toEqual({
      type: 'progress',
      progress: {
        type: 'preflight',
        checks: [
          { url: 'http://127.0.0.1:1/', protocol: 'http1.1', targets: ['a', 'a again'] },
          { url: 'http://127.0.0.1:2/', protocol: 'http1.1', targets: ['b'] },
        ],
      },
    });
    expect(engine.started).toHaveLength(12);
    expect(events.some((e) => e.type === 'progress' && e.progress.type === 'preflight-failed')).toBe(false);
  });

  it('stops before any load when a URL fails the check, saying why and what would fix it', async () => {
    const engine = new FakeEngine({ answer: () => resultWith({ rps: 1 }) });
    const { events, results, status } = await runWith(comparisonRunner, plan, engine, {
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
    expect(engine.started).toHaveLength(0);
    expect(status).toBe('failed');
    expect(results).toEqual([]);
    expect(events.map((e) => (e.type === 'progress' ? e.progress.type : e.type))).toEqual([
      'started',
      'preflight',
      'preflight-failed',
    ]);
    const failed = events.find((e) => e.type === 'progress' && e.progress.type === 'preflight-failed');
    // What crosses to the UI validates against the contract's schema.
    expect(jobEnvelopeSchema.parse({ jobId: 'cmp-1', kind: 'comparison', n: 2, event: failed })).toEqual({
      jobId: 'cmp-1',
      kind: 'comparison',
      n: 2,
      event: { type: 'progress', progress: { type: 'preflight-failed', failures } },
    });
  });

  it('is cancelled when stopped during the check', async () => {
    const engine = new FakeEngine({ answer: () => resultWith({ rps: 1 }) });
    let stopJob: () => void = () => undefined;
    const { status, events } = await runWith(comparisonRunner, plan, engine, {
      checkTarget: (_s, signal) =>
        new Promise((resolve) => {
          const stopped = () =>
            resolve({ ok: false, kind: 'other', message: 'stopped before the load began', fixes: [] });
          if (signal.aborted) stopped();
          signal.addEventListener('abort', stopped);
          stopJob();
        }),
      onEvent: (e, stop) => {
        if (e.type === 'progress' && e.progress.type === 'started') stopJob = stop;
      },
    });
    expect(status).toBe('cancelled');
    expect(events.some((e) => e.type === 'progress' && e.progress.type === 'preflight-failed')).toBe(false);
    expect(engine.started).toHaveLength(0);
  });
});
