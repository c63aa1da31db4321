import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DesktopSettingsStore } from '../../electron/stores/desktop-settings.ts';
import {
  FileSettingsStore,
  WEB_SETTINGS_FILE,
  type SettingsStore,
} from '../../electron/stores/settings-store.ts';
import { parseWith } from '../../shared/model/validation.ts';
import { scenarioSchema } from '../../shared/model/scenario.ts';
import {
  defaultSettings,
  MAX_SETTINGS_BYTES,
  settingsSchema,
  uiSettingsSchema,
  type SettingsMigrations,
} from '../../shared/records/settings.ts';

// electron-store reads app and ipcMain from electron's default export; without them it needs
// an absolute cwd, which the store always gives (userData), so no Electron runs here.
vi.mock('electron', () => ({ default: {} }));

const scenario = scenarioSchema.parse({ name: 'kept', targets: [{ url: 'http://127.0.0.1:8080/' }] });
const at = new Date('2026-01-02T03:04:05.678Z');

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'trebuchet-settings-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A version 1 document as an older build kept it: the window as `bounds`, no maximized flag. */
const oldWindow = { bounds: { x: 10, y: 20, width: 1000, height: 700 } };
const toV2: SettingsMigrations = {
  2: ({ bounds, ...rest }) => ({ ...rest, window: { ...(bounds as object), maximized: false } }),
};

describe('the settings schema', () => {
  it('accepts the defaults and a kept draft, and reads back what it wrote', () => {
    const settings = {
      ...defaultSettings(),
      ui: {
        ...defaultSettings().ui,
        view: 'compare',
        drafts: { run: { content: scenario, edited: true }, compare: null, capacity: null },
      },
    };
    const parsed = parseWith(settingsSchema, JSON.parse(JSON.stringify(settings)));
    expect(parsed.ok).toBe(true);
    if (parsed.ok) expect(parsed.value.ui.drafts.run?.content.targets[0]?.url).toBe('http://127.0.0.1:8080/');
  });

  it('refuses an unknown field, a bad view and an empty column list, naming each', () => {
    const r = parseWith(uiSettingsSchema, {
      ...defaultSettings().ui,
      theme: 'dark',
      view: 'nowhere',
      matrixColumns: [],
    });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    const paths = r.issues.map((i) => i.path).sort();
    expect(paths).toEqual(['matrixColumns', 'theme', 'view']);
    expect(r.issues.find((i) => i.path === 'theme')?.message).toContain('unknown field');
  });
});

function suite(
  name: string,
  open: (opts?: { version?: number; migrations?: SettingsMigrations }) => SettingsStore,
) {
  describe(name, () => {
    it('starts from the defaults, keeps what is set and reads it back in a new store', () => {
      const store = open();
      expect(store.ui()).toEqual(defaultSettings().ui);
      expect(store.window()).toBeNull();
      store.setUi({
        view: 'capacity',
        drafts: { run: { content: scenario, edited: true }, compare: null, capacity: null },
      });
      store.setWindow({ x: -1200, y: 40, width: 1280, height: 860, maximized: true });
      const again = open();
      expect(again.ui().view).toBe('capacity');
      expect(again.ui().drafts.run?.content.name).toBe('kept');
      expect(again.ui().drafts.run?.edited).toBe(true);
      expect(again.window()).toEqual({ x: -1200, y: 40, width: 1280, height: 860, maximized: true });
      expect(again.problems()).toEqual([]);
    });

    it('refuses a bad patch naming the field, and keeps what it had', () => {
      const store = open();
      store.setUi({ view: 'history' });
      expect(() => store.setUi({ matrixColumns: ['nope' as never] })).toThrow(/ui\.matrixColumns\.0/);
      expect(open().ui().view).toBe('history');
    });

    it('refuses settings past the size bound', () => {
      const store = open();
      // Three targets of 3 MB of body text each: every field is within its own limit, the whole is not.
      const target = {
        ...scenario.targets[0]!,
        body: { kind: 'text' as const, text: 'y'.repeat(3_000_000) },
      };
      const huge = { ...scenario, targets: [target, target, target] };
      expect(() =>
        store.setUi({ drafts: { run: { content: huge, edited: true }, compare: null, capacity: null } }),
      ).toThrow(new RegExp(`at most ${MAX_SETTINGS_BYTES}`));
      expect(open().ui().drafts.run).toBeNull();
    });
  });
}

const desktop = (opts: { version?: number; migrations?: SettingsMigrations } = {}) =>
  new DesktopSettingsStore({ dir, now: () => at, ...opts });
const web = (opts: { version?: number; migrations?: SettingsMigrations } = {}) =>
  new FileSettingsStore({ dir, now: () => at, ...opts });

