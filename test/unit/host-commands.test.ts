import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createCommandHandlers,
  dispatchCommand,
  type CommandHandlers,
} from '../../electron/host/commands.ts';
import { ComparisonRegistry } from '../../electron/host/comparison-registry.ts';
import { MAX_REPLAY_SAMPLES, RunRegistry } from '../../electron/host/run-registry.ts';
import { createHostServices, type HostServices } from '../../electron/host/services.ts';
import { HistorySaver } from '../../electron/services/history-saver.ts';
import { openStores, type Stores } from '../../electron/stores/index.ts';
import type { CapacityEvent, CommandName, CommandOutput, RunEvent } from '../../shared/contract/api.ts';
import type { ComparisonEvent, CellOutcome } from '../../shared/comparison/cells.ts';
import { comparisonPlanSchema } from '../../shared/comparison/plan.ts';
import type { HistorySummary, RunRecordDraft } from '../../shared/records/history.ts';
import { LIMITS } from '../../shared/model/defaults.ts';
import { scenarioSchema } from '../../shared/model/scenario.ts';
import { resultWith } from '../helpers/comparison-results.ts';
import { stepResult } from '../helpers/capacity-results.ts';
import { sampleFixture } from '../helpers/run-result.ts';
import { FakeComparisonService, FakeRunService } from '../helpers/fake-run-service.ts';

const scenarioInput = {
  name: 'nginx static',
  targets: [{ url: 'http://127.0.0.1:8080/', headers: [{ name: 'Authorization', value: 'Bearer s3cret' }] }],
};
const planInput = {
  name: 'nginx vs apache',
  targets: [
    { name: 'nginx', urls: { http: 'http://127.0.0.1:8081/' } },
    { name: 'apache', urls: { http: 'http://127.0.0.1:8082/' } },
  ],
  load: { model: 'closed', connections: 10, limit: { kind: 'duration', seconds: 1 } },
  levels: [10, 20],
  repetitions: 2,
};

let dataDir: string;
let stores: Stores;
let engine: FakeRunService;
let services: HostServices;
let handlers: CommandHandlers;

beforeEach(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'trebuchet-commands-'));
  stores = await openStores({ dataDir });
  engine = new FakeRunService();
  // Every URL passes the comparison's pre-flight (its own tests are in comparison-runner.test.ts).
  services = createHostServices({
    engine,
    stores,
    appVersion: '9.8.7',
    checkTarget: () => Promise.resolve({ ok: true }),
  });
  handlers = createCommandHandlers({
    services,
    info: { appVersion: '9.8.7', host: 'web', platform: 'linux' },
  });
});

