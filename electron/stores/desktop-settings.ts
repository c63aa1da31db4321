import ElectronStore from 'electron-store';
import fs from 'node:fs';
import path from 'node:path';
import { parseWith } from '../../shared/model/validation.ts';
import type { StoreProblem } from '../../shared/records/preset-summary.ts';
import {
  defaultSettings,
  SETTINGS_MIGRATIONS,
  SETTINGS_VERSION,
  settingsSchema,
  type Settings,
  type SettingsMigrations,
  type UiSettings,
  type UiSettingsPatch,
  type WindowBounds,
} from '../../shared/records/settings.ts';
import { moveAside } from './files.ts';
import {
  patchedSettings,
  settingsProblem,
  settingsText,
  whyNotSettings,
  type SettingsStore,
} from './settings-store.ts';

/** electron-store's file in userData: settings.json. */
const STORE_NAME = 'settings';

export interface DesktopSettingsOptions {
  /** The folder of the file: app.getPath('userData'). */
  dir: string;
  now?: () => Date;
  /** The version this build writes, and the migrations to it: the current ones unless a test says. */
  version?: number;
  migrations?: SettingsMigrations;
}

/** A semantic version per settings version: electron-store runs `migrations` by it, not by the app's version. */
const semver = (version: number): string => `${version}.0.0`;

/**
 * Our pure migrations (one document to the next) as electron-store's, which change the
 * store in place: each key the migration dropped is deleted, each it returned is set.
 */
function storeMigrations(migrations: SettingsMigrations, upTo: number) {
  type Migrating = Pick<ElectronStore<Record<string, unknown>>, 'store' | 'set' | 'delete'>;
  const out: Record<string, (store: Migrating) => void> = {};
  for (const [version, step] of Object.entries(migrations)) {
    if (Number(version) > upTo) continue;
    out[semver(Number(version))] = (store) => {
      const next = step({ ...store.store });
      for (const key of Object.keys(store.store)) if (!(key in next)) store.delete(key);
      for (const [key, value] of Object.entries(next)) store.set(key, value);
    };
  }
  return out;
}

/**
 * The desktop's settings in userData/settings.json, kept by electron-store with its own
 * versioned `migrations` and validated with the settings schema once open. A file
 * electron-store cannot open (not JSON, a failing migration) or one the schema refuses is
 * renamed aside (settings.broken-<time>.json), reported, and the app starts from defaults.
 */
export class DesktopSettingsStore implements SettingsStore {
  readonly path: string;
  readonly #store: ElectronStore<Record<string, unknown>>;
  readonly #problems: StoreProblem[] = [];
  #settings: Settings;

  constructor(opts: DesktopSettingsOptions) {
    const now = opts.now ?? (() => new Date());
    const version = opts.version ?? SETTINGS_VERSION;
    this.path = path.join(opts.dir, `${STORE_NAME}.json`);
    const open = () =>
      new ElectronStore<Record<string, unknown>>({
        name: STORE_NAME,
        cwd: opts.dir,
        projectVersion: semver(version),
        migrations: storeMigrations(opts.migrations ?? SETTINGS_MIGRATIONS, version),
        // Keys hold no dots we would want read as paths (a draft's header names may have them).
        accessPropertiesByDotNotation: false,
        // Never cleared silently: a file it cannot read is set aside below instead.
        clearInvalidConfig: false,
        configFileMode: 0o600,
      });
    const setAside = (why: string): void => {
      const at = now();
      this.#problems.push(settingsProblem(this.path, moveAside(this.path, at), why, at));
    };
    let store: ElectronStore<Record<string, unknown>>;
    try {
      store = open();
    } catch (error) {
      if (!fs.existsSync(this.path)) throw error;
      setAside(error instanceof Error ? error.message : String(error));
      store = open();
    }
    const stored = store.store;
    const parsed = parseWith(settingsSchema, Object.keys(stored).length === 0 ? defaultSettings() : stored);
    if (parsed.ok) {
      this.#settings = parsed.value;
    } else {
      setAside(whyNotSettings(stored) ?? 'the schema refused it');
      store = open();
      this.#settings = defaultSettings();
    }
    this.#store = store;
  }

  #write(next: Settings): void {
    settingsText(next); // the size bound, as the web host's file has it
    // One write of both keys.
    this.#store.set({ ui: next.ui, window: next.window });
    this.#settings = next;
  }

  ui(): UiSettings {
    return this.#settings.ui;
  }

  setUi(patch: UiSettingsPatch): UiSettings {
    this.#write(patchedSettings(this.#settings, patch));
    return this.#settings.ui;
  }

  window(): WindowBounds | null {
    return this.#settings.window;
  }

  setWindow(bounds: WindowBounds): void {
    this.#write({ ...this.#settings, window: bounds });
  }

  problems(): StoreProblem[] {
    return [...this.#problems];
  }
}
