import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decodeHistogram, encodeHistogram, newHistogram } from '../../electron/engine/recording/histogram.ts';
import {
  BrokenHistoryFileError,
  HistoryNotFoundError,
  openHistoryStore,
} from '../../electron/stores/history-store.ts';
import type { SecretCipher } from '../../electron/stores/secrets.ts';
import { openStores } from '../../electron/stores/index.ts';
import { expandPlan } from '../../shared/comparison/cells.ts';
import { comparisonPlanSchema } from '../../shared/comparison/plan.ts';
import { capacityPlanSchema, type CapacityStep } from '../../shared/capacity/plan.ts';
import { HISTORY_RECORD_VERSION, type HistoryRecordDraft } from '../../shared/records/history.ts';
import { namedParts } from '../../shared/diff/compare.ts';
import { savedOfRecord } from '../../shared/records/result-file.ts';
import type { RunResult } from '../../shared/model/result.ts';
import { scenarioSchema } from '../../shared/model/scenario.ts';
import { resultWith } from '../helpers/comparison-results.ts';
import { sampleFixture } from '../helpers/run-result.ts';

let dir: string;
let clock: number;
const now = () => new Date(Date.UTC(2025, 0, 1) + clock++ * 1000);

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trebuchet-history-'));
  clock = 0;
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function histogramOf(values: number[]): string {
  const h = newHistogram();
  for (const v of values) h.recordValue(v);
  return encodeHistogram(h);
}

const scenario = scenarioSchema.parse({
  name: 'two servers',
  targets: [
    {
      name: 'apache',
      url: 'http://127.0.0.1:8080/',
      headers: [{ name: 'Authorization', value: 'Bearer hunter2' }],
    },
    { name: 'nginx', url: 'http://127.0.0.1:8081/' },
  ],
});

function results(): RunResult[] {
  return scenario.targets.map((target, i) => ({
    ...resultWith({ rps: 1000 * (i + 1), p99: 5 + i }),
    target,
    histogram: histogramOf([100, 200, 300 * (i + 1)]),
    samples: [sampleFixture({ seq: 0 }), sampleFixture({ seq: 1, requestsPerSecond: 900 })],
  }));
}

const draft = (name?: string, status: HistoryRecordDraft['status'] = 'completed'): HistoryRecordDraft => ({
  kind: 'run',
  name,
  status,
  appVersion: '0.1.0',
  scenario,
  results: results(),
});

const runFiles = () => fs.readdirSync(dir).filter((f) => f.endsWith('.run.json'));

