import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HistorySaver } from '../../electron/jobs/history-saver.ts';
import { JobRegistry } from '../../electron/jobs/registry.ts';
import type { TargetChecker } from '../../electron/jobs/runner.ts';
import { openStores, type Stores } from '../../electron/stores/index.ts';
import type { JobEnvelope } from '../../shared/contract/jobs.ts';
import { comparisonPlanSchema } from '../../shared/comparison/plan.ts';
import { scenarioSchema } from '../../shared/model/scenario.ts';
import type { HistorySummary, HistoryRecordDraft } from '../../shared/records/history.ts';
import { resultWith } from '../helpers/comparison-results.ts';
import { FakeEngine } from '../helpers/fake-engine.ts';
import { passes } from '../helpers/jobs.ts';
import { sampleFixture } from '../helpers/run-result.ts';

/*
 * The host's one registry of jobs (electron/jobs/registry.ts), for every kind: owners, the
 * reply before the first event, the replay, history saved once before 'done', stop.
 */

const scenario = scenarioSchema.parse({ name: 'nginx static', targets: [{ url: 'http://127.0.0.1:8080/' }] });
const plan = comparisonPlanSchema.parse({
  name: 'nginx vs apache',
  targets: [
    { name: 'nginx', urls: { http: 'http://127.0.0.1:8081/' } },
    { name: 'apache', urls: { http: 'http://127.0.0.1:8082/' } },
  ],
  load: { model: 'closed', connections: 10, limit: { kind: 'duration', seconds: 1 } },
  levels: [10, 20],
  repetitions: 2,
});

let dataDir: string;
let stores: Stores;
beforeEach(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'trebuchet-registry-'));
  stores = await openStores({ dataDir });
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

/** A registry on a fake engine, saving in this test's history store (or in `history`). */
function registryOf(opts: { history?: HistorySaver; checkTarget?: TargetChecker } = {}) {
  const engine = new FakeEngine();
  const saver = opts.history ?? new HistorySaver({ history: stores.history, appVersion: '2.0.0' });
  const registry = new JobRegistry({
    history: saver,
    context: { appVersion: '2.0.0', startTarget: engine.start, checkTarget: opts.checkTarget ?? passes },
  });
  const sinks = (owner: string): JobEnvelope[] => {
    const seen: JobEnvelope[] = [];
    registry.attach(owner, (e) => seen.push(e));
    return seen;
  };
  return { engine, saver, registry, sinks };
}

const types = (seen: JobEnvelope[]) =>
  seen.map(({ event: e }) => (e.type === 'progress' ? e.progress.type : e.type));

