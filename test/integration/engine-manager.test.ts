import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RunEvent } from '../../shared/contract/api.ts';
import type { RunResult } from '../../shared/model/result.ts';
import { scenarioSchema, type ScenarioInput } from '../../shared/model/scenario.ts';
import type { JobHandle } from '../../electron/engine/job-table.ts';
import { RunManager } from '../../electron/engine/manager.ts';
import { handlers, startHttpServer, type TestServer } from '../helpers/servers.ts';

type Run = JobHandle<RunEvent, RunResult[]>;

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(): Promise<TestServer> {
  const s = await startHttpServer(handlers.ok());
  servers.push(s);
  return s;
}

/**
 * Resolves ms after the run's first sample arrived, i.e. that long into its load however long
 * the worker took to start. Resolves with a function giving the most the run's own clock can
 * read now: the host time since the first target started (the run's clock starts later, in
 * the worker). A bound from the sample's arrival would be too tight: the sample is older than
 * its arrival by the time it spent in the message queue.
 */
function loadFor(run: Run, ms: number): Promise<() => number> {
  return new Promise((resolve) => {
    let startedAt = performance.now();
    const off = run.events((e) => {
      if (e.type === 'target-started' && e.targetIndex === 0) startedAt = performance.now();
      if (e.type !== 'sample' && e.type !== 'done') return;
      off();
      const bound = () => (performance.now() - startedAt) / 1000;
      setTimeout(() => resolve(bound), e.type === 'sample' ? ms : 0);
    });
  });
}

/** The run's events as they come (subscribing starts it). */
function record(run: Run): RunEvent[] {
  const events: RunEvent[] = [];
  run.events((e) => events.push(e));
  return events;
}

const scenario = (input: ScenarioInput) => scenarioSchema.parse(input);

