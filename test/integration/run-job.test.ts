import { afterEach, describe, expect, it, vi } from 'vitest';
import { checkTarget } from '../../electron/engine/preflight/target-check.ts';
import { HistorySaver } from '../../electron/jobs/history-saver.ts';
import { JobRegistry } from '../../electron/jobs/registry.ts';
import { startTarget } from '../../electron/jobs/target-run.ts';
import type { JobEnvelope } from '../../shared/contract/jobs.ts';
import type { RunResult } from '../../shared/model/result.ts';
import type { HistoryRecordDraft } from '../../shared/records/history.ts';
import { scenarioSchema, type ScenarioInput } from '../../shared/model/scenario.ts';
import { handlers, startHttpServer, type TestServer } from '../helpers/servers.ts';

/*
 * A run job (electron/jobs/run.ts) through the host's registry on the real engine: targets one
 * after another, each in its own worker, its events numbered, stopped on demand, saved once.
 */

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(): Promise<TestServer> {
  const s = await startHttpServer(handlers.ok());
  servers.push(s);
  return s;
}

/** A registry on the engine whose saved records (the results with their samples) the test reads. */
function jobs(appVersion = '0') {
  const saved: HistoryRecordDraft[] = [];
  const history = new HistorySaver({
    appVersion,
    history: {
      save: (draft) => {
        saved.push(draft);
        return Promise.resolve({ id: `h-${saved.length}` } as never);
      },
    },
  });
  const registry = new JobRegistry({
    history,
    context: {
      appVersion,
      startTarget,
      checkTarget: (s, signal) => checkTarget(s, { appVersion, signal }),
    },
  });
  const events: JobEnvelope[] = [];
  registry.attach('me', (e) => events.push(e));
  const resultsOf = (i: number): RunResult[] => {
    const record = saved[i];
    return record?.kind === 'run' ? record.results : [];
  };
  return { registry, events, saved, resultsOf };
}

const scenario = (input: ScenarioInput) => scenarioSchema.parse(input);

/** Resolves once the job's 'done' went out. */
const until = (events: JobEnvelope[], what: (e: JobEnvelope) => boolean) =>
  vi.waitFor(() => {
    if (!events.some(what)) throw new Error('not yet');
  }, 60_000);

/**
 * Resolves ms after the run's first sample arrived, i.e. that long into its load however long
 * the worker took to start, with a function giving the most the run's own clock can read now:
 * the host time since its first target began (the run's clock starts later, in the worker).
 */
async function loadFor(events: JobEnvelope[], ms: number): Promise<() => number> {
  let startedAt = performance.now();
  await until(events, (e) => e.event.type === 'progress' && e.event.progress.type === 'part-started');
  startedAt = performance.now();
  await until(events, (e) => e.event.type === 'sample' && e.event.source === 'engine');
  await new Promise((resolve) => setTimeout(resolve, ms));
  return () => (performance.now() - startedAt) / 1000;
}

const isDone = (e: JobEnvelope) => e.event.type === 'done';