suite('the desktop settings (electron-store)', desktop);
suite("the web host's settings file", web);

describe('the desktop settings (electron-store) on old and broken files', () => {
  const file = () => path.join(dir, 'settings.json');

  it('runs its electron-store migration on a version 1 file and records version 2', () => {
    fs.writeFileSync(
      file(),
      JSON.stringify({
        ...oldWindow,
        ui: defaultSettings().ui,
        __internal__: { migrations: { version: '1.0.0' } },
      }),
    );
    const store = desktop({ version: 2, migrations: toV2 });
    expect(store.problems()).toEqual([]);
    expect(store.window()).toEqual({ x: 10, y: 20, width: 1000, height: 700, maximized: false });
    const onDisk = JSON.parse(fs.readFileSync(file(), 'utf8')) as Record<string, unknown>;
    expect(onDisk.bounds).toBeUndefined();
    expect(onDisk.__internal__).toEqual({ migrations: { version: '2.0.0' } });
  });

  it('sets a file that is not JSON aside and starts from the defaults', () => {
    fs.writeFileSync(file(), '{"ui": {"view": "run"');
    const store = desktop();
    expect(store.ui()).toEqual(defaultSettings().ui);
    const [problem] = store.problems();
    expect(problem?.store).toBe('settings');
    expect(problem?.keptAs).toBe(path.join(dir, 'settings.broken-2026-01-02T03-04-05-678Z.json'));
    expect(fs.readFileSync(problem!.keptAs!, 'utf8')).toBe('{"ui": {"view": "run"');
    store.setUi({ view: 'presets' });
    expect(desktop().ui().view).toBe('presets');
  });

  it('sets a file the schema refuses aside, saying which field', () => {
    fs.writeFileSync(
      file(),
      JSON.stringify({ ui: { ...defaultSettings().ui, view: 'elsewhere' }, window: null }),
    );
    const store = desktop();
    expect(store.ui().view).toBe('run');
    expect(store.problems()[0]?.message).toMatch(/ui\.view/);
    expect(fs.existsSync(store.problems()[0]!.keptAs!)).toBe(true);
  });
});

describe("the web host's settings file on old and broken files", () => {
  const file = () => path.join(dir, WEB_SETTINGS_FILE);

  it('migrates a version 1 file', () => {
    fs.writeFileSync(file(), JSON.stringify({ version: 1, ...oldWindow, ui: defaultSettings().ui }));
    const store = web({ version: 2, migrations: toV2 });
    expect(store.problems()).toEqual([]);
    expect(store.window()).toEqual({ x: 10, y: 20, width: 1000, height: 700, maximized: false });
    store.setUi({ view: 'history' });
    expect(JSON.parse(fs.readFileSync(file(), 'utf8'))).toMatchObject({
      version: 2,
      window: { maximized: false },
    });
  });

  it('removes at start the temp files a writer killed mid-write left, not one a live process writes', () => {
    // The pid of a process that has ended: what `kill -9` during a save leaves in the name.
    const deadPid = spawnSync(process.execPath, ['-e', '']).pid;
    const killed = path.join(dir, `.${WEB_SETTINGS_FILE}.${deadPid}.0badc0de.tmp`);
    const writing = path.join(dir, `.${WEB_SETTINGS_FILE}.${process.pid}.0badc0df.tmp`);
    for (const f of [killed, writing]) fs.writeFileSync(f, '{"version": 2, "ui": ');
    const store = web();
    expect(fs.readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([path.basename(writing)]);
    expect(store.problems()).toEqual([]);
  });

  it('reads the file again when it changed on disk, and starts over when it is removed', () => {
    const store = web();
    store.setUi({ view: 'history' });
    const edited = { version: 1, ...defaultSettings(), ui: { ...defaultSettings().ui, view: 'presets' } };
    fs.writeFileSync(file(), JSON.stringify(edited));
    expect(store.ui().view).toBe('presets');
    fs.rmSync(file());
    expect(store.ui().view).toBe('run');
    expect(store.problems()).toEqual([]);
  });

  it('sets aside a broken file, and a newer version it cannot read', () => {
    fs.writeFileSync(file(), 'not json');
    const broken = web();
    expect(broken.problems()[0]?.message).toContain('not valid JSON');
    fs.writeFileSync(file(), JSON.stringify({ version: 9, ...defaultSettings() }));
    const newer = web();
    expect(newer.problems()[0]?.message).toContain('version 9, newer');
    expect(fs.readdirSync(dir).filter((f) => f.includes('.broken-'))).toHaveLength(2);
    expect(newer.ui()).toEqual(defaultSettings().ui);
  });
});
