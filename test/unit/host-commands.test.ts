import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createCommandHandlers,
  dispatchCommand,
  type CommandHandlers,
} from '../../electron/host/commands.ts';
import { createHostServices, type HostServices } from '../../electron/host/services.ts';
import { openStores, type Stores } from '../../electron/stores/index.ts';
import type { CommandName, CommandOutput } from '../../shared/contract/api.ts';
import type { JobEnvelope } from '../../shared/contract/jobs.ts';
import { LIMITS } from '../../shared/model/defaults.ts';
import { resultWith } from '../helpers/comparison-results.ts';
import { stepResult } from '../helpers/capacity-results.ts';
import { sampleFixture } from '../helpers/run-result.ts';
import { FakeEngine } from '../helpers/fake-engine.ts';

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
let engine: FakeEngine;
let services: HostServices;
let handlers: CommandHandlers;

beforeEach(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'trebuchet-commands-'));
  stores = await openStores({ dataDir });
  engine = new FakeEngine();
  // Every URL passes the comparison's pre-flight (its own tests are in comparison-runner.test.ts).
  services = createHostServices({
    startTarget: engine.start,
    stores,
    appVersion: '9.8.7',
    checkTarget: () => Promise.resolve({ ok: true }),
  });
  handlers = createCommandHandlers({
    services,
    info: { appVersion: '9.8.7', host: 'web', platform: 'linux' },
    allowKubernetes: false,
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
    const draft = { name: 'with token', kind: 'run', scenario: scenarioInput };
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
      preset: { name: 'plain', kind: 'run', scenario: { targets: [{ url: 'http://127.0.0.1:1/' }] } },
    });
    if (!saved.ok) throw new Error(saved.message);
    const id = saved.preset.id;
    expect((await call('presets.rename', { id, name: '  renamed  ' })).name).toBe('renamed');
    const copy = await call('presets.duplicate', { id: 'builtin-seed-000-vegeta-rate' });
    expect(copy.source).toBe('user');
    expect(copy.name).toMatch(/\(copy\)$/);
    const updated = await call('presets.save', {
      id,
      preset: { name: 'renamed', kind: 'run', scenario: { targets: [{ url: 'http://127.0.0.1:2/' }] } },
    });
    if (!updated.ok) throw new Error(updated.message);
    const got = await call('presets.get', { id });
    expect(got.source).toBe('user');
    expect(got.preset.kind === 'run' && got.preset.scenario.targets[0]!.url).toBe('http://127.0.0.1:2/');
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

/** The events page-a's sink gets. */
function followPageA(): JobEnvelope[] {
  const seen: JobEnvelope[] = [];
  services.attach('page-a', (e) => seen.push(e));
  return seen;
}

/** An event as the assertions read it: its type, or its progress's. */
const what = ({ event: e }: JobEnvelope): string =>
  e.type === 'progress'
    ? e.progress.type
    : e.type === 'sample'
      ? `sample ${e.part}:${e.sample.seq}`
      : e.type === 'result'
        ? `result ${e.part}`
        : e.type;

