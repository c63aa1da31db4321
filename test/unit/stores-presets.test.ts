import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { builtInPresets } from '../../electron/stores/built-in-presets.ts';
import { PresetNotFoundError, PresetStore, ReadOnlyPresetError } from '../../electron/stores/preset-store.ts';
import type { SecretCipher } from '../../electron/stores/secrets.ts';
import { PRESET_FORMAT, PRESET_VERSION, type PresetDraftInput } from '../../shared/records/presets.ts';
import { ValidationError } from '../../shared/model/validation.ts';

/** A reversible stand-in for safeStorage, bound to a key like the OS keychain's. */
function fakeCipher(key = 'k1', available = true): SecretCipher {
  const flip = (s: string) => [...s].reverse().join('');
  return {
    available: () => available,
    encrypt: (t) => `${key}:${flip(Buffer.from(t).toString('base64'))}`,
    decrypt: (d) => {
      if (!d.startsWith(`${key}:`)) throw new Error('wrong key');
      return Buffer.from(flip(d.slice(key.length + 1)), 'base64').toString();
    },
  };
}

let dir: string;
let clock: number;
const now = () => new Date(clock++ * 1000 + Date.UTC(2025, 0, 1));
let ids = 0;
const newId = () => `id-${++ids}`;
const open = (extra: Partial<ConstructorParameters<typeof PresetStore>[0]> = {}) =>
  new PresetStore({ dir, now, newId, ...extra });
/** The single file of earlier versions, migrated at start. */
const legacyFile = () => path.join(dir, 'presets.json');
const presetsDir = () => path.join(dir, 'presets');
const presetFile = (id: string) => path.join(presetsDir(), `${id}.preset.json`);
const presetFiles = () => fs.readdirSync(presetsDir()).sort();
const asideFiles = () => fs.readdirSync(presetsDir()).filter((f) => f.includes('.broken-'));
const legacyAside = () => fs.readdirSync(dir).filter((f) => /^presets\.(broken|migrated)-/.test(f));
/** What an earlier version's presets.json held: the stored presets of a store, in one list. */
const legacyDoc = (presets: unknown[]) => JSON.stringify({ presets });
const storedPreset = (id: string) =>
  JSON.parse(fs.readFileSync(presetFile(id), 'utf8')) as Record<string, unknown>;