describe('a run job on the engine', () => {
  it('runs targets one after another and reports each under its part, numbered', async () => {
    const [a, b] = [await serve(), await serve()];
    const { registry, events, resultsOf } = jobs('1.2.3');
    const job = registry.start(
      {
        kind: 'run',
        plan: scenario({
          name: 'two servers',
          targets: [{ url: a.url }, { url: b.url, name: 'second' }],
          load: { model: 'closed', connections: 2, limit: { kind: 'requests', count: 200 } },
          options: { sampleIntervalMs: 100 },
        }),
      },
      'me',
    );
    job.begin();
    expect(registry.idsOf('me')).toEqual([job.id]);
    await until(events, isDone);
    const results = resultsOf(0);

    expect(results.map((r) => r.requests.total)).toEqual([200, 200]);
    expect(results.map((r) => r.target.url)).toEqual([a.url, b.url]);
    expect(results.every((r) => r.runId === job.id && r.scenarioName === 'two servers')).toBe(true);
    expect(results[0]!.generator.appVersion).toBe('1.2.3');
    // The run's check of every URL before any load, each target's own pre-flight, its load.
    expect([a.requests, b.requests]).toEqual([202, 202]);

    // Readings of the server (the test's own process, watched by 'auto') come beside the samples.
    const order = events
      .filter((e) => e.event.type !== 'sample')
      .map(({ event: e }) =>
        e.type === 'progress'
          ? `${e.progress.type}${e.progress.type === 'part-started' ? e.progress.part : ''}`
          : `${e.type}${e.type === 'result' ? e.part : ''}`,
      );
    expect(order).toEqual(['started', 'part-started0', 'result0', 'part-started1', 'result1', 'done']);
    expect(events.every((e) => e.jobId === job.id && e.kind === 'run')).toBe(true);
    expect(events.map((e) => e.n)).toEqual(events.map((_, i) => i));
    expect(events[0]!.event).toEqual({ type: 'progress', progress: { type: 'started', targetCount: 2 } });
    expect(events.at(-1)!.event).toEqual({ type: 'done', status: 'completed', historyId: 'h-1' });

    // Samples belong to the target running at the time, and arrive between its start and result.
    const samples0 = events.filter((e) => e.event.type === 'sample' && e.event.part === 0);
    expect(samples0.length).toBeGreaterThan(0);
    const firstSample1 = events.findIndex((e) => e.event.type === 'sample' && e.event.part === 1);
    const result0 = events.findIndex((e) => e.event.type === 'result' && e.event.part === 0);
    if (firstSample1 >= 0) expect(firstSample1).toBeGreaterThan(result0);
    // Each sample went once, live; the result kept in history has them all, the one sent has none.
    const sent = events.flatMap((e) => (e.event.type === 'result' ? [e.event.result] : []));
    expect(sent.map((r) => ('samples' in r ? r.samples.length : -1))).toEqual([0, 0]);
    expect(results[0]!.samples.map((s) => s.seq)).toEqual([
      ...new Set(samples0.map((e) => (e.event.type === 'sample' ? e.event.sample.seq : -1))),
    ]);
    expect(registry.idsOf('me')).toEqual([]);
  });

  it('stop() cancels the running target, skips the rest and resolves after done', async () => {
    const [a, b] = [await serve(), await serve()];
    const { registry, events, resultsOf } = jobs();
    const job = registry.start(
      {
        kind: 'run',
        plan: scenario({
          targets: [{ url: a.url }, { url: b.url }],
          load: { model: 'closed', connections: 2, limit: { kind: 'duration', seconds: 10 } },
          options: { sampleIntervalMs: 200 },
        }),
      },
      'me',
    );
    job.begin();
    const elapsedBound = await loadFor(events, 800);
    expect(await registry.stop(job.id, 'me')).toBe(true);
    const bound = elapsedBound();
    await until(events, isDone);
    expect(events.at(-1)!.event).toMatchObject({ type: 'done', status: 'cancelled' });
    const results = resultsOf(0);
    expect(results).toHaveLength(1);
    expect(results[0]!.status).toBe('cancelled');
    expect(results[0]!.requests.total).toBeGreaterThan(0);
    // Cut short of its 10 s: measured until the stop, not past the moment it returned.
    expect(results[0]!.durationSeconds).toBeGreaterThan(0.8);
    expect(results[0]!.durationSeconds).toBeLessThanOrEqual(bound);
    // Only the run's check before any load: the second target was never run.
    expect(b.requests).toBe(1);
    expect(registry.idsOf('me')).toEqual([]);
    // A finished job is not stopped again; an unknown one neither.
    expect(await registry.stop(job.id, 'me')).toBe(false);
    expect(await registry.stop('no-such-run', 'me')).toBe(false);
  });

  it('close() stops every job', async () => {
    const s = await serve();
    const { registry, events, resultsOf } = jobs();
    const plan = scenario({
      targets: [{ url: s.url }],
      load: { model: 'closed', connections: 1, limit: { kind: 'duration', seconds: 10 } },
    });
    for (let i = 0; i < 2; i++) registry.start({ kind: 'run', plan }, 'me').begin();
    await vi.waitFor(() => {
      if (events.filter((e) => e.event.type === 'sample').length < 2) throw new Error('not yet');
    }, 30_000);
    await registry.close();
    expect(registry.idsOf('me')).toEqual([]);
    for (const i of [0, 1]) expect(resultsOf(i)[0]?.status).toBe('cancelled');
  });

  it('a target whose body file cannot be read fails on its own, naming the field', async () => {
    const s = await serve();
    const { registry, events, resultsOf } = jobs();
    registry
      .start(
        {
          kind: 'run',
          plan: scenario({
            targets: [
              { url: s.url, method: 'POST', body: { kind: 'file', path: '/nonexistent/body.json' } },
              { url: s.url },
            ],
            load: { model: 'closed', connections: 1, limit: { kind: 'requests', count: 10 } },
          }),
        },
        'me',
      )
      .begin();
    await until(events, isDone);
    const results = resultsOf(0);
    expect(results[0]!.status).toBe('failed');
    expect(results[0]!.error).toEqual({
      kind: 'other',
      message: 'targets.0.body.path: /nonexistent/body.json does not exist',
    });
    expect(results[1]!.requests.total).toBe(10);
    expect(events.at(-1)!.event).toMatchObject({ type: 'done', status: 'completed' });
  });

  it('a run whose every target fails is failed; a sink that throws harms nobody', async () => {
    const { registry, resultsOf } = jobs();
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const events: JobEnvelope[] = [];
    registry.attach('me', (e) => {
      events.push(e);
      throw new Error('sink bug');
    });
    registry
      .start({ kind: 'run', plan: scenario({ targets: [{ url: 'http://trebuchet-test.invalid/' }] }) }, 'me')
      .begin();
    await until(events, isDone);
    expect(logged).toHaveBeenCalledWith('trebuchet: could not deliver a run event:', new Error('sink bug'));
    logged.mockRestore();
    expect(resultsOf(0)[0]?.error?.kind).toBe('dns');
    expect(events.at(-1)!.event).toMatchObject({ type: 'done', status: 'failed' });
  });
});
