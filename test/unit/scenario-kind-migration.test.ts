/**
 * Files 0.1.0 wrote while a plain run's kind was still 'scenario' (test/fixtures/scenario-kind,
 * made by that version's code, never edited): a user's data folder and exported files keep
 * working, and read as 'run' (issue 36).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importIntoHistory } from '../../electron/stores/history-import.ts';
import { openHistoryStore } from '../../electron/stores/history-store.ts';
import { PresetStore } from '../../electron/stores/preset-store.ts';
import { jsonItemOf, recordExport } from '../../shared/export/record.ts';
import { HISTORY_RECORD_VERSION } from '../../shared/records/history.ts';
import { PRESET_VERSION, parsePresetFile } from '../../shared/records/presets.ts';
import { readSavedResult } from '../../shared/records/result-file.ts';

const FIXTURES = path.join(import.meta.dirname, '../fixtures/scenario-kind');
const ID = '20261205-043419-226-12d30eb6';
const RUN_FILE = `${ID}.run.json`;
const PRESET_FILE = 'fixture-run-preset.preset.json';
const EXPORTED_PRESET = 'fixture-run-preset.trebuchet-preset.json';

const fixture = (...p: string[]) => fs.readFileSync(path.join(FIXTURES, ...p), 'utf8');
const json = (text: string) => JSON.parse(text) as Record<string, unknown>;

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trebuchet-scenario-kind-'));
  fs.cpSync(path.join(FIXTURES, 'data'), dir, { recursive: true });
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("History written with the 'scenario' kind (record 2, index 7, baselines 1)", () => {
  const history = () => path.join(dir, 'history');

  it('lists the entry as a run, its subject and baseline renamed, the index rebuilt at its version', async () => {
    // The index as the old version left it, up to date with the run file (its size and time).
    const indexFile = path.join(history(), 'index.json');
    const index = json(fs.readFileSync(indexFile, 'utf8')) as {
      version: number;
      entries: { summary: Record<string, unknown>; mtimeMs: number }[];
    };
    expect(index.version).toBe(7);
    index.entries[0]!.mtimeMs = fs.statSync(path.join(history(), RUN_FILE)).mtimeMs;
    fs.writeFileSync(indexFile, JSON.stringify(index));
    const old = index.entries[0]!.summary;
    expect(old).toMatchObject({ kind: 'scenario', subject: 'scenario · fixture run' });

    const store = await openHistoryStore({ dir: history() });
    expect(store.problems()).toEqual([]);
    const [summary, ...rest] = await store.list();
    expect(rest).toEqual([]);
    // Every figure as the old index had it; only the kind and the subject say 'run'.
    expect(summary).toEqual({ ...old, kind: 'run', subject: 'run · fixture run' });
    expect(summary!.perTarget[0]!.rps).toBeCloseTo(1697.43, 2);
    expect(await store.baselines()).toEqual([{ subject: 'run · fixture run', id: ID }]);
    expect(json(fs.readFileSync(indexFile, 'utf8')).version).toBe(8);
    // Marking it again writes the baselines at the current version, with the new subject.
    await store.setBaseline(ID, true);
    expect(json(fs.readFileSync(path.join(history(), 'baselines.json'), 'utf8'))).toEqual({
      format: 'trebuchet-baselines',
      version: 2,
      baselines: [{ subject: 'run · fixture run', id: ID }],
    });
  });

  it('opens the entry as a run record of the current version, its results as the file holds them', async () => {
    const store = await openHistoryStore({ dir: history() });
    const record = await store.get(ID);
    const file = json(fixture('data/history', RUN_FILE));
    expect(file).toMatchObject({ kind: 'scenario', version: 2 });
    expect(record).toMatchObject({ kind: 'run', version: HISTORY_RECORD_VERSION, name: 'fixture run' });
    if (record.kind !== 'run') throw new Error('not a run');
    expect(record.scenario).toEqual(file.scenario);
    expect(record.results).toEqual(file.results);
    expect(record.results[0]!.requests.total).toBe(20);
    // Its export is a run's: the run's own JSON, one result (as `--json` writes one).
    const bundle = recordExport(record);
    expect(bundle.base).toBe('fixture-run');
    expect(JSON.parse(jsonItemOf(bundle).render())).toMatchObject({
      scenarioName: 'fixture run',
      requests: { total: 20, ok: 20 },
    });
    // Renamed, it stays a file the store reads, as a run.
    await store.rename(ID, 'renamed');
    expect(await openHistoryStore({ dir: history() }).then((s) => s.get(ID))).toMatchObject({
      kind: 'run',
      name: 'renamed',
    });
  });

  it("reads the run file as `trebuchet report` and History's import do: a run", async () => {
    const read = readSavedResult(json(fixture('data/history', RUN_FILE)));
    expect(read.ok && read.value.kind).toBe('run');
    expect(read.ok && read.value.kind === 'run' && read.value.results[0]!.scenarioName).toBe('fixture run');

    const fresh = await openHistoryStore({ dir: path.join(dir, 'fresh') });
    const file = fixture('data/history', RUN_FILE);
    const outcome = await importIntoHistory(
      fresh,
      [{ name: RUN_FILE, json: { ok: true, value: JSON.parse(file) } }],
      '9.9.9',
    );
    expect(outcome.problems).toEqual([]);
    expect(outcome.imported.map((i) => [i.summary.kind, i.summary.name, i.summary.requests])).toEqual([
      ['run', 'fixture run', 20],
    ]);
  });
});

describe("a preset written with the 'scenario' kind (preset version 4)", () => {
  it('lists as a run preset, and its file is written back at the current version', () => {
    const store = new PresetStore({ dir });
    expect(store.problems()).toEqual([]);
    expect(store.list().map((p) => [p.id, p.kind, p.name])).toEqual([
      ['fixture-run-preset', 'run', 'fixture run preset'],
    ]);
    const before = json(fixture('data/presets', PRESET_FILE));
    expect(before).toMatchObject({ version: 4, kind: 'scenario' });
    const after = json(fs.readFileSync(path.join(dir, 'presets', PRESET_FILE), 'utf8'));
    expect(after).toEqual({ ...before, version: PRESET_VERSION, kind: 'run' });
    const preset = store.get('fixture-run-preset');
    expect(preset.kind === 'run' && preset.scenario).toEqual(before.scenario);
  });

  it('imports its exported file as a run preset', () => {
    const text = fixture(EXPORTED_PRESET);
    const parsed = parsePresetFile(JSON.parse(text));
    expect(parsed.ok && [parsed.value.kind, parsed.value.version, parsed.migratedFrom]).toEqual([
      'run',
      PRESET_VERSION,
      4,
    ]);
    const store = new PresetStore({ dir: path.join(dir, 'other') });
    const saved = store.importText(text);
    expect(saved.ok && [saved.preset.kind, saved.preset.name]).toEqual(['run', 'fixture run preset']);
  });
});