describe('history through the job registry', () => {
  it("saves a finished run before its 'done' reaches the page, with the app version", async () => {
    const seen = followPageA();
    const { jobId } = await call('jobs.start', { kind: 'run', plan: scenarioInput });
    expect(jobId).toMatch(/^run-/);
    engine.begin(0);
    engine.finish(0, resultWith({ rps: 1234.5 }));
    await expect.poll(() => seen.map(what)).toEqual(['started', 'part-started', 'result 0']);
    await expect.poll(() => seen.length).toBe(4);
    const done = seen[3]!.event;
    if (done.type !== 'done' || done.historyId === undefined) throw new Error('no history id on done');
    // The result went to the page without its samples (they travel live); history keeps them.
    const sent = seen[2]!.event;
    expect(sent.type === 'result' && 'samples' in sent.result && sent.result.samples).toEqual([]);

    const list = await call('history.list');
    expect(list.dir).toBe(path.join(dataDir, 'history'));
    expect(list.runs.map((r) => [r.id, r.name, r.status, r.appVersion])).toEqual([
      [done.historyId, 'nginx static', 'completed', '9.8.7'],
    ]);
    expect(list.runs[0]!.perTarget[0]!.rps).toBe(1234.5);
    const record = await call('history.get', { id: done.historyId });
    expect(record.kind === 'run' && record.results[0]!.throughput.requestsPerSecond).toBe(1234.5);
    expect(record.kind === 'run' && record.results[0]!.samples.length).toBeGreaterThan(0);
    // The web host has no encryption: the secret header value never reaches the disk.
    expect(record.kind === 'run' && record.scenario.targets[0]!.headers[0]!.value).toBe('');

    expect((await call('history.rename', { id: done.historyId, name: 'kept' })).name).toBe('kept');
    expect(await call('history.delete', { id: done.historyId })).toEqual({ deleted: true });
    expect((await call('history.list')).runs).toEqual([]);
  });

  it('saves a cancelled run too, and jobs another caller started stay out of this page', async () => {
    const seen = followPageA();
    const { jobId } = await call('jobs.start', { kind: 'run', plan: scenarioInput }, 'page-b');
    engine.begin(0);
    expect(await call('jobs.stop', { jobId })).toEqual({ stopped: false });
    expect(await call('jobs.stop', { jobId }, 'page-b')).toEqual({ stopped: true });
    expect(engine.stopped).toEqual([0]);
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
    const seen = followPageA();
    const { jobId } = await call('jobs.start', { kind: 'capacity', plan: capacityPlan });
    await expect.poll(() => engine.started.length).toBe(1);
    // 1 s steps, lengthened to 5 s (at most 5 times) toward the 1,000 requests a p99 needs.
    expect(engine.started[0]!.load).toEqual({
      model: 'open',
      rate: 100,
      durationSeconds: 5,
      maxInFlight: 1000,
    });
    const held = (rate: number) => stepResult(rate, {});
    engine.begin(0);
    engine.finish(0, held(100));
    await expect.poll(() => engine.started.length).toBe(2);
    expect(engine.started[1]!.load).toMatchObject({ rate: 200 });
    engine.begin(1);
    engine.sample(1, sampleFixture({ seq: 4 }));

    // Another page sees none of it; this one gets it all back.
    expect((await call('jobs.active', undefined, 'page-b')).jobs).toEqual([]);
    expect((await call('jobs.active', { kind: 'run' })).jobs).toEqual([]);
    const [active] = (await call('jobs.active', { kind: 'capacity' })).jobs;
    expect(active).toMatchObject({ jobId, kind: 'capacity', plan: { name: 'how much' } });
    expect(active!.events.map(what)).toEqual([
      'started',
      'part-started',
      'result 0',
      'part-started',
      'sample 1:4',
    ]);
    expect(active!.events.map((e) => e.n)).toEqual([0, 1, 2, 3, 4]);

    engine.finish(1, held(200));
    await expect.poll(() => seen.at(-1)?.event.type).toBe('done');
    const done = seen.at(-1)!.event;
    if (done.type !== 'done' || done.historyId === undefined) throw new Error('no history id on done');
    const record = await call('history.get', { id: done.historyId });
    expect(record).toMatchObject({ kind: 'capacity', status: 'completed', plan: { name: 'how much' } });
    expect(record.kind === 'capacity' && record.steps.map((x) => x.rate)).toEqual([100, 200]);
    const [summary] = (await call('history.list')).runs;
    expect(summary).toMatchObject({ kind: 'capacity', perTarget: [{ target: 'nginx', rps: 200, p99: 2 }] });
  });

  it('stops only for the page that started it, and refuses a plan that names no goal', async () => {
    const { jobId } = await call('jobs.start', { kind: 'capacity', plan: capacityPlan });
    expect(await call('jobs.stop', { jobId }, 'page-b')).toEqual({ stopped: false });
    await expect.poll(() => engine.started.length).toBe(1);
    expect(await call('jobs.stop', { jobId })).toEqual({ stopped: true });
    expect(engine.stopped).toEqual([0]);
    // Listed until it is saved and its 'done' passed on.
    await expect.poll(async () => (await call('jobs.active')).jobs).toEqual([]);
    // Stopped before a step's load began: nothing was measured, so nothing is kept.
    expect((await call('history.list')).runs).toEqual([]);
    expect(
      await callError('jobs.start', {
        kind: 'capacity',
        plan: { ...capacityPlan, search: { startRate: 100 } },
      }),
    ).toBe(
      'jobs.start input is invalid: plan.search.goal: Invalid input: expected object, received undefined',
    );
  });
});