afterEach(async () => {
  await services.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** Sends a command as a host would (validation included, then the reply "sent") and unwraps its value. */
async function call<K extends CommandName>(command: K, input?: unknown, caller = 'page-a') {
  const { reply, replied } = await dispatchCommand(handlers, command, input, caller);
  replied();
  if (!reply.ok) throw new Error(reply.error);
  return reply.value as CommandOutput<K>;
}

async function callError(command: CommandName, input?: unknown): Promise<string> {
  const { reply, replied } = await dispatchCommand(handlers, command, input, 'page-a');
  replied();
  if (reply.ok) throw new Error(`${command} succeeded, expected an error`);
  return reply.error;
}

describe('presets commands', () => {
  it('lists the six built-in presets first, read-only, and where the presets are kept', async () => {
    const list = await call('presets.list');
    expect(list.presets.map((p) => p.source)).toEqual(Array(6).fill('built-in'));
    expect(list.presets.map((p) => p.id)).toEqual([
      'builtin-seed-000-vegeta-rate',
      expect.stringMatching(/^builtin-seed-001/),
      expect.stringMatching(/^builtin-seed-002/),
      expect.stringMatching(/^builtin-seed-003/),
      expect.stringMatching(/^builtin-seed-004/),
      'builtin-capacity-p99-10ms',
    ]);
    expect(list.presets.at(-1)!.kind).toBe('capacity');
    expect(list.file).toBe(path.join(dataDir, 'presets'));
    expect(list.secretStorage).toBe('plaintext');
    expect(list.problems).toEqual([]);
    const builtIn = list.presets[0]!.id;
    expect(await callError('presets.rename', { id: builtIn, name: 'mine' })).toContain(
      'is a built-in preset',
    );
    expect(await callError('presets.delete', { id: builtIn })).toContain('duplicate it and change the copy');
    const got = await call('presets.get', { id: builtIn });
    expect(got.source).toBe('built-in');
    expect(got.preset.kind).toBe('comparison');
  });

  it('asks before writing a secret header as plain text, then saves with or without it', async () => {
    const draft = { name: 'with token', kind: 'scenario', scenario: scenarioInput };
    const asked = await call('presets.save', { preset: draft });
    expect(asked).toMatchObject({ ok: false, reason: 'secrets-need-consent' });
    if (asked.ok) throw new Error('unreachable');
    expect(asked.message).toContain('Authorization on');
    expect((await call('presets.list')).presets).toHaveLength(6);

    const stored = (id: string) => readFile(path.join(dataDir, 'presets', `${id}.preset.json`), 'utf8');
    const omitted = await call('presets.save', { preset: draft, omitSecrets: true });
    if (!omitted.ok) throw new Error(omitted.message);
    expect(await stored(omitted.preset.id)).not.toContain('s3cret');
    const kept = await call('presets.save', { preset: draft, allowPlaintextSecrets: true });
    if (!kept.ok) throw new Error(kept.message);
    expect(await stored(kept.preset.id)).toContain('Bearer s3cret');

    const list = await call('presets.list');
    expect(list.presets.filter((p) => p.source === 'user').map((p) => [p.name, p.secretCount])).toEqual([
      ['with token', 0],
      ['with token', 1],
    ]);
  });

  it('renames, duplicates (a built-in too), updates and deletes user presets', async () => {
    const saved = await call('presets.save', {
      preset: { name: 'plain', kind: 'scenario', scenario: { targets: [{ url: 'http://127.0.0.1:1/' }] } },
    });
    if (!saved.ok) throw new Error(saved.message);
    const id = saved.preset.id;
    expect((await call('presets.rename', { id, name: '  renamed  ' })).name).toBe('renamed');
    const copy = await call('presets.duplicate', { id: 'builtin-seed-000-vegeta-rate' });
    expect(copy.source).toBe('user');
    expect(copy.name).toMatch(/\(copy\)$/);
    const updated = await call('presets.save', {
      id,
      preset: { name: 'renamed', kind: 'scenario', scenario: { targets: [{ url: 'http://127.0.0.1:2/' }] } },
    });
    if (!updated.ok) throw new Error(updated.message);
    const got = await call('presets.get', { id });
    expect(got.source).toBe('user');
    expect(got.preset.kind === 'scenario' && got.preset.scenario.targets[0]!.url).toBe('http://127.0.0.1:2/');
    expect(await call('presets.delete', { id })).toEqual({ deleted: true });
    expect(await call('presets.delete', { id })).toEqual({ deleted: false });
    expect((await call('presets.list')).presets.map((p) => p.id)).toContain(copy.id);
    expect(await callError('presets.get', { id })).toBe(`there is no preset with id ${id}`);
  });

  it('exports to JSON text and imports it back; a bad file names the field', async () => {
    const exported = await call('presets.export', { id: 'builtin-seed-000-vegeta-rate' });
    if (!exported.ok) throw new Error(exported.message);
    expect(exported.fileName).toMatch(/\.trebuchet-preset\.json$/);
    const imported = await call('presets.import', { text: exported.text });
    if (!imported.ok) throw new Error(imported.message);
    expect(imported.preset.source).toBe('user');
    const original = (await call('presets.get', { id: 'builtin-seed-000-vegeta-rate' })).preset;
    const copy = (await call('presets.get', { id: imported.preset.id })).preset;
    expect(copy.kind === 'comparison' && copy.plan).toEqual(original.kind === 'comparison' && original.plan);

    const bad = JSON.stringify({ ...JSON.parse(exported.text), plan: { ...planInput, levels: [0] } });
    expect(await callError('presets.import', { text: bad })).toContain('plan.levels.0');
    expect(await callError('presets.import', { text: '{"format": "trebuchet-preset"' })).toContain(
      'not valid JSON',
    );
    expect(await callError('presets.import', { text: 42 })).toBe(
      'presets.import input is invalid: text: Invalid input: expected string, received number',
    );
  });

  it('rejects malformed ids and names before reaching the store', async () => {
    expect(await callError('presets.get', { id: '../presets' })).toBe(
      'presets.get input is invalid: id: preset id is malformed',
    );
    expect(await callError('presets.rename', { id: 'abc', name: '   ' })).toBe(
      'presets.rename input is invalid: name: name is empty',
    );
    expect(await callError('history.get', { id: 'a/b' })).toBe(
      'history.get input is invalid: id: history id is malformed',
    );
  });
});

describe('history through the run registry', () => {
  it("saves a finished run before its 'done' reaches the page, with the app version", async () => {
    const seen: RunEvent[] = [];
    services.attach('page-a', {
      run: () => (e) => seen.push(e),
      comparison: () => () => undefined,
      capacity: () => () => undefined,
    });
    const { runId } = await call('run.start', { scenario: scenarioInput });
    const result = resultWith({ rps: 1234.5 });
    engine.emit({ type: 'target-done', runId, targetIndex: 0, result });
    engine.emit({ type: 'done', runId, status: 'completed', results: [result] });
    expect(seen.map((e) => e.type)).toEqual(['target-done']);
    await expect.poll(() => seen.length).toBe(2);
    const done = seen[1]!;
    if (done.type !== 'done' || done.historyId === undefined) throw new Error('no history id on done');

    const list = await call('history.list');
    expect(list.dir).toBe(path.join(dataDir, 'history'));
    expect(list.runs.map((r) => [r.id, r.name, r.status, r.appVersion])).toEqual([
      [done.historyId, 'nginx static', 'completed', '9.8.7'],
    ]);
    expect(list.runs[0]!.perTarget[0]!.rps).toBe(1234.5);
    const record = await call('history.get', { id: done.historyId });
    expect(record.kind === 'scenario' && record.results[0]!.throughput.requestsPerSecond).toBe(1234.5);
    // The web host has no encryption: the secret header value never reaches the disk.
    expect(record.kind === 'scenario' && record.scenario.targets[0]!.headers[0]!.value).toBe('');

    expect((await call('history.rename', { id: done.historyId, name: 'kept' })).name).toBe('kept');
    expect(await call('history.delete', { id: done.historyId })).toEqual({ deleted: true });
    expect((await call('history.list')).runs).toEqual([]);
  });

  it('saves a cancelled run too, and runs another caller started stay out of this page', async () => {
    const seen: RunEvent[] = [];
    services.attach('page-a', {
      run: () => (e) => seen.push(e),
      comparison: () => () => undefined,
      capacity: () => () => undefined,
    });
    const { runId } = await call('run.start', { scenario: scenarioInput }, 'page-b');
    expect(await call('run.stop', { runId })).toEqual({ stopped: false });
    expect(await call('run.stop', { runId }, 'page-b')).toEqual({ stopped: true });
    await services.close();
    expect(seen).toEqual([]);
    const runs = (await call('history.list')).runs;
    expect(runs.map((r) => r.status)).toEqual(['cancelled']);
  });
});

describe('capacity searches through the host', () => {
  const capacityPlan = {
    name: 'how much',
    targets: [{ name: 'nginx', url: 'http://127.0.0.1:8081/' }],
    search: { goal: { p99Ms: 10 }, startRate: 100, maxRate: 200, stepSeconds: 1 },
  };

  it('runs each step through the engine, replays it to a reloaded page and saves the search as one record', async () => {
    const seen: CapacityEvent[] = [];
    services.attach('page-a', {
      run: () => () => undefined,
      comparison: () => () => undefined,
      capacity: () => (e) => seen.push(e),
    });
    const { capacityId } = await call('capacity.start', { plan: capacityPlan });
    await expect.poll(() => engine.started.length).toBe(1);
    // 1 s steps, lengthened to 5 s (at most 5 times) toward the 1,000 requests a p99 needs.
    expect(engine.started[0]!.load).toEqual({
      model: 'open',
      rate: 100,
      durationSeconds: 5,
      maxInFlight: 1000,
    });
    const held = (rate: number) => stepResult(rate, {}, { runId: `run-${rate}` });
    engine.emit({ type: 'done', runId: 'run-1', status: 'completed', results: [held(100)] });
    await expect.poll(() => engine.started.length).toBe(2);
    expect(engine.started[1]!.load).toMatchObject({ rate: 200 });
    engine.emit({ type: 'sample', runId: 'run-2', targetIndex: 0, sample: sampleFixture({ seq: 4 }) });

    // Another page sees none of it; this one gets it all back but the older samples.
    expect((await call('capacity.active', undefined, 'page-b')).searches).toEqual([]);
    const [active] = (await call('capacity.active')).searches;
    expect(active!.capacityId).toBe(capacityId);
    expect(active!.events.map((e) => e.type)).toEqual([
      'started',
      'step-started',
      'step-done',
      'step-started',
      'step-sample',
    ]);

    engine.emit({ type: 'done', runId: 'run-2', status: 'completed', results: [held(200)] });
    await expect.poll(() => seen.at(-1)?.type).toBe('done');
    const done = seen.at(-1)!;
    if (done.type !== 'done' || done.historyId === undefined) throw new Error('no history id on done');
    expect(done.steps.map((x) => x.rate)).toEqual([100, 200]);
    const record = await call('history.get', { id: done.historyId });
    expect(record).toMatchObject({ kind: 'capacity', status: 'completed', plan: { name: 'how much' } });
    const [summary] = (await call('history.list')).runs;
    expect(summary).toMatchObject({ kind: 'capacity', perTarget: [{ target: 'nginx', rps: 200, p99: 2 }] });
  });

  it('stops only for the page that started it, and refuses a plan that names no goal', async () => {
    const { capacityId } = await call('capacity.start', { plan: capacityPlan });
    expect(await call('capacity.stop', { capacityId }, 'page-b')).toEqual({ stopped: false });
    await expect.poll(() => engine.started.length).toBe(1);
    expect(await call('capacity.stop', { capacityId })).toEqual({ stopped: true });
    expect(engine.stopped).toEqual(['run-1']);
    // Listed until it is saved and its 'done' passed on.
    await expect.poll(async () => (await call('capacity.active')).searches).toEqual([]);
    // Stopped before a step ended: nothing was measured, so nothing is kept.
    expect((await call('history.list')).runs).toEqual([]);
    expect(await callError('capacity.start', { plan: { ...capacityPlan, search: { startRate: 100 } } })).toBe(
      'capacity.start input is invalid: plan.search.goal: Invalid input: expected object, received undefined',
    );
  });
});

describe('what run.start and compare.start refuse', () => {
  it(`runs ${LIMITS.concurrentRuns.max} runs and comparisons at once, whoever started them, and refuses more`, async () => {
    expect(LIMITS.concurrentRuns.max).toBe(4);
    const a1 = await call('run.start', { scenario: scenarioInput }, 'page-a');
    const a2 = await call('run.start', { scenario: scenarioInput }, 'page-a');
    await call('run.start', { scenario: scenarioInput }, 'page-b');
    const c = await call('compare.start', { plan: planInput }, 'page-b');
    const refused =
      'this host already runs 4 runs and comparisons at once, the most it allows (each one loads the machine); stop one or wait for one to end';
    expect(await callError('run.start', { scenario: scenarioInput })).toBe(refused);
    expect(await callError('compare.start', { plan: planInput })).toBe(refused);
    // Three plain runs went to the engine, and the comparison's first cell run (after its pre-flight).
    await expect.poll(() => engine.started.length).toBe(4);

    // A run that ends makes room; a stopped comparison too.
    engine.emit({ type: 'done', runId: a1.runId, status: 'completed', results: [] });
    await expect.poll(() => services.runs.idsOf('page-a')).toEqual([a2.runId]);
    const next = await call('run.start', { scenario: scenarioInput }, 'page-c');
    expect(await callError('run.start', { scenario: scenarioInput })).toBe(refused);
    expect(await call('compare.stop', { comparisonId: c.comparisonId }, 'page-b')).toEqual({ stopped: true });
    await expect.poll(() => services.comparisons.idsOf('page-b')).toEqual([]);
    expect((await call('run.start', { scenario: scenarioInput }, 'page-a')).runId).not.toBe(next.runId);
  });

  it('refuses a run whose body or CA file cannot be read, naming the field, before starting anything', async () => {
    const folder = path.join(dataDir, 'a-folder');
    await mkdir(folder);
    const scenario = {
      ...scenarioInput,
      targets: [{ ...scenarioInput.targets[0], body: { kind: 'file', path: folder } }],
    };
    expect(await callError('run.start', { scenario })).toBe(
      `run.start input is invalid: scenario.targets.0.body.path: ${folder} is a folder, not a file`,
    );
    const missing = path.join(dataDir, 'missing.pem');
    expect(
      await callError('compare.start', { plan: { ...planInput, options: { tls: { caFile: missing } } } }),
    ).toBe(`compare.start input is invalid: plan.options.tls.caFile: ${missing} does not exist`);
    expect(engine.started).toEqual([]);
  });
});

describe('runs in progress, for a reloaded page (run.active)', () => {
  const twoTargets = {
    name: 'two targets',
    targets: [{ url: 'http://127.0.0.1:8080/' }, { url: 'http://127.0.0.1:8081/' }],
  };
  const sample = (runId: string, targetIndex: number, seq: number): RunEvent => ({
    type: 'sample',
    runId,
    targetIndex,
    sample: sampleFixture({ seq }),
  });

  it("hands back the caller's run: all events but a finished target's samples, and the clock", async () => {
    services.attach('page-a', {
      run: () => () => undefined,
      comparison: () => () => undefined,
      capacity: () => () => undefined,
    });
    const { runId } = await call('run.start', { scenario: twoTargets });
    await call('run.start', { scenario: scenarioInput }, 'page-b');
    engine.emit({ type: 'started', runId, targetCount: 2 });
    engine.emit({ type: 'target-started', runId, targetIndex: 0 });
    engine.emit(sample(runId, 0, 1));
    engine.emit(sample(runId, 0, 2));
    engine.emit({ type: 'target-done', runId, targetIndex: 0, result: resultWith({ rps: 10 }) });
    // The page is gone for a moment (a reload): its run's events still count.
    services.detach('page-a');
    engine.emit({ type: 'target-started', runId, targetIndex: 1 });
    for (const seq of [3, 4, 5]) engine.emit(sample(runId, 1, seq));

    const { runs } = await call('run.active');
    expect(runs).toHaveLength(1);
    const [active] = runs;
    expect(active!.runId).toBe(runId);
    expect(active!.scenario.name).toBe('two targets');
    expect(active!.events.map((e) => (e.type === 'sample' ? `sample ${e.sample.seq}` : e.type))).toEqual([
      'started',
      'target-started',
      'target-done',
      'target-started',
      'sample 3',
      'sample 4',
      'sample 5',
    ]);
    expect(active!.targetElapsedSeconds).toBeGreaterThanOrEqual(0);
    expect(active!.targetElapsedSeconds).toBeLessThan(5);
    // Another page sees only its own run.
    expect((await call('run.active', undefined, 'page-b')).runs.map((r) => r.scenario.name)).toEqual([
      'nginx static',
    ]);
    engine.emit({ type: 'done', runId, status: 'completed', results: [] });
    await expect.poll(async () => (await call('run.active')).runs.length).toBe(0);
  });

  it('keeps at most MAX_REPLAY_SAMPLES samples of the running target, the newest', async () => {
    const { runId } = await call('run.start', { scenario: scenarioInput });
    engine.emit({ type: 'target-started', runId, targetIndex: 0 });
    const count = MAX_REPLAY_SAMPLES + 5;
    for (let seq = 1; seq <= count; seq++) engine.emit(sample(runId, 0, seq));
    const samples = (await call('run.active')).runs[0]!.events.filter((e) => e.type === 'sample');
    expect(samples.length).toBeLessThanOrEqual(MAX_REPLAY_SAMPLES);
    expect(samples.length).toBeGreaterThanOrEqual(MAX_REPLAY_SAMPLES * 0.9);
    const seqs = samples.map((e) => (e.type === 'sample' ? e.sample.seq : 0));
    expect(seqs.at(-1)).toBe(count);
    expect(seqs[0]).toBe(count - samples.length + 1);
  });
});

describe('history saver', () => {
  it('passes done on with the save error when the store cannot write, and no run it did not start', async () => {
    const failing = {
      save: (_d: RunRecordDraft): Promise<HistorySummary> => Promise.reject(new Error('disk full')),
    };
    const history = new HistorySaver({ history: failing, appVersion: '1' });
    const fake = new FakeRunService();
    const registry = new RunRegistry({ service: fake, history });
    const seen: RunEvent[] = [];
    registry.attach('a', () => (e) => seen.push(e));
    const run = registry.start(scenarioSchema.parse(scenarioInput), 'a');
    run.begin();
    // A run someone else started on the same engine (a comparison cell).
    const cell = fake.start(scenarioSchema.parse(scenarioInput));
    cell.events(() => undefined);
    fake.emit({ type: 'started', runId: cell.id, targetCount: 1 });
    fake.emit({ type: 'done', runId: cell.id, status: 'completed', results: [] });
    const errors: unknown[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => errors.push(args);
    try {
      fake.emit({ type: 'done', runId: run.id, status: 'completed', results: [] });
      await history.idle();
      await expect.poll(() => seen.length).toBe(1);
    } finally {
      console.error = original;
    }
    expect(seen[0]).toMatchObject({
      type: 'done',
      runId: run.id,
      historyError: 'The run could not be saved in history: disk full',
    });
    expect(errors).toHaveLength(1);
    await registry.close();
  });
});

/** A comparison registry over a fake runner, saving in this test's history store. */
function comparisonRegistry() {
  const fake = new FakeComparisonService();
  const saver = new HistorySaver({ history: stores.history, appVersion: '2.0.0' });
  return { fake, saver, registry: new ComparisonRegistry({ service: fake, history: saver }) };
}

describe('comparison registry', () => {
  it('begins a comparison only once begun (after the reply), routes it to the owner, saves it before done', async () => {
    const { fake, saver, registry } = comparisonRegistry();
    const a: ComparisonEvent[] = [];
    const b: ComparisonEvent[] = [];
    registry.attach('a', () => (e) => a.push(e));
    registry.attach('b', () => (e) => b.push(e));
    const plan = comparisonPlanSchema.parse(planInput);
    const job = registry.start(plan, 'a');
    const id = job.id;
    // Until then its handle has no subscriber, so it cannot have begun.
    expect(fake.begun(id)).toBe(false);
    job.begin();
    fake.emit({ type: 'started', comparisonId: id, cellCount: 8 });
    expect(a).toEqual([{ type: 'started', comparisonId: id, cellCount: 8 }]);

    const outcome: CellOutcome = {
      cellIndex: 0,
      coordinates: { targetIndex: 0, protocol: 'http', level: 10, repetition: 0 },
      result: resultWith({ rps: 500 }),
    };
    fake.emit({ type: 'cell-done', comparisonId: id, cellCount: 8, outcome });
    expect(await registry.stop(id, 'b')).toBe(false);
    expect(registry.idsOf('a')).toEqual([id]);
    fake.emit({ type: 'done', comparisonId: id, status: 'completed', outcomes: [outcome] });
    await saver.idle();
    await expect.poll(() => a.length).toBe(3);
    const done = a[2]!;
    if (done.type !== 'done' || !done.historyId) throw new Error('no history id');
    expect(b).toEqual([]);
    expect(registry.idsOf('a')).toEqual([]);

    const record = await stores.history.get(done.historyId);
    expect(record.kind).toBe('comparison');
    expect(record.appVersion).toBe('2.0.0');
    expect(
      record.kind === 'comparison' && record.outcomes.map((o) => o.result.throughput.requestsPerSecond),
    ).toEqual([500]);
    await registry.close();
  });

  it('keeps nothing in history of a comparison that ran no cell (its pre-flight failed), and says no save', async () => {
    const { fake, saver, registry } = comparisonRegistry();
    const seen: ComparisonEvent[] = [];
    registry.attach('a', () => (e) => seen.push(e));
    const job = registry.start(comparisonPlanSchema.parse(planInput), 'a');
    job.begin();
    fake.emit({ type: 'started', comparisonId: job.id, cellCount: 8 });
    const done: ComparisonEvent = {
      type: 'done',
      comparisonId: job.id,
      status: 'failed',
      outcomes: [],
      preflightFailures: [
        {
          url: 'https://127.0.0.1:8081/',
          protocol: 'http1.1',
          targets: ['nginx'],
          kind: 'tls',
          message: 'certificate is self-signed',
          fixes: ['turn-off-verification', 'choose-ca-file'],
        },
      ],
    };
    fake.emit(done);
    await saver.idle();
    expect(seen.at(-1)).toEqual(done);
    expect(registry.idsOf('a')).toEqual([]);
    expect((await stores.history.list()).map((r) => r.kind)).toEqual([]);
    await registry.close();
  });

  it("hands a reloaded page its comparison: every event but the cells' samples, of which the latest", async () => {
    const { fake, saver, registry } = comparisonRegistry();
    const job = registry.start(comparisonPlanSchema.parse(planInput), 'a');
    job.begin();
    const id = job.id;
    const coordinates = { targetIndex: 0, protocol: 'http', level: 10, repetition: 0 } as const;
    fake.emit({ type: 'started', comparisonId: id, cellCount: 8 });
    fake.emit({
      type: 'cell-started',
      comparisonId: id,
      cellIndex: 0,
      cellCount: 8,
      coordinates,
      runId: 'r1',
    });
    for (const rps of [100, 200, 300]) {
      fake.emit({
        type: 'cell-sample',
        comparisonId: id,
        cellIndex: 0,
        sample: sampleFixture({ requestsPerSecond: rps }),
      });
    }
    const [active] = registry.activeOf('a');
    expect(active!.comparisonId).toBe(id);
    expect(active!.plan.name).toBe('nginx vs apache');
    expect(active!.events.map((e) => e.type)).toEqual(['started', 'cell-started', 'cell-sample']);
    const last = active!.events[2]!;
    expect(last.type === 'cell-sample' && last.sample.requestsPerSecond).toBe(300);
    expect(registry.activeOf('b')).toEqual([]);

    const outcome: CellOutcome = { cellIndex: 0, coordinates, result: resultWith({ rps: 250 }) };
    fake.emit({ type: 'cell-done', comparisonId: id, cellCount: 8, outcome });
    expect(registry.activeOf('a')[0]!.events.map((e) => e.type)).toEqual([
      'started',
      'cell-started',
      'cell-done',
    ]);
    // Listed until its 'done' is passed on, after the save.
    fake.emit({ type: 'done', comparisonId: id, status: 'completed', outcomes: [outcome] });
    expect(registry.idsOf('a')).toEqual([id]);
    await saver.idle();
    await expect.poll(() => registry.activeOf('a')).toEqual([]);
    await registry.close();
  });

  it('stops the comparisons of a page that went away and saves them as cancelled', async () => {
    const { fake, registry } = comparisonRegistry();
    const job = registry.start(comparisonPlanSchema.parse(planInput), 'gone');
    job.begin();
    await registry.stopOwned('gone');
    expect(fake.stopped).toEqual([job.id]);
    const runs = await stores.history.list();
    expect(runs.map((r) => [r.kind, r.status, r.name])).toEqual([
      ['comparison', 'cancelled', 'nginx vs apache'],
    ]);
    await registry.close();
  });
});