describe('history store', () => {
  it('saves a run with its histograms and samples, and survives a restart', async () => {
    const store = await openHistoryStore({ dir, now, allowPlaintextSecrets: true });
    const s = await store.save(draft());
    expect(s).toMatchObject({
      name: 'two servers',
      status: 'completed',
      kind: 'run',
      targets: ['apache', 'nginx'],
      results: 2,
    });
    expect(s.perTarget).toEqual([
      { target: 'apache', rps: 1000, p99: 5 },
      { target: 'nginx', rps: 2000, p99: 6 },
    ]);
    expect(s.bytes).toBe(fs.statSync(path.join(dir, `${s.id}.run.json`)).size);

    const again = await openHistoryStore({ dir, now, allowPlaintextSecrets: true });
    expect((await again.list()).map((x) => x.id)).toEqual([s.id]);
    const record = await again.get(s.id);
    expect(record.kind).toBe('run');
    if (record.kind !== 'run') return;
    expect(record.results).toEqual(results());
    expect(record.generator?.engine).toBe('autocannon');
    expect(record.appVersion).toBe('0.1.0');
    expect(decodeHistogram(record.results[1]!.histogram!).totalCount).toBe(3);
    expect(decodeHistogram(record.results[1]!.histogram!).maxValue).toBeGreaterThanOrEqual(600);
    expect(record.results[0]!.samples.map((x) => x.requestsPerSecond)).toEqual([1000, 900]);
    // No temporary file is left behind by the atomic writes.
    expect(fs.readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('lists newest first, renames and deletes', async () => {
    const store = await openHistoryStore({ dir, now });
    const a = await store.save(draft('first'));
    const b = await store.save(draft(undefined, 'cancelled'));
    expect((await store.list()).map((x) => x.name)).toEqual(['two servers', 'first']);
    expect((await store.list())[0]!.status).toBe('cancelled');
    expect((await store.rename(a.id, 'baseline')).name).toBe('baseline');
    expect((await store.get(a.id)).name).toBe('baseline');
    expect(await store.delete(b.id)).toBe(true);
    expect(await store.delete(b.id)).toBe(false);
    await expect(store.get(b.id)).rejects.toThrow(HistoryNotFoundError);
    await expect(store.get('../../etc/passwd')).rejects.toThrow(HistoryNotFoundError);
    await expect(store.rename(a.id, ' ')).rejects.toThrow('name is empty');
    const again = await openHistoryStore({ dir, now });
    expect((await again.list()).map((x) => x.name)).toEqual(['baseline']);
    expect(runFiles()).toHaveLength(1);
  });

  it('lists from the index without reading run files, and rebuilds a lost or broken index', async () => {
    const store = await openHistoryStore({ dir, now });
    const s = await store.save(draft('indexed'));
    const index = path.join(dir, 'index.json');
    const entries = (JSON.parse(fs.readFileSync(index, 'utf8')) as { entries: { summary: { id: string } }[] })
      .entries;
    expect(entries.map((e) => e.summary.id)).toEqual([s.id]);
    fs.rmSync(index);
    expect((await (await openHistoryStore({ dir, now })).list()).map((x) => x.name)).toEqual(['indexed']);
    fs.writeFileSync(index, '{"format": "trebuchet-run-index", "ver');
    const rebuilt = await openHistoryStore({ dir, now });
    expect((await rebuilt.list()).map((x) => x.name)).toEqual(['indexed']);
    expect(rebuilt.problems()).toEqual([]);
    expect(JSON.parse(fs.readFileSync(index, 'utf8'))).toMatchObject({
      format: 'trebuchet-run-index',
      version: 8,
    });
  });

  it('marks a completed run whose verdict is not clean with its verdict, and rebuilds a version-3 index that had none', async () => {
    const store = await openHistoryStore({ dir, now });
    const good = await store.save(draft('good'));
    const missing = await store.save({
      kind: 'run',
      name: 'wrong path',
      status: 'completed',
      appVersion: '0.1.0',
      scenario,
      results: results().map((r) => ({
        ...r,
        requests: { ...r.requests, ok: 0, non2xx: r.requests.responses },
        statusCodes: { '404': r.requests.responses },
        successRatio: 0,
      })),
    });
    expect(good.verdict?.word).toBe('clean');
    expect(good.verdict?.tone).not.toBe('bad');
    expect(missing.verdict).toEqual({ word: 'all non-2xx', tone: 'bad' });
    // An index written before verdicts were recorded: its entries lack the field.
    const index = path.join(dir, 'index.json');
    const doc = JSON.parse(fs.readFileSync(index, 'utf8')) as {
      version: number;
      entries: { summary: Record<string, unknown> }[];
    };
    doc.version = 3;
    for (const e of doc.entries) delete e.summary.verdict;
    fs.writeFileSync(index, JSON.stringify(doc));
    const reopened = await openHistoryStore({ dir, now });
    const listed = await reopened.list();
    expect(Object.fromEntries(listed.map((s) => [s.name, s.verdict?.word]))).toEqual({
      good: 'clean',
      'wrong path': 'all non-2xx',
    });
    expect(reopened.problems()).toEqual([]);
  });

  it('checks every indexed run file at start: truncated, garbage, newer or a folder are set aside', async () => {
    const store = await openHistoryStore({ dir, now });
    const good = await store.save(draft('good'));
    const broken = await Promise.all(
      ['truncated', 'garbage', 'newer', 'folder'].map((n) => store.save(draft(n))),
    );
    const fileOf = (id: string) => path.join(dir, `${id}.run.json`);
    const [truncated, garbage, newer, folder] = broken.map((b) => fileOf(b.id));
    fs.writeFileSync(truncated!, fs.readFileSync(truncated!, 'utf8').slice(0, 300));
    fs.writeFileSync(garbage!, 'x'.repeat(fs.statSync(garbage!).size));
    const doc = JSON.parse(fs.readFileSync(newer!, 'utf8')) as Record<string, unknown>;
    fs.writeFileSync(newer!, JSON.stringify({ ...doc, version: HISTORY_RECORD_VERSION + 1 }));
    fs.rmSync(folder!);
    fs.mkdirSync(folder!);
    // The index still lists all five; the start finds the four that changed.
    expect(fs.readFileSync(path.join(dir, 'index.json'), 'utf8')).toContain(broken[3]!.id);

    const again = await openHistoryStore({ dir, now });
    const problems = again.problems();
    const messageOf = (file: string) => problems.find((p) => p.file === file)?.message;
    expect(problems).toHaveLength(4);
    expect(messageOf(truncated!)).toContain('not valid JSON');
    expect(messageOf(garbage!)).toContain('not valid JSON');
    expect(messageOf(newer!)).toContain(
      `version: this saved run is format version ${HISTORY_RECORD_VERSION + 1}, written by Trebuchet 0.1.0; this version of Trebuchet reads format versions 1 to ${HISTORY_RECORD_VERSION}`,
    );
    expect(messageOf(folder!)).toContain('it is a folder, not a file');
    expect(problems.every((p) => p.keptAs !== null && fs.existsSync(p.keptAs))).toBe(true);
    expect((await again.list()).map((x) => x.id)).toEqual([good.id]);
    expect(runFiles()).toEqual([`${good.id}.run.json`]);
    // The next start has nothing more to say.
    expect((await openHistoryStore({ dir, now })).problems()).toEqual([]);
  });

  it('starts when the history folder or its index is not a folder or file, keeping what was there', async () => {
    const history = path.join(dir, 'history');
    fs.writeFileSync(history, 'not a folder');
    const store = await openHistoryStore({ dir: history, now });
    expect(store.problems()[0]!.message).toContain(`${history} was not a folder`);
    expect(fs.readFileSync(store.problems()[0]!.keptAs!, 'utf8')).toBe('not a folder');
    const saved = await store.save(draft('kept'));
    fs.rmSync(path.join(history, 'index.json'));
    fs.mkdirSync(path.join(history, 'index.json'));
    const again = await openHistoryStore({ dir: history, now });
    expect((await again.list()).map((x) => x.id)).toEqual([saved.id]);
    expect(again.problems()[0]!.message).toContain('The history index was not a file');
    expect(fs.statSync(path.join(history, 'index.json')).isFile()).toBe(true);
  });

  it('sets a truncated run file aside, reports it and keeps the others', async () => {
    const store = await openHistoryStore({ dir, now });
    const good = await store.save(draft('good'));
    const bad = await store.save(draft('bad'));
    const badFile = path.join(dir, `${bad.id}.run.json`);
    const truncated = fs.readFileSync(badFile, 'utf8').slice(0, 500);
    fs.writeFileSync(badFile, truncated);
    fs.rmSync(path.join(dir, 'index.json'));

    const again = await openHistoryStore({ dir, now });
    expect((await again.list()).map((x) => x.id)).toEqual([good.id]);
    const [problem] = again.problems();
    expect(problem!.store).toBe('history');
    expect(problem!.message).toContain('not valid JSON');
    expect(path.basename(problem!.keptAs!)).toMatch(new RegExp(`^${bad.id}\\.run\\.broken-.*\\.json$`));
    expect(fs.readFileSync(problem!.keptAs!, 'utf8')).toBe(truncated);
    expect(runFiles()).toEqual([`${good.id}.run.json`]);
  });

  it('sets a tampered run file aside when it is opened', async () => {
    const store = await openHistoryStore({ dir, now });
    const s = await store.save(draft('tampered'));
    const f = path.join(dir, `${s.id}.run.json`);
    const doc = JSON.parse(fs.readFileSync(f, 'utf8')) as { results: { successRatio: number }[] };
    doc.results[0]!.successRatio = 7;
    fs.writeFileSync(f, JSON.stringify(doc));
    const err = await store.get(s.id).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BrokenHistoryFileError);
    expect((err as BrokenHistoryFileError).message).toContain('results.0.successRatio');
    expect(await store.list()).toEqual([]);
    expect(fs.existsSync((err as BrokenHistoryFileError).problem.keptAs!)).toBe(true);
    // A record from a newer app is set aside with that reason.
    const s2 = await store.save(draft('future'));
    const f2 = path.join(dir, `${s2.id}.run.json`);
    fs.writeFileSync(f2, JSON.stringify({ ...JSON.parse(fs.readFileSync(f2, 'utf8')), version: 4 }));
    await expect(store.get(s2.id)).rejects.toThrow(
      'this saved run is format version 4, written by Trebuchet 0.1.0; this version of Trebuchet reads format versions 1 to 3',
    );
  });

  it('sets aside a run file with an unknown field, naming it (in a result, and 100,000 levels deep)', async () => {
    const store = await openHistoryStore({ dir, now });
    const [typo, deep] = await Promise.all(['typo', 'deep'].map((n) => store.save(draft(n))));
    const fileOf = (id: string) => path.join(dir, `${id}.run.json`);
    const doc = JSON.parse(fs.readFileSync(fileOf(typo!.id), 'utf8')) as {
      results: { requests: Record<string, unknown> }[];
    };
    doc.results[1]!.requests.okk = 1;
    fs.writeFileSync(fileOf(typo!.id), JSON.stringify(doc));
    const nested = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    fs.writeFileSync(
      fileOf(deep!.id),
      fs.readFileSync(fileOf(deep!.id), 'utf8').replace(/^\{/, `{"extra": ${nested},`),
    );
    const again = await openHistoryStore({ dir, now });
    const messageOf = (id: string) => again.problems().find((p) => p.file === fileOf(id))?.message;
    expect(messageOf(typo!.id)).toContain('(results.1.requests.okk: unknown field; did you mean `ok`?)');
    expect(messageOf(deep!.id)).toContain('(extra: unknown field (the fields here are `format`, `version`, ');
    expect(await again.list()).toEqual([]);
  });

  it('removes at start the temporary files of a killed writer, but not one a live process is writing', async () => {
    // The pid of a process that has ended: what `kill -9` during a save leaves in the name.
    const deadPid = spawnSync(process.execPath, ['-e', '']).pid;
    const killedTmp = path.join(dir, `.x.run.json.${deadPid}.0badc0de.tmp`);
    const killedIndexTmp = path.join(dir, `.index.json.${deadPid}.0badc0df.tmp`);
    const oldTmp = path.join(dir, `.y.run.json.${process.pid}.abcd.tmp`);
    const writingTmp = path.join(dir, `.z.run.json.${process.pid}.abce.tmp`);
    for (const f of [killedTmp, killedIndexTmp, oldTmp, writingTmp]) fs.writeFileSync(f, '{"half": ');
    const past = new Date(Date.now() - 3600_000);
    fs.utimesSync(oldTmp, past, past);
    const store = await openHistoryStore({ dir });
    expect(await store.list()).toEqual([]);
    expect(fs.readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([path.basename(writingTmp)]);
    expect(store.problems()).toEqual([]);
  });

  it('refuses an invalid record without writing anything', async () => {
    const store = await openHistoryStore({ dir, now });
    const bad = { ...draft(), results: [{ ...results()[0]!, successRatio: 2 }] };
    await expect(store.save(bad)).rejects.toThrow('run record is invalid: results.0.successRatio');
    expect(runFiles()).toEqual([]);
  });
});

describe('history secrets', () => {
  const cipher: SecretCipher = {
    available: () => true,
    encrypt: (t) => `sealed:${Buffer.from(t).toString('hex')}`,
    decrypt: (d) => Buffer.from(d.slice(7), 'hex').toString(),
  };

  it('clears secret values without a cipher or consent', async () => {
    const store = await openHistoryStore({ dir, now });
    const s = await store.save(draft());
    const text = fs.readFileSync(path.join(dir, `${s.id}.run.json`), 'utf8');
    expect(text).not.toContain('hunter2');
    const r = await store.get(s.id);
    expect(r.kind === 'run' && r.scenario.targets[0]!.headers).toEqual([
      { name: 'Authorization', value: '' },
    ]);
    expect(r.kind === 'run' && r.results[0]!.target.headers).toEqual([{ name: 'Authorization', value: '' }]);
  });

  it('seals them with a cipher and opens them again', async () => {
    const store = await openHistoryStore({ dir, now, cipher });
    const s = await store.save(draft());
    expect(fs.readFileSync(path.join(dir, `${s.id}.run.json`), 'utf8')).not.toContain('hunter2');
    const r = await (await openHistoryStore({ dir, cipher })).get(s.id);
    expect(r.kind === 'run' && r.results[0]!.target.headers[0]!.value).toBe('Bearer hunter2');
    // Renaming keeps the sealed values.
    await store.rename(s.id, 'renamed');
    const r2 = await store.get(s.id);
    expect(r2.kind === 'run' && r2.scenario.targets[0]!.headers[0]!.value).toBe('Bearer hunter2');
  });
});

describe('comparison records', () => {
  it('keeps the plan and cell outcomes and offers each cell for comparing', async () => {
    const plan = comparisonPlanSchema.parse({
      name: 'c10 vs c100',
      targets: [
        { name: 'a', urls: { http: 'http://127.0.0.1:1/' } },
        { name: 'b', urls: { http: 'http://127.0.0.1:2/' } },
      ],
      load: { model: 'closed' },
      levels: [10, 100],
      repetitions: 2,
    });
    const outcomes = expandPlan(plan).map((c) => ({
      cellIndex: c.index,
      coordinates: c.coordinates,
      result: resultWith({ rps: 100 * (c.coordinates.targetIndex + 1) + c.coordinates.repetition }),
    }));
    const stores = await openStores({ dataDir: dir, now });
    const s = await stores.history.save({
      kind: 'comparison',
      status: 'completed',
      appVersion: '0.1.0',
      plan,
      outcomes,
    });
    expect(s).toMatchObject({ kind: 'comparison', results: 8, targets: ['a', 'b'], perTarget: [] });
    expect(fs.existsSync(path.join(dir, 'history', `${s.id}.run.json`))).toBe(true);
    const record = await stores.history.get(s.id);
    // Each cell with its repetitions, by the names `trebuchet diff` and History's diff match.
    const parts = namedParts(savedOfRecord(record));
    expect(parts.map((p) => p.label)).toEqual([
      'a · http · c=10',
      'b · http · c=10',
      'a · http · c=100',
      'b · http · c=100',
    ]);
    expect(parts[1]!.results.map((r) => r.throughput.requestsPerSecond)).toEqual([200, 201]);
    expect(stores.problems()).toEqual([]);
    expect(path.dirname(stores.presets.path)).toBe(dir);
  });
});

describe('capacity records', () => {
  const plan = capacityPlanSchema.parse({
    name: 'how much',
    targets: [
      { name: 'a', url: 'http://127.0.0.1:1/' },
      { name: 'b', url: 'http://127.0.0.1:2/' },
    ],
    search: { goal: { p99Ms: 10 }, startRate: 100, maxRate: 400 },
  });
  /** a holds 100 and 200, breaks at 400 then bisects to 300 (held) and 350 (broke); b holds up to the top. */
  const steps: CapacityStep[] = [
    ...[100, 200, 400, 300, 350].map((rate, stepIndex) => ({
      searchIndex: 0,
      stepIndex,
      rate,
      phase: stepIndex < 3 ? ('doubling' as const) : ('bisecting' as const),
      result: resultWith({ rps: rate, p99: rate >= 350 ? 40 : 4 }),
    })),
    ...[100, 200, 400].map((rate, stepIndex) => ({
      searchIndex: 1,
      stepIndex,
      rate,
      phase: 'doubling' as const,
      result: resultWith({ rps: rate, p99: 2 }),
    })),
  ];

  it('keeps every step run, lists each target with the rate that held, and offers each step for comparing', async () => {
    const store = await openHistoryStore({ dir, now });
    const s = await store.save({ kind: 'capacity', status: 'completed', appVersion: '0.1.0', plan, steps });
    expect(s).toMatchObject({ kind: 'capacity', results: 8, targets: ['a', 'b'] });
    // The answer in words: a held rate that is a lower bound never reads as a bare rate (issue 37).
    expect(s.perTarget).toEqual([
      { target: 'a', rps: 300, p99: 4, answer: 'at least 300 req/s (stopped)' },
      { target: 'b', rps: 400, p99: 2, answer: 'at least 400 req/s (the top rate)' },
    ]);
    const record = await (await openHistoryStore({ dir, now })).get(s.id);
    expect(record).toMatchObject({ kind: 'capacity', version: HISTORY_RECORD_VERSION, plan, steps });
    expect(namedParts(savedOfRecord(record)).map((p) => p.label)).toEqual([
      'a · 100 req/s',
      'a · 200 req/s',
      'a · 300 req/s',
      'a · 350 req/s',
      'a · 400 req/s',
      'b · 100 req/s',
      'b · 200 req/s',
      'b · 400 req/s',
    ]);
  });

  it('reads a run saved by the version before capacity records as it was', async () => {
    const store = await openHistoryStore({ dir, now });
    const s = await store.save(draft('old'));
    const file = path.join(dir, `${s.id}.run.json`);
    const doc = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
    // As version 1 wrote it: a plain run's kind was 'scenario'.
    fs.writeFileSync(file, JSON.stringify({ ...doc, version: 1, kind: 'scenario' }));
    const again = await openHistoryStore({ dir, now });
    expect(again.problems()).toEqual([]);
    const record = await again.get(s.id);
    expect(record).toMatchObject({ kind: 'run', name: 'old', version: HISTORY_RECORD_VERSION });
    // A version 1 file holds no capacity record: one that claims to is broken, not migrated.
    fs.writeFileSync(file, JSON.stringify({ ...doc, version: 1, kind: 'capacity', plan, steps }));
    const problems = (await openHistoryStore({ dir, now })).problems();
    expect(problems).toHaveLength(1);
    expect(problems[0]!.message).toContain('A saved run could not be read (kind:');
  });
});