const draft = (name: string, headers: { name: string; value: string }[] = []): PresetDraftInput => ({
  name,
  kind: 'run',
  scenario: {
    name,
    targets: [{ url: 'http://127.0.0.1:8080/', headers }],
    load: { model: 'closed', connections: 7 },
  },
});

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trebuchet-presets-'));
  clock = 0;
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('preset store', () => {
  it('saves, lists, renames, duplicates and deletes, and survives a restart', () => {
    const store = open();
    const a = store.save(draft('alpha'));
    const b = store.save(draft('beta'));
    expect(a.ok && b.ok).toBe(true);
    if (!a.ok || !b.ok) return;
    expect(store.rename(a.preset.id, '  alpha 2 ').name).toBe('alpha 2');
    const copy = store.duplicate(b.preset.id);
    expect(copy.name).toBe('beta (copy)');
    expect(store.delete(b.preset.id)).toBe(true);
    expect(store.delete(b.preset.id)).toBe(false);

    const again = open();
    const user = again.list().filter((p) => p.source === 'user');
    expect(user.map((p) => p.name)).toEqual(['alpha 2', 'beta (copy)']);
    const loaded = again.get(a.preset.id);
    expect(loaded.kind === 'run' && loaded.scenario.load).toMatchObject({
      model: 'closed',
      connections: 7,
    });
    expect(loaded.createdAt).toBe('2025-01-01T00:00:00.000Z');
    expect(loaded.updatedAt > loaded.createdAt).toBe(true);
    expect(again.problems()).toEqual([]);
    // One file per preset, in the preset file format, owner-only.
    expect(presetFiles()).toEqual([`${a.preset.id}.preset.json`, `${copy.id}.preset.json`].sort());
    expect(storedPreset(a.preset.id)).toMatchObject({
      format: PRESET_FORMAT,
      version: PRESET_VERSION,
      name: 'alpha 2',
    });
    expect(fs.statSync(presetFile(a.preset.id)).mode & 0o777).toBe(0o600);
  });

  it('replaces a preset in place on save with its id', () => {
    const store = open();
    const a = store.save(draft('alpha'));
    if (!a.ok) throw new Error('not saved');
    const r = store.save(
      { name: 'alpha', kind: 'run', scenario: { targets: [{ url: 'http://127.0.0.1:9/' }] } },
      { id: a.preset.id },
    );
    expect(r.ok).toBe(true);
    const p = store.get(a.preset.id);
    expect(p.kind === 'run' && p.scenario.targets[0]!.url).toBe('http://127.0.0.1:9/');
    expect(store.list().filter((x) => x.source === 'user')).toHaveLength(1);
    expect(() => store.save(draft('x'), { id: 'nope' })).toThrow(PresetNotFoundError);
  });

  it('refuses a preset too large to be read back, and writes nothing', () => {
    const store = open();
    const text = 'b'.repeat(4 * 1024 * 1024);
    const huge: PresetDraftInput = {
      name: 'huge',
      kind: 'run',
      scenario: {
        targets: [1, 2, 3, 4].map((n) => ({
          url: `http://127.0.0.1:${n}/`,
          body: { kind: 'text' as const, text },
        })),
      },
    };
    expect(() => store.save(huge)).toThrow(
      /^preset is invalid: the preset is \d+ bytes; a preset is at most 16777216$/,
    );
    expect(presetFiles()).toEqual([]);
  });

  it('validates drafts and names the field', () => {
    const store = open();
    expect(() => store.save({ name: '', kind: 'run', scenario: { targets: [{ url: 'nope' }] } })).toThrow(
      /preset is invalid: name: name is empty; scenario\.targets\.0\.url: URL is not valid/,
    );
    expect(() => store.rename('x', '')).toThrow(ValidationError);
  });

  it('lists the built-in presets, read-only, and duplicates them into user presets', () => {
    const store = open({ builtIns: builtInPresets() });
    const builtIn = store.list().filter((p) => p.source === 'built-in');
    expect(builtIn).toHaveLength(6);
    const id = builtIn[0]!.id;
    expect(() => store.rename(id, 'mine')).toThrow(ReadOnlyPresetError);
    expect(() => store.delete(id)).toThrow(ReadOnlyPresetError);
    const copy = store.duplicate(id, 'my vegeta run');
    expect(copy.source).toBe('user');
    expect(open({ builtIns: builtInPresets() }).get(copy.id).kind).toBe('comparison');
  });

  it('sets a truncated preset file aside, reports it and keeps the other presets', () => {
    const store = open();
    const a = store.save(draft('alpha'));
    const b = store.save(draft('beta'));
    if (!a.ok || !b.ok) throw new Error('not saved');
    const full = fs.readFileSync(presetFile(a.preset.id), 'utf8');
    const truncated = full.slice(0, Math.floor(full.length / 2));
    fs.writeFileSync(presetFile(a.preset.id), truncated);

    const again = open();
    expect(again.list().map((p) => p.name)).toEqual(['beta']);
    const problems = again.problems();
    expect(problems).toHaveLength(1);
    expect(problems[0]!).toMatchObject({ store: 'presets', file: presetFile(a.preset.id) });
    expect(problems[0]!.message).toContain('not valid JSON');
    const kept = problems[0]!.keptAs!;
    expect(path.basename(kept)).toMatch(
      new RegExp(`^${a.preset.id}\\.preset\\.broken-2025-01-01T00-00-\\d\\d-000Z\\.json$`),
    );
    expect(fs.readFileSync(kept, 'utf8')).toBe(truncated);
    expect(asideFiles()).toHaveLength(1);
    // The store works on: a new save, and a later start finds nothing more to set aside.
    expect(again.save(draft('gamma')).ok).toBe(true);
    expect(
      open()
        .list()
        .map((p) => p.name),
    ).toEqual(['beta', 'gamma']);
    expect(asideFiles()).toHaveLength(1);
  });

  it('sets aside only the preset that breaks the schema, naming the field', () => {
    const store = open();
    const a = store.save(draft('alpha'));
    store.save(draft('beta'));
    if (!a.ok) throw new Error('not saved');
    const doc = storedPreset(a.preset.id) as { scenario: { load: { connections: number } } };
    doc.scenario.load.connections = -5;
    const tampered = JSON.stringify(doc);
    fs.writeFileSync(presetFile(a.preset.id), tampered);
    const again = open();
    expect(again.list().map((p) => p.name)).toEqual(['beta']);
    expect(again.problems()[0]!.message).toContain(
      'scenario.load.connections: connections must be at least 1',
    );
    expect(fs.readFileSync(again.problems()[0]!.keptAs!, 'utf8')).toBe(tampered);
  });

  it('sets aside a preset with a 100,000-deep extra field (naming it) or that is a folder, and saves on', () => {
    const store = open();
    const a = store.save(draft('alpha'));
    if (!a.ok) throw new Error('not saved');
    // A deeply nested extra field: JSON.parse takes it, every recursive walk (and write) overflows.
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const text = fs.readFileSync(presetFile(a.preset.id), 'utf8').replace(/^\{/, `{"extra": ${deep},`);
    fs.writeFileSync(presetFile('deep'), text.replace(a.preset.id, 'deep'));
    fs.mkdirSync(presetFile('folder'));

    const again = open();
    expect(again.list().map((p) => p.id)).toEqual([a.preset.id]);
    const problems = again.problems();
    const messageOf = (id: string) => problems.find((p) => p.file === presetFile(id))?.message;
    expect(problems).toHaveLength(2);
    expect(messageOf('deep')).toContain('(extra: unknown field (the fields here are `format`, `version`, ');
    expect(messageOf('folder')).toContain('it is a folder, not a file');
    expect(again.problems().every((p) => p.keptAs !== null && fs.existsSync(p.keptAs))).toBe(true);
    const saved = again.save(draft('after'));
    expect(saved.ok).toBe(true);
    expect(
      open()
        .list()
        .map((p) => p.name),
    ).toEqual(['alpha', 'after']);
  });

  it('moves the presets of an earlier presets.json into one file each, keeping the old file aside', () => {
    // Earlier versions kept every preset in presets.json (conf's format).
    const older = open();
    const a = older.save(draft('alpha'));
    const b = older.save(draft('beta'));
    if (!a.ok || !b.ok) throw new Error('not saved');
    const list = [storedPreset(a.preset.id), { ...storedPreset(b.preset.id), id: 'broken id!' }];
    fs.rmSync(presetsDir(), { recursive: true });
    fs.writeFileSync(legacyFile(), legacyDoc(list));

    const store = open();
    expect(store.list().map((p) => [p.id, p.name])).toEqual([[a.preset.id, 'alpha']]);
    expect(fs.existsSync(legacyFile())).toBe(false);
    const [kept] = legacyAside();
    expect(kept).toMatch(/^presets\.migrated-.*\.json$/);
    expect(fs.readFileSync(path.join(dir, kept!), 'utf8')).toBe(legacyDoc(list));
    // The preset it could not read stays in the old file, and the user is told where.
    const [problem] = store.problems();
    expect(problem!.keptAs).toBe(path.join(dir, kept!));
    expect(problem!.message).toContain('preset 2 of presets.json: id: preset id is malformed');
    expect(problem!.message).toContain(`It is kept in ${path.join(dir, kept!)}`);
    // Later starts have nothing to migrate.
    const again = open();
    expect(again.list().map((p) => p.name)).toEqual(['alpha']);
    expect(again.problems()).toEqual([]);
  });

  it('starts with a presets.json that nests too deep in one preset, or that is a folder', () => {
    const older = open();
    const a = older.save(draft('alpha'));
    if (!a.ok) throw new Error('not saved');
    const good = fs.readFileSync(presetFile(a.preset.id), 'utf8');
    fs.rmSync(presetsDir(), { recursive: true });
    const deep = `${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}`;
    fs.writeFileSync(legacyFile(), `{"presets": [${good}, {"format": "trebuchet-preset", "x": ${deep}}]}`);
    const store = open();
    expect(store.list().map((p) => p.name)).toEqual(['alpha']);
    expect(store.problems()[0]!.message).toContain('preset 2 of presets.json nests deeper than 64 levels');
    expect(store.save(draft('beta')).ok).toBe(true);

    fs.mkdirSync(legacyFile());
    const next = open();
    expect(next.list().map((p) => p.name)).toEqual(['alpha', 'beta']);
    expect(next.problems()[0]!.message).toContain(
      'The presets file could not be read (it is a folder, not a file)',
    );
    expect(fs.statSync(next.problems()[0]!.keptAs!).isDirectory()).toBe(true);
  });

  it('sets aside an earlier presets.json that is JSON but not a preset list', () => {
    for (const content of ['[1,2]', '{"presets": 3}', '{ not json']) {
      fs.writeFileSync(legacyFile(), content);
      const s = open();
      expect(s.list(), content).toEqual([]);
      expect(s.problems(), content).toHaveLength(1);
      expect(s.problems()[0]!.keptAs, content).toMatch(/presets\.broken-.*\.json$/);
    }
    expect(legacyAside()).toHaveLength(3);
  });

  it('migrates an older preset version and keeps the new ids across restarts', () => {
    const v1 = {
      format: PRESET_FORMAT,
      version: 1,
      name: 'legacy',
      savedAt: '2024-05-05T05:05:05.000Z',
      scenario: { targets: [{ url: 'http://127.0.0.1:1/' }] },
    };
    fs.writeFileSync(legacyFile(), legacyDoc([v1]));
    const store = open();
    const [p] = store.list();
    expect(p).toMatchObject({ name: 'legacy', createdAt: '2024-05-05T05:05:05.000Z', kind: 'run' });
    expect(presetFiles()).toEqual([`${p!.id}.preset.json`]);
    expect(storedPreset(p!.id)).toMatchObject({ version: PRESET_VERSION, id: p!.id });
    expect(open().list()[0]!.id).toBe(p!.id);
    expect(store.problems()).toEqual([]);
    // Two hosts migrating the same file give the version-1 preset the same id: no duplicate.
    fs.writeFileSync(legacyFile(), legacyDoc([v1]));
    expect(
      open()
        .list()
        .map((x) => x.id),
    ).toEqual([p!.id]);
  });

  it('removes at start the temporary files of a killed writer, keeping one a live process is writing', () => {
    const store = open();
    const a = store.save(draft('alpha'));
    if (!a.ok) throw new Error('not saved');
    const deadPid = spawnSync(process.execPath, ['-e', '']).pid;
    const killed = `.${a.preset.id}.preset.json.${deadPid}.0badc0de.tmp`;
    const writing = `.${a.preset.id}.preset.json.${process.pid}.0badc0df.tmp`;
    for (const name of [killed, writing]) fs.writeFileSync(path.join(presetsDir(), name), '{"half": ');
    const again = open();
    expect(presetFiles()).toEqual([writing, `${a.preset.id}.preset.json`]);
    expect(again.list().filter((p) => p.source === 'user')).toHaveLength(1);
    expect(again.problems()).toEqual([]);
  });

  it('re-reads the file when another process changed it', () => {
    const web = open();
    const cli = open();
    cli.save(draft('from the CLI'));
    expect(web.list().map((p) => p.name)).toEqual(['from the CLI']);
  });
});

describe('preset store secrets', () => {
  const secret = [{ name: 'Authorization', value: 'Bearer hunter2' }];

  it('refuses plain-text secrets without consent, and writes nothing', () => {
    const store = open();
    const r = store.save(draft('api', secret));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.reason).toBe('secrets-need-consent');
    expect(r.secrets).toEqual([
      { targetIndex: 0, headerIndex: 0, target: '127.0.0.1:8080', header: 'Authorization' },
    ]);
    expect(r.message).toContain('Authorization on 127.0.0.1:8080');
    expect(r.message).toContain('plain text');
    expect(store.list()).toEqual([]);
    expect(presetFiles()).toEqual([]);
    expect(store.secretStorage()).toBe('plaintext');
  });

  it('writes them as plain text with consent, or leaves them out', () => {
    const store = open();
    const plain = store.save(draft('plain', secret), { allowPlaintextSecrets: true });
    const omitted = store.save(draft('omitted', secret), { omitSecrets: true });
    expect(plain.ok && omitted.ok).toBe(true);
    if (!plain.ok || !omitted.ok) return;
    expect(fs.readFileSync(presetFile(plain.preset.id), 'utf8')).toContain('Bearer hunter2');
    expect(fs.readFileSync(presetFile(omitted.preset.id), 'utf8')).not.toContain('hunter2');
    const o = store.get(omitted.preset.id);
    expect(o.kind === 'run' && o.scenario.targets[0]!.headers).toEqual([
      { name: 'Authorization', value: '' },
    ]);
    expect(omitted.preset.secretCount).toBe(0);
    expect(plain.preset.secretCount).toBe(1);
    // A cipher that exists but is unavailable (Linux without a keyring) asks too.
    expect(open({ cipher: fakeCipher('k1', false) }).save(draft('x', secret)).ok).toBe(false);
  });

  it('encrypts them with a cipher: not in the file, readable after a restart', () => {
    const cipher = fakeCipher();
    const store = open({ cipher });
    expect(store.secretStorage()).toBe('encrypted');
    const r = store.save(draft('api', [...secret, { name: 'Accept', value: 'text/html' }]));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const text = fs.readFileSync(presetFile(r.preset.id), 'utf8');
    expect(text).not.toContain('hunter2');
    expect(text).not.toContain(Buffer.from('Bearer hunter2').toString('base64'));
    expect(text).toContain('"sealed"');
    expect(text).toContain('text/html');
    const p = open({ cipher }).get(r.preset.id);
    expect(p.kind === 'run' && p.scenario.targets[0]!.headers).toEqual([
      { name: 'Authorization', value: 'Bearer hunter2' },
      { name: 'Accept', value: 'text/html' },
    ]);
  });

  it('keeps values it cannot decrypt sealed, reports them, and loses nothing on later writes', () => {
    const saved = open({ cipher: fakeCipher('k1') }).save(draft('api', secret));
    if (!saved.ok) throw new Error('not saved');
    const other = open({ cipher: fakeCipher('k2') });
    const summary = other.list()[0]!;
    expect(summary.secretsUnavailable).toBe(true);
    expect(other.problems()[0]!.message).toContain('could not be decrypted');
    expect(other.problems()[0]!.keptAs).toBeNull();
    const p = other.get(saved.preset.id);
    expect(p.kind === 'run' && p.scenario.targets[0]!.headers[0]!.value).toBe('');
    other.save(draft('second'));
    other.rename(saved.preset.id, 'renamed');
    const back = open({ cipher: fakeCipher('k1') }).get(saved.preset.id);
    expect(back.name).toBe('renamed');
    expect(back.kind === 'run' && back.scenario.targets[0]!.headers[0]!.value).toBe('Bearer hunter2');
  });

  it('asks before exporting secrets; export and import round-trip', async () => {
    const store = open({ cipher: fakeCipher() });
    const r = store.save({ ...draft('api', secret), description: 'shared setup' });
    if (!r.ok) throw new Error('not saved');
    const ask = store.exportText(r.preset.id);
    expect(ask.ok).toBe(false);
    expect(!ask.ok && ask.message).toContain('An exported file keeps them as plain text');
    const out = path.join(dir, 'export.json');
    const ex = await store.exportFile(r.preset.id, out, { omitSecrets: true });
    expect(ex.ok && ex.fileName).toBe('api.trebuchet-preset.json');
    expect(fs.readFileSync(out, 'utf8')).not.toContain('hunter2');

    const other = new PresetStore({ dir: fs.mkdtempSync(path.join(dir, 'other-')), now, newId });
    const imported = await other.importFile(out);
    expect(imported.ok).toBe(true);
    if (!imported.ok) return;
    expect(imported.preset.id).not.toBe(r.preset.id);
    const p = other.get(imported.preset.id);
    expect(p.description).toBe('shared setup');
    expect(p.kind === 'run' && p.scenario.load.model === 'closed' && p.scenario.load.connections).toBe(7);

    const withSecret = store.exportText(r.preset.id, { allowPlaintextSecrets: true });
    expect(withSecret.ok && withSecret.text).toContain('Bearer hunter2');
    // Importing a file with secrets into a plain-text store asks as well.
    expect(other.importText(withSecret.ok ? withSecret.text : '').ok).toBe(false);
  });

  it('refuses broken import files with the field named', () => {
    const store = open();
    expect(() => store.importText('{"format": "trebuchet-preset", "version": 2')).toThrow(
      'preset file is invalid: the file is not valid JSON (truncated, or edited by hand?)',
    );
    expect(() => store.importText('{"targets": [{"url": "http://x/", "method": "FETCH"}]}')).toThrow(
      /targets\.0\.method/,
    );
    expect(store.importText('{"name": "bare", "targets": [{"url": "http://127.0.0.1/"}]}').ok).toBe(true);
    expect(store.list().map((p) => p.name)).toEqual(['bare']);
  });
});