describe('what jobs.start refuses', () => {
  it(`runs ${LIMITS.concurrentRuns.max} jobs at once, whoever started them, and refuses more`, async () => {
    expect(LIMITS.concurrentRuns.max).toBe(4);
    const run = { kind: 'run', plan: scenarioInput };
    const a1 = await call('jobs.start', run, 'page-a');
    const a2 = await call('jobs.start', run, 'page-a');
    const b = await call('jobs.start', run, 'page-b');
    const c = await call('jobs.start', { kind: 'comparison', plan: planInput }, 'page-b');
    const refused =
      'this host already runs 4 runs and comparisons at once, the most it allows (each one loads the machine); stop one or wait for one to end';
    expect(await callError('jobs.start', run)).toBe(refused);
    expect(await callError('jobs.start', { kind: 'comparison', plan: planInput })).toBe(refused);
    // Three plain runs went to the engine, and the comparison's first cell (after its pre-flight).
    await expect.poll(() => engine.started.length).toBe(4);

    // A job that ends makes room; a stopped comparison too.
    engine.begin(0);
    engine.finish(0, resultWith({ rps: 1 }));
    await expect.poll(() => services.jobs.idsOf('page-a')).toEqual([a2.jobId]);
    expect(a1.jobId).not.toBe(a2.jobId);
    const next = await call('jobs.start', run, 'page-c');
    expect(await callError('jobs.start', run)).toBe(refused);
    expect(await call('jobs.stop', { jobId: c.jobId }, 'page-b')).toEqual({ stopped: true });
    await expect.poll(() => services.jobs.idsOf('page-b')).toEqual([b.jobId]);
    expect((await call('jobs.start', run, 'page-a')).jobId).not.toBe(next.jobId);
  });

  it('refuses a job whose body or CA file cannot be read, naming the field, before starting anything', async () => {
    const folder = path.join(dataDir, 'a-folder');
    await mkdir(folder);
    const scenario = {
      ...scenarioInput,
      targets: [{ ...scenarioInput.targets[0], body: { kind: 'file', path: folder } }],
    };
    expect(await callError('jobs.start', { kind: 'run', plan: scenario })).toBe(
      `jobs.start input is invalid: plan.targets.0.body.path: ${folder} is a folder, not a file`,
    );
    const missing = path.join(dataDir, 'missing.pem');
    expect(
      await callError('jobs.start', {
        kind: 'comparison',
        plan: { ...planInput, options: { tls: { caFile: missing } } },
      }),
    ).toBe(`jobs.start input is invalid: plan.options.tls.caFile: ${missing} does not exist`);
    expect(engine.started).toEqual([]);
  });

  it('names an unknown kind and a field the contract does not know', async () => {
    expect(await callError('jobs.start', { kind: 'diff', plan: scenarioInput })).toMatch(
      /^jobs\.start input is invalid: kind: /,
    );
    expect(await callError('jobs.stop', { jobId: 'run-1', force: true })).toBe(
      'jobs.stop input is invalid: force: unknown field (the fields here are `jobId`)',
    );
  });
});