describe('RunManager', () => {
  it("runs targets one after another and reports each on the run's handle", async () => {
    const [a, b] = [await serve(), await serve()];
    const manager = new RunManager({ appVersion: '1.2.3' });
    const run = manager.start(
      scenario({
        name: 'two servers',
        targets: [{ url: a.url }, { url: b.url, name: 'second' }],
        load: { model: 'closed', connections: 2, limit: { kind: 'requests', count: 200 } },
        options: { sampleIntervalMs: 100 },
      }),
    );
    const runId = run.id;
    const events = record(run);
    expect(manager.activeRunIds()).toEqual([runId]);
    const results = await run.done;

    expect(results.map((r) => r.requests.total)).toEqual([200, 200]);
    expect(results.map((r) => r.target.url)).toEqual([a.url, b.url]);
    expect(results.every((r) => r.runId === runId && r.scenarioName === 'two servers')).toBe(true);
    expect(results[0]!.generator.appVersion).toBe('1.2.3');
    expect([a.requests, b.requests]).toEqual([201, 201]);

    // Readings of the server (the test's own process, watched by 'auto') come beside the samples.
    const order = events
      .filter((e) => e.type !== 'sample' && e.type !== 'server-sample')
      .map((e) => `${e.type}${'targetIndex' in e ? e.targetIndex : ''}`);
    expect(order).toEqual([
      'started',
      'target-started0',
      'target-done0',
      'target-started1',
      'target-done1',
      'done',
    ]);
    expect(events.every((e) => e.runId === runId)).toBe(true);
    const started = events[0];
    expect(started).toEqual({ type: 'started', runId, targetCount: 2 });
    const done = events.at(-1);
    expect(done?.type === 'done' && done.status).toBe('completed');
    expect(done?.type === 'done' && done.results).toEqual(results);

    // Samples belong to the target running at the time, and arrive between its start and done.
    const samples0 = events.filter((e) => e.type === 'sample' && e.targetIndex === 0);
    expect(samples0.length).toBeGreaterThan(0);
    const firstSample1 = events.findIndex((e) => e.type === 'sample' && e.targetIndex === 1);
    const targetDone0 = events.findIndex((e) => e.type === 'target-done' && e.targetIndex === 0);
    if (firstSample1 >= 0) expect(firstSample1).toBeGreaterThan(targetDone0);
    expect(manager.activeRunIds()).toEqual([]);
  });

  it('stop() cancels the running target, skips the rest and resolves after done', async () => {
    const [a, b] = [await serve(), await serve()];
    const manager = new RunManager({ appVersion: '0' });
    const run = manager.start(
      scenario({
        targets: [{ url: a.url }, { url: b.url }],
        load: { model: 'closed', connections: 2, limit: { kind: 'duration', seconds: 10 } },
        options: { sampleIntervalMs: 200 },
      }),
    );
    const runId = run.id;
    const events = record(run);
    const elapsedBound = await loadFor(run, 800);
    expect(await manager.stop(runId)).toBe(true);
    const bound = elapsedBound();
    const done = events.at(-1);
    expect(done?.type).toBe('done');
    expect(done?.type === 'done' && done.status).toBe('cancelled');
    const results = await run.done;
    expect(results).toHaveLength(1);
    expect(results[0]!.status).toBe('cancelled');
    expect(results[0]!.requests.total).toBeGreaterThan(0);
    // Cut short of its 10 s: measured until the stop, not past the moment it returned.
    expect(results[0]!.durationSeconds).toBeGreaterThan(0.8);
    expect(results[0]!.durationSeconds).toBeLessThanOrEqual(bound);
    expect(b.requests).toBe(0);
    expect(manager.activeRunIds()).toEqual([]);
    // Stopping a finished run is harmless; an unknown one is reported.
    expect(await manager.stop(runId)).toBe(true);
    expect(await manager.stop('no-such-run')).toBe(false);
  });

  it('stopAll() stops every active run', async () => {
    const s = await serve();
    const manager = new RunManager({ appVersion: '0' });
    const input = scenario({
      targets: [{ url: s.url }],
      load: { model: 'closed', connections: 1, limit: { kind: 'duration', seconds: 10 } },
    });
    const runs = [manager.start(input), manager.start(input)];
    await Promise.all(runs.map((run) => loadFor(run, 300)));
    await manager.stopAll();
    expect(manager.activeRunIds()).toEqual([]);
    for (const run of runs) {
      const [result] = await run.done;
      expect(result?.status).toBe('cancelled');
    }
  });

  it('a target whose body file cannot be read fails on its own, naming the field', async () => {
    const s = await serve();
    const manager = new RunManager({ appVersion: '0' });
    const run = manager.start(
      scenario({
        targets: [
          { url: s.url, method: 'POST', body: { kind: 'file', path: '/nonexistent/body.json' } },
          { url: s.url },
        ],
        load: { model: 'closed', connections: 1, limit: { kind: 'requests', count: 10 } },
      }),
    );
    const events = record(run);
    const results = await run.done;
    expect(results[0]!.status).toBe('failed');
    expect(results[0]!.error).toEqual({
      kind: 'other',
      message: 'targets.0.body.path: /nonexistent/body.json does not exist',
    });
    expect(results[1]!.requests.total).toBe(10);
    const done = events.at(-1);
    expect(done?.type === 'done' && done.status).toBe('completed');
  });

  it('a run whose every target fails is failed; a throwing listener harms nobody', async () => {
    const manager = new RunManager({ appVersion: '0' });
    const run = manager.start(scenario({ targets: [{ url: 'http://trebuchet-test.invalid/' }] }));
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    run.events(() => {
      throw new Error('listener bug');
    });
    const events = record(run);
    const [result] = await run.done;
    expect(logged).toHaveBeenCalledWith('trebuchet: a run event listener failed:', new Error('listener bug'));
    logged.mockRestore();
    expect(result?.error?.kind).toBe('dns');
    const done = events.at(-1);
    expect(done?.type === 'done' && done.status).toBe('failed');
  });
});
