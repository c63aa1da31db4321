import fs from 'node:fs';
import path from 'node:path';
import { describeIssues, parseWith, ValidationError } from '../../shared/model/validation.ts';
import type { StoreProblem } from '../../shared/records/preset-summary.ts';
import {
  defaultSettings,
  MAX_SETTINGS_BYTES,
  migrateSettings,
  SETTINGS_MIGRATIONS,
  SETTINGS_VERSION,
  settingsSchema,
  settingsVersionSchema,
  uiSettingsSchema,
  type Settings,
  type SettingsMigrations,
  type UiSettings,
  type UiSettingsPatch,
  type WindowBounds,
} from '../../shared/records/settings.ts';
import { FileProblemError, readBoundedFileSync, textOf } from '../files/bounded-file.ts';
import { moveAside, parseJsonText, removeStaleTempFiles, writeFileAtomicSync } from './files.ts';

/*
 * A host's settings (shared/records/settings.ts): the desktop keeps them with electron-store
 * (desktop-settings.ts), the web host and the CLI in <dataDir>/web-settings.json (here). Both
 * validate what they read with the one schema and set a file that fails it aside, reported,
 * starting from the defaults: a broken file is never lost silently.
 */

export interface SettingsStore {
  /** The file the settings are kept in. */
  readonly path: string;
  ui(): UiSettings;
  /** Replaces the parts of the UI's settings given; throws a ValidationError naming a bad field. */
  setUi(patch: UiSettingsPatch): UiSettings;
  window(): WindowBounds | null;
  setWindow(bounds: WindowBounds): void;
  /** Files set aside since the store opened. */
  problems(): StoreProblem[];
}

/** The web host's file: a name of its own, so a desktop pointed at the same folder never shares it. */
export const WEB_SETTINGS_FILE = 'web-settings.json';

/** The settings with `patch` applied, validated; throws a ValidationError naming the field. */
export function patchedSettings(current: Settings, patch: UiSettingsPatch): Settings {
  const ui = parseWith(uiSettingsSchema, { ...current.ui, ...patch });
  if (!ui.ok)
    throw new ValidationError(
      'settings',
      ui.issues.map((i) => ({ ...i, path: `ui.${i.path}` })),
    );
  return { ...current, ui: ui.value };
}

/** The settings as a file's text; refused past MAX_SETTINGS_BYTES (a draft holding big picked files). */
export function settingsText(doc: Record<string, unknown>): string {
  const text = `${JSON.stringify(doc, null, 2)}\n`;
  const bytes = Buffer.byteLength(text);
  if (bytes > MAX_SETTINGS_BYTES) {
    throw new ValidationError('settings', [
      { path: 'ui', message: `the settings would be ${bytes} bytes; they are at most ${MAX_SETTINGS_BYTES}` },
    ]);
  }
  return text;
}

/** Why a stored value is not the current settings (the schema's words); null when it is. */
export function whyNotSettings(value: unknown): string | null {
  const parsed = parseWith(settingsSchema, value);
  return parsed.ok ? null : describeIssues(parsed.issues);
}

/** The problem a settings file set aside is reported as. */
export function settingsProblem(file: string, keptAs: string | null, why: string, at: Date): StoreProblem {
  return {
    store: 'settings',
    file,
    keptAs,
    message: `The settings could not be read (${why}).${keptAs ? ` They were kept as ${keptAs};` : ''} The app started from its defaults.`,
    at: at.toISOString(),
  };
}

export interface FileSettingsOptions {
  dir: string;
  now?: () => Date;
  /** The version this build writes, and the migrations to it: the current ones unless a test says. */
  version?: number;
  migrations?: SettingsMigrations;
}

/**
 * The web host's settings: one JSON file ({ version, ui, window }), read at start and again
 * when it changed on disk, written whole, atomically (temp file and rename), on every change. An older version's file
 * is migrated; a file that cannot be read, a newer version's, or one the schema refuses is
 * renamed aside (web-settings.broken-<time>.json) and reported.
 */
export class FileSettingsStore implements SettingsStore {
  readonly path: string;
  #settings: Settings = defaultSettings();
  /** The version of the file read or written last (null: none), so a file changed on disk is read again. */
  #stamp: string | null = null;
  readonly #problems: StoreProblem[] = [];
  readonly #version: number;
  readonly #migrations: SettingsMigrations;
  readonly #now: () => Date;

  constructor(opts: FileSettingsOptions) {
    this.#now = opts.now ?? (() => new Date());
    this.path = path.join(opts.dir, WEB_SETTINGS_FILE);
    this.#version = opts.version ?? SETTINGS_VERSION;
    this.#migrations = opts.migrations ?? SETTINGS_MIGRATIONS;
    // A kill -9 mid-write leaves its temp file (.web-settings.json.<pid>.<n>.tmp): gone at start, as the other stores' are.
    removeStaleTempFiles(opts.dir);
    this.#current();
  }

  #fileStamp(): string | null {
    const st = fs.statSync(this.path, { throwIfNoEntry: false });
    return st ? `${st.ino}:${st.size}:${st.mtimeMs}` : null;
  }

  /** The settings as on disk now: read again when the file changed (edited by hand, removed). */
  #current(): Settings {
    const stamp = this.#fileStamp();
    if (stamp === this.#stamp) return this.#settings;
    const read = this.#read(this.#migrations);
    if (read.ok) {
      this.#settings = read.settings;
    } else {
      this.#settings = defaultSettings();
      if (read.why !== null) {
        const at = this.#now();
        this.#problems.push(settingsProblem(this.path, moveAside(this.path, at), read.why, at));
      }
    }
    this.#stamp = this.#fileStamp();
    return this.#settings;
  }

  #read(
    migrations: SettingsMigrations,
  ): { ok: true; settings: Settings } | { ok: false; why: string | null } {
    let text: string;
    try {
      text = textOf(readBoundedFileSync(this.path, MAX_SETTINGS_BYTES, 'a settings file'));
    } catch (err) {
      if (!(err instanceof FileProblemError)) throw err;
      return { ok: false, why: err.code === 'ENOENT' ? null : `it ${err.problem}` };
    }
    const json = parseJsonText(text);
    if (!json.ok) return { ok: false, why: json.message };
    if (typeof json.value !== 'object' || json.value === null || Array.isArray(json.value)) {
      return { ok: false, why: 'the file does not hold an object' };
    }
    const { version, ...doc } = json.value as Record<string, unknown>;
    const v = settingsVersionSchema.safeParse(version);
    if (!v.success) return { ok: false, why: 'the file has no valid "version"' };
    if (v.data > this.#version) {
      return { ok: false, why: `the file is of version ${v.data}, newer than this app's ${this.#version}` };
    }
    const migrated = migrateSettings(doc, v.data, this.#version, migrations);
    const parsed = parseWith(settingsSchema, migrated);
    return parsed.ok
      ? { ok: true, settings: parsed.value }
      : { ok: false, why: describeIssues(parsed.issues) };
  }

  #write(next: Settings): void {
    writeFileAtomicSync(this.path, settingsText({ version: this.#version, ...next }));
    this.#settings = next;
    this.#stamp = this.#fileStamp();
  }

  ui(): UiSettings {
    return this.#current().ui;
  }

  setUi(patch: UiSettingsPatch): UiSettings {
    this.#write(patchedSettings(this.#current(), patch));
    return this.#settings.ui;
  }

  window(): WindowBounds | null {
    return this.#current().window;
  }

  setWindow(bounds: WindowBounds): void {
    this.#write({ ...this.#current(), window: bounds });
  }

  problems(): StoreProblem[] {
    return [...this.#problems];
  }
}