describe('jobs in progress, for a reloaded page (jobs.active) and a reconnected one (jobs.events)', () => {
  const twoTargets = {
    name: 'two targets',
    targets: [{ url: 'http://127.0.0.1:8080/' }, { url: 'http://127.0.0.1:8081/' }],
  };

  it("hands back the caller's run: every event so far in order, each finished part's samples too, and the clock", async () => {
    followPageA();
    const { jobId } = await call('jobs.start', { kind: 'run', plan: twoTargets });
    await call('jobs.start', { kind: 'run', plan: scenarioInput }, 'page-b');
    engine.begin(0);
    engine.sample(0, sampleFixture({ seq: 1 }));
    engine.sample(0, sampleFixture({ seq: 2 }));
    // The engine's final fold: the last window again, replacing the one sent under its seq.
    engine.sample(0, sampleFixture({ seq: 2, final: true, requests: 1003 }));
    engine.finish(0, resultWith({ rps: 10 }));
    await expect.poll(() => engine.started.length).toBe(3);
    // The page is gone for a moment (a reload): its job's events still count.
    services.detach('page-a');
    engine.begin(2);
    for (const seq of [3, 4, 5]) engine.sample(2, sampleFixture({ seq }));

    const { jobs } = await call('jobs.active');
    expect(jobs).toHaveLength(1);
    const [active] = jobs;
    expect(active!.jobId).toBe(jobId);
    expect(active!.kind === 'run' && active!.plan.name).toBe('two targets');
    expect(active!.events.map(what)).toEqual([
      'started',
      'part-started',
      'sample 0:1',
      'sample 0:2',
      'result 0',
      'part-started',
      'sample 1:3',
      'sample 1:4',
      'sample 1:5',
    ]);
    // The replaced sample is gone, its replacement (a later n) stands in its place.
    const folded = active!.events[3]!;
    expect(
      folded.event.type === 'sample' && folded.event.source === 'engine' && folded.event.sample.final,
    ).toBe(true);
    expect(folded.n).toBe(4);
    expect(active!.partElapsedSeconds).toBeGreaterThanOrEqual(0);
    expect(active!.partElapsedSeconds).toBeLessThan(5);
    // Another page sees only its own job.
    expect(
      (await call('jobs.active', undefined, 'page-b')).jobs.map((j) => j.kind === 'run' && j.plan.name),
    ).toEqual(['nginx static']);

    // A page that got events up to n asks for the rest: the same replay, after n.
    const after = await call('jobs.events', { jobId, after: 5 });
    expect(after.events.map((e) => e.n)).toEqual([6, 7, 8, 9]);
    expect((await call('jobs.events', { jobId, after: 5 }, 'page-b')).events).toEqual([]);

    engine.finish(2, resultWith({ rps: 20 }));
    await expect.poll(async () => (await call('jobs.active')).jobs.length).toBe(0);
    // Ended, its events are still there a while for a page that reconnects after its end.
    const end = (await call('jobs.events', { jobId, after: 9 })).events;
    expect(end.map(what)).toEqual(['result 1', 'done']);
  });
});

describe('settings commands', () => {
  it('answers the defaults, keeps a patch in web-settings.json, and refuses a bad field naming it', async () => {
    const first = await call('settings.get');
    expect(first.ui.view).toBe('run');
    expect(first.file).toBe(path.join(dataDir, 'web-settings.json'));
    const set = await call('settings.set', { ui: { view: 'compare', matrixColumns: ['rps', 'p99'] } });
    expect(set.ui).toMatchObject({ view: 'compare', matrixColumns: ['rps', 'p99'], drafts: { run: null } });
    const onDisk = JSON.parse(await readFile(first.file, 'utf8')) as {
      version: number;
      ui: { view: string };
    };
    expect(onDisk.version).toBe(1);
    expect(onDisk.ui.view).toBe('compare');
    expect(await callError('settings.set', { ui: { view: 'nowhere' } })).toMatch(/ui\.view/);
    expect(await callError('settings.set', { ui: {}, window: { x: 0 } })).toMatch(/window: unknown field/);
    expect((await call('settings.get')).ui.view).toBe('compare');
  });
});