describe('job registry', () => {
  it('begins a comparison only once begun (after the reply), routes it to the owner, saves it before done', async () => {
    let checked = 0;
    const { engine, saver, registry, sinks } = registryOf({
      checkTarget: () => {
        checked++;
        return Promise.resolve({ ok: true });
      },
    });
    const a = sinks('a');
    const b = sinks('b');
    const job = registry.start({ kind: 'comparison', plan }, 'a');
    // Until then nothing runs: no event, no pre-flight, no engine run.
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect([a.length, checked, engine.started.length]).toEqual([0, 0, 0]);
    job.begin();
    expect(a.map((e) => e.event)).toEqual([
      { type: 'progress', progress: { type: 'started', cellCount: 8 } },
      { type: 'progress', progress: { type: 'preflight', checks: expect.any(Array) as unknown } },
    ]);
    await expect.poll(() => engine.started.length).toBe(1);
    engine.begin(0);
    engine.finish(0, resultWith({ rps: 500 }));
    await expect.poll(() => types(a).at(-1)).toBe('result');
    expect(await registry.stop(job.id, 'b')).toBe(false);
    expect(registry.idsOf('a')).toEqual([job.id]);
    expect(await registry.stop(job.id, 'a')).toBe(true);
    await saver.idle();
    await expect.poll(() => types(a).at(-1)).toBe('done');
    const done = a.at(-1)!.event;
    if (done.type !== 'done' || !done.historyId) throw new Error('no history id');
    expect(done.status).toBe('cancelled');
    expect(b).toEqual([]);
    expect(registry.idsOf('a')).toEqual([]);
    expect(a.map((e) => e.n)).toEqual(a.map((_, i) => i));

    const record = await stores.history.get(done.historyId);
    expect(record.kind).toBe('comparison');
    expect(record.appVersion).toBe('2.0.0');
    expect(
      record.kind === 'comparison' && record.outcomes.map((o) => o.result.throughput.requestsPerSecond),
    ).toEqual([500]);
    await registry.close();
  });

  it('keeps nothing in history of a comparison that ran no cell (its pre-flight failed), and says no save', async () => {
    const { saver, registry, sinks } = registryOf({
      checkTarget: () =>
        Promise.resolve({ ok: false, kind: 'tls', message: 'certificate is self-signed', fixes: [] }),
    });
    const seen = sinks('a');
    registry.start({ kind: 'comparison', plan }, 'a').begin();
    await expect.poll(() => types(seen).at(-1)).toBe('done');
    await saver.idle();
    expect(types(seen)).toEqual(['started', 'preflight', 'preflight-failed', 'done']);
    expect(seen.at(-1)!.event).toEqual({ type: 'done', status: 'failed' });
    expect(registry.idsOf('a')).toEqual([]);
    expect((await stores.history.list()).map((r) => r.kind)).toEqual([]);
    await registry.close();
  });

  it("hands a reloaded page its comparison: every event, each cell's samples included", async () => {
    const { engine, registry } = registryOf();
    const job = registry.start({ kind: 'comparison', plan }, 'a');
    job.begin();
    await expect.poll(() => engine.started.length).toBe(1);
    engine.begin(0);
    for (const rps of [100, 200, 300])
      engine.sample(0, sampleFixture({ seq: rps / 100, requestsPerSecond: rps }));
    const [active] = registry.activeOf('a');
    expect(active!.jobId).toBe(job.id);
    expect(active!.kind === 'comparison' && active!.plan.name).toBe('nginx vs apache');
    expect(types(active!.events)).toEqual([
      'started',
      'preflight',
      'part-started',
      'sample',
      'sample',
      'sample',
    ]);
    const last = active!.events.at(-1)!.event;
    expect(last.type === 'sample' && last.source === 'engine' && last.sample.requestsPerSecond).toBe(300);
    expect(registry.activeOf('b')).toEqual([]);
    expect(registry.activeOf('a', 'run')).toEqual([]);

    engine.finish(0, resultWith({ rps: 250 }));
    await expect.poll(() => types(registry.activeOf('a')[0]!.events).at(-1)).toBe('result');
    // The finished cell's samples stay: its result travels without them.
    expect(types(registry.activeOf('a')[0]!.events).filter((t) => t === 'sample')).toHaveLength(3);
    await registry.close();
  });

  it('stops the jobs of a page that went away and saves them as cancelled', async () => {
    const { engine, registry } = registryOf();
    registry.start({ kind: 'comparison', plan }, 'gone').begin();
    await expect.poll(() => engine.started.length).toBe(1);
    engine.begin(0);
    await registry.stopOwned('gone');
    expect(engine.stopped).toEqual([0]);
    const runs = await stores.history.list();
    expect(runs.map((r) => [r.kind, r.status, r.name])).toEqual([
      ['comparison', 'cancelled', 'nginx vs apache'],
    ]);
    await registry.close();
  });

  it('passes done on with the save error when the store cannot write, and no job it did not start', async () => {
    const failing = {
      save: (_d: HistoryRecordDraft): Promise<HistorySummary> => Promise.reject(new Error('disk full')),
    };
    const history = new HistorySaver({ history: failing, appVersion: '1' });
    const { engine, registry, sinks } = registryOf({ history });
    const seen = sinks('a');
    const mine = registry.start({ kind: 'run', plan: scenario }, 'a');
    mine.begin();
    // A job of another owner on the same engine.
    registry.start({ kind: 'run', plan: scenario }, 'b').begin();
    engine.begin(1);
    engine.finish(1, resultWith({ rps: 1 }));
    const errors: unknown[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => errors.push(args);
    try {
      engine.begin(0);
      engine.finish(0, resultWith({ rps: 2 }));
      await expect.poll(() => types(seen).at(-1)).toBe('done');
      await history.idle();
    } finally {
      console.error = original;
    }
    expect(seen.every((e) => e.jobId === mine.id)).toBe(true);
    expect(seen.at(-1)!.event).toEqual({
      type: 'done',
      status: 'completed',
      historyError: 'The run could not be saved in history: disk full',
    });
    expect(errors).toHaveLength(2);
    await registry.close();
  });

  it('stops a job asked to stop before it began, as soon as it begins', async () => {
    const { engine, registry, sinks } = registryOf();
    const seen = sinks('a');
    const job = registry.start({ kind: 'run', plan: scenario }, 'a');
    expect(await registry.stop(job.id, 'a')).toBe(true);
    job.begin();
    await expect.poll(() => types(seen).at(-1)).toBe('done');
    expect(engine.stopped).toEqual([0]);
    expect(seen.at(-1)!.event).toEqual({ type: 'done', status: 'cancelled' });
    await registry.close();
  });
});
