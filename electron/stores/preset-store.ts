import Conf from 'conf';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import {
  describeSecrets,
  isRecord,
  parsePresetFile,
  presetDraftSchema,
  presetFileName,
  presetNameSchema,
  PRESET_FORMAT,
  PRESET_VERSION,
  secretHeadersOf,
  summarizePreset,
  type ExportOutcome,
  type Preset,
  type PresetDraftInput,
  type PresetSummary,
  type SaveOutcome,
  type SecretOptions,
  type SecretRef,
  type StoreProblem,
} from '../../shared/presets.ts';
import { describeIssues, parseOrThrow, ValidationError } from '../../shared/validation.ts';
import { moveAside, parseJsonText, PRIVATE_FILE_MODE, writeFileAtomic } from './files.ts';
import {
  clearSecrets,
  decideSecretHandling,
  jsonCopy,
  sealSecrets,
  transplantSealed,
  unsealSecrets,
  type SecretCipher,
} from './secrets.ts';

/** conf's project name: its default directory is ~/.config/trebuchet-nodejs on Linux. */
export const APP_NAME = 'trebuchet';
const CONFIG_NAME = 'presets';
/** An imported preset is a few kilobytes; refuse anything that cannot be one before reading it. */
const MAX_IMPORT_BYTES = 5 * 1024 * 1024;

/**
 * presets.json, in conf's (and electron-store's) format: one JSON object whose "presets"
 * key lists the user's presets, each in the preset file format (shared/presets.ts), with
 * secret header values either sealed ({ value: "", sealed }) or, when the user allowed it,
 * in plain text.
 */
export interface PresetFileShape {
  presets?: unknown[];
}

/** What the store needs from conf or electron-store. */
export interface PresetBackend {
  readonly path: string;
  set(key: 'presets', value: unknown[]): void;
}

export interface PresetBackendOptions {
  /** Directory of the file; undefined = conf's default config directory for APP_NAME. */
  cwd: string | undefined;
  configName: string;
  /**
   * Never throws: this store reads and validates the file itself (conf would either throw
   * or, with clearInvalidConfig, wipe it), so conf only ever sees a readable object.
   */
  deserialize: (text: string) => PresetFileShape;
  configFileMode: number;
}

export type OpenPresetBackend = (opts: PresetBackendOptions) => PresetBackend;

/** The web host's and CLI's backend: conf. The desktop passes electron-store (electron-adapter.ts). */
export const openConfBackend: OpenPresetBackend = (o) =>
  new Conf<PresetFileShape>({
    projectName: APP_NAME,
    cwd: o.cwd,
    configName: o.configName,
    deserialize: o.deserialize,
    configFileMode: o.configFileMode,
    clearInvalidConfig: false,
  });

export interface PresetStoreOptions {
  /** Directory of presets.json; the backend's default when omitted. */
  dir?: string;
  backend?: OpenPresetBackend;
  /** Encrypts secret header values; null or unavailable = plain text only (asks first). */
  cipher?: SecretCipher | null;
  /** Read-only presets listed before the user's (see built-in-presets.ts). */
  builtIns?: readonly Preset[];
  now?: () => Date;
  newId?: () => string;
}

export class PresetNotFoundError extends Error {
  readonly code = 'not-found';
  constructor(id: string) {
    super(`there is no preset with id ${id}`);
    this.name = 'PresetNotFoundError';
  }
}

export class ReadOnlyPresetError extends Error {
  readonly code = 'read-only';
  constructor(name: string) {
    super(`"${name}" is a built-in preset and cannot be changed; duplicate it and change the copy`);
    this.name = 'ReadOnlyPresetError';
  }
}

interface Entry {
  /** As stored in the file (secrets sealed, or plain when the user allowed it). */
  raw: Record<string, unknown>;
  /** As the app uses it (secrets decrypted). */
  preset: Preset;
  /** Some sealed values could not be decrypted here; raw keeps them sealed. */
  locked: boolean;
}

/**
 * The user's presets: save, load, list, rename, duplicate, delete, import and export. The
 * file is re-read when it changes on disk (the CLI and the web host may share it) and
 * validated on every read: a file that is not JSON or breaks the schema is renamed aside
 * (presets.broken-<time>.json), reported in problems(), and the store starts empty.
 */
export class PresetStore {
  /** The store file. */
  readonly path: string;
  private readonly backend: PresetBackend;
  private readonly cipher: SecretCipher | null;
  private readonly builtIns: ReadonlyMap<string, Preset>;
  private readonly now: () => Date;
  private readonly newId: () => string;
  private readonly problemList: StoreProblem[] = [];
  private readonly problemKeys = new Set<string>();
  private cache: { stamp: string; entries: Entry[] } | null = null;

  constructor(opts: PresetStoreOptions = {}) {
    this.cipher = opts.cipher ?? null;
    this.builtIns = new Map((opts.builtIns ?? []).map((p) => [p.id, p]));
    this.now = opts.now ?? (() => new Date());
    this.newId = opts.newId ?? (() => globalThis.crypto.randomUUID());
    this.backend = (opts.backend ?? openConfBackend)({
      cwd: opts.dir,
      configName: CONFIG_NAME,
      deserialize: (text) => {
        const r = parseJsonText(text);
        return r.ok && isRecord(r.value) ? r.value : {};
      },
      configFileMode: PRIVATE_FILE_MODE,
    });
    this.path = this.backend.path;
    // Read once now so a broken file is set aside and reported at start-up.
    this.read();
  }

  /** Files set aside and values that could not be decrypted, oldest first. */
  problems(): readonly StoreProblem[] {
    return [...this.problemList];
  }

  /** How secret header values are kept: encrypted (desktop with a keychain) or plain text (asks first). */
  secretStorage(): 'encrypted' | 'plaintext' {
    return this.cipher?.available() === true ? 'encrypted' : 'plaintext';
  }

  /** Built-in presets first, then the user's in the order they were created. */
  list(): PresetSummary[] {
    return [
      ...[...this.builtIns.values()].map((p) => summarizePreset(p, 'built-in')),
      ...this.read().map((e) => summarizePreset(e.preset, 'user', e.locked)),
    ];
  }

  /** True for a preset shipped with the app (read-only). */
  isBuiltIn(id: string): boolean {
    return this.builtIns.has(id);
  }

  /** A preset with its secret values decrypted. */
  get(id: string): Preset {
    const builtIn = this.builtIns.get(id);
    if (builtIn) return jsonCopy(builtIn);
    const entry = this.read().find((e) => e.preset.id === id);
    if (!entry) throw new PresetNotFoundError(id);
    return jsonCopy(entry.preset);
  }

  /**
   * Saves a new preset, or replaces the content of the user preset `id`. The draft is
   * validated (a ValidationError names each bad field).
   */
  save(draft: PresetDraftInput, opts: SecretOptions & { id?: string } = {}): SaveOutcome {
    const d = parseOrThrow(presetDraftSchema, draft, 'preset');
    const entries = [...this.read()];
    const now = this.now().toISOString();
    let index = entries.length;
    let createdAt = now;
    let id = this.newId();
    if (opts.id !== undefined) {
      const builtIn = this.builtIns.get(opts.id);
      if (builtIn) throw new ReadOnlyPresetError(builtIn.name);
      index = entries.findIndex((e) => e.preset.id === opts.id);
      if (index < 0) throw new PresetNotFoundError(opts.id);
      createdAt = entries[index]!.preset.createdAt;
      id = opts.id;
    }
    const preset: Preset = {
      format: PRESET_FORMAT,
      version: PRESET_VERSION,
      id,
      createdAt,
      updatedAt: now,
      ...d,
    };
    return this.put(entries, index, preset, opts);
  }

  rename(id: string, name: string): PresetSummary {
    const newName = parseOrThrow(presetNameSchema, name, 'name');
    return this.change(id, (e) => {
      const updatedAt = this.now().toISOString();
      return {
        raw: { ...e.raw, name: newName, updatedAt },
        preset: { ...e.preset, name: newName, updatedAt },
        locked: e.locked,
      };
    });
  }

  /** Copies a preset (a built-in one too) into a new user preset, "<name> (copy)" by default. */
  duplicate(id: string, name?: string): PresetSummary {
    const entries = [...this.read()];
    const from = entries.find((e) => e.preset.id === id);
    const source = this.builtIns.get(id) ?? from?.preset;
    if (!source) throw new PresetNotFoundError(id);
    const newName = parseOrThrow(presetNameSchema, name ?? `${source.name} (copy)`, 'name');
    const now = this.now().toISOString();
    const fields = { id: this.newId(), name: newName, createdAt: now, updatedAt: now };
    // A user preset's stored form is copied as is, so sealed values stay sealed (even undecryptable ones).
    const entry: Entry = from
      ? {
          raw: { ...jsonCopy(from.raw), ...fields },
          preset: { ...jsonCopy(from.preset), ...fields },
          locked: from.locked,
        }
      : {
          raw: jsonCopy({ ...source, ...fields }),
          preset: { ...jsonCopy(source), ...fields },
          locked: false,
        };
    entries.push(entry);
    this.write(entries);
    return summarizePreset(entry.preset, 'user', entry.locked);
  }

  /** Deletes a user preset; false when there is none with that id. */
  delete(id: string): boolean {
    const builtIn = this.builtIns.get(id);
    if (builtIn) throw new ReadOnlyPresetError(builtIn.name);
    const entries = this.read();
    const kept = entries.filter((e) => e.preset.id !== id);
    if (kept.length === entries.length) return false;
    this.write(kept);
    return true;
  }

  /**
   * A preset as a shareable JSON file's text. Exported files are plain text wherever they
   * go, so secret values need the user's consent (allowPlaintextSecrets) or are left out
   * (omitSecrets).
   */
  exportText(id: string, opts: SecretOptions = {}): ExportOutcome {
    const preset = this.get(id);
    const refs = secretHeadersOf(preset);
    const handling = decideSecretHandling(refs.length, null, opts);
    if (handling === 'ask') {
      return this.consent(
        refs,
        `"${preset.name}" holds secret header values (${describeSecrets(refs)}). An exported file keeps them as plain text. Export them, or export without them?`,
      );
    }
    const tree = jsonCopy(preset);
    if (handling === 'omit') clearSecrets(tree);
    return { ok: true, text: `${JSON.stringify(tree, null, 2)}\n`, fileName: presetFileName(preset.name) };
  }

  async exportFile(id: string, file: string, opts: SecretOptions = {}): Promise<ExportOutcome> {
    const out = this.exportText(id, opts);
    if (out.ok) await writeFileAtomic(file, out.text);
    return out;
  }

  /**
   * Adds the preset held in a file's text (any preset version, or a bare scenario or
   * comparison plan) as a new user preset. Throws a ValidationError naming each bad field.
   */
  importText(text: string, opts: SecretOptions = {}): SaveOutcome {
    const json = parseJsonText(text);
    if (!json.ok) throw new ValidationError('preset file', [{ path: '', message: json.message }]);
    const parsed = parsePresetFile(json.value, { newId: this.newId, now: this.now });
    if (!parsed.ok) throw new ValidationError('preset file', parsed.issues);
    const now = this.now().toISOString();
    const preset: Preset = { ...parsed.value, id: this.newId(), createdAt: now, updatedAt: now };
    const entries = [...this.read()];
    return this.put(entries, entries.length, preset, opts);
  }

  async importFile(file: string, opts: SecretOptions = {}): Promise<SaveOutcome> {
    const stat = await fsp.stat(file);
    if (stat.size > MAX_IMPORT_BYTES) {
      throw new ValidationError('preset file', [
        { path: '', message: `the file is ${stat.size} bytes; a preset is at most ${MAX_IMPORT_BYTES}` },
      ]);
    }
    return this.importText(await fsp.readFile(file, 'utf8'), opts);
  }

  // -------------------------------------------------------------------------------------

  private put(entries: Entry[], index: number, preset: Preset, opts: SecretOptions): SaveOutcome {
    const refs = secretHeadersOf(preset);
    const handling = decideSecretHandling(refs.length, this.cipher, opts);
    if (handling === 'ask') {
      const why = this.cipher
        ? 'Encryption (the system keychain) is not available here'
        : 'This store has no encryption';
      return this.consent(
        refs,
        `"${preset.name}" holds secret header values (${describeSecrets(refs)}). ${why}, so they would be saved as plain text in ${this.path}. Save them as plain text, or save without them?`,
      );
    }
    const stored = jsonCopy(preset);
    if (handling === 'omit') clearSecrets(stored);
    const kept = jsonCopy(stored);
    if (handling === 'seal' && this.cipher) sealSecrets(stored, this.cipher);
    const entry: Entry = { raw: stored, preset: kept, locked: false };
    entries[index] = entry;
    this.write(entries);
    return { ok: true, preset: summarizePreset(kept, 'user') };
  }

  private consent(
    secrets: SecretRef[],
    message: string,
  ): { ok: false; reason: 'secrets-need-consent'; secrets: SecretRef[]; message: string } {
    return { ok: false, reason: 'secrets-need-consent', secrets, message };
  }

  private change(id: string, fn: (e: Entry) => Entry): PresetSummary {
    const builtIn = this.builtIns.get(id);
    if (builtIn) throw new ReadOnlyPresetError(builtIn.name);
    const entries = [...this.read()];
    const index = entries.findIndex((e) => e.preset.id === id);
    if (index < 0) throw new PresetNotFoundError(id);
    const next = fn(entries[index]!);
    entries[index] = next;
    this.write(entries);
    return summarizePreset(next.preset, 'user', next.locked);
  }

  /** The stored form of a current preset: sealed when a cipher is available, else as is. */
  private toRaw(preset: Preset, sealedFrom: Record<string, unknown> | null): Record<string, unknown> {
    const tree = jsonCopy(preset) as unknown as Record<string, unknown>;
    if (sealedFrom) transplantSealed(sealedFrom, tree);
    else if (this.cipher?.available() === true) sealSecrets(tree, this.cipher);
    return tree;
  }

  private write(entries: Entry[]): void {
    this.backend.set(
      'presets',
      entries.map((e) => e.raw),
    );
    this.cache = { stamp: this.stamp(), entries };
  }

  /** Identifies the file's current version, so an unchanged file is not parsed again. */
  private stamp(): string {
    const st = fs.statSync(this.path, { throwIfNoEntry: false });
    return st ? `${st.ino}:${st.size}:${st.mtimeMs}` : 'missing';
  }

  private read(): Entry[] {
    const stamp = this.stamp();
    if (this.cache?.stamp === stamp) return this.cache.entries;
    if (stamp === 'missing') return this.remember(stamp, []);
    const json = parseJsonText(fs.readFileSync(this.path, 'utf8'));
    if (!json.ok) return this.setAside(json.message);
    const doc = json.value;
    if (!isRecord(doc) || (doc.presets !== undefined && !Array.isArray(doc.presets))) {
      return this.setAside('the file does not hold a "presets" list');
    }
    const list: unknown[] = Array.isArray(doc.presets) ? doc.presets : [];
    const entries: Entry[] = [];
    const ids = new Set<string>();
    let migrated = false;
    for (const [i, raw] of list.entries()) {
      const where = `preset ${i + 1}`;
      if (!isRecord(raw) || raw.format !== PRESET_FORMAT) {
        return this.setAside(`${where} is not in the preset format`);
      }
      const tree = jsonCopy(raw);
      const { failed } = unsealSecrets(tree, this.cipher);
      const parsed = parsePresetFile(tree, { newId: this.newId, now: this.now });
      if (!parsed.ok) return this.setAside(`${where}: ${describeIssues(parsed.issues)}`);
      const preset = parsed.value;
      if (ids.has(preset.id)) return this.setAside(`${where}: id ${preset.id} is used twice`);
      ids.add(preset.id);
      const locked = failed > 0;
      if (locked) {
        this.report(
          null,
          `${failed} secret header value${failed === 1 ? '' : 's'} of "${preset.name}" could not be decrypted here and read${failed === 1 ? 's' : ''} as empty; enter ${failed === 1 ? 'it' : 'them'} again and save`,
        );
      }
      let stored = raw;
      if (parsed.migratedFrom !== null) {
        stored = this.toRaw(preset, locked ? raw : null);
        migrated = true;
      }
      entries.push({ raw: stored, preset, locked });
    }
    // Write migrated presets back once, so every later read (and an older reader) sees the current version.
    if (migrated) this.write(entries);
    else this.remember(stamp, entries);
    return entries;
  }

  private remember(stamp: string, entries: Entry[]): Entry[] {
    this.cache = { stamp, entries };
    return entries;
  }

  private setAside(why: string): Entry[] {
    const keptAs = moveAside(this.path, this.now());
    this.report(
      keptAs,
      `The presets file could not be read (${why}). It was kept as ${keptAs}; the app started without your presets.`,
    );
    return this.remember('missing', []);
  }

  private report(keptAs: string | null, message: string): void {
    const key = `${keptAs ?? ''}|${message}`;
    if (this.problemKeys.has(key)) return;
    this.problemKeys.add(key);
    this.problemList.push({
      store: 'presets',
      file: this.path,
      keptAs,
      message,
      at: this.now().toISOString(),
    });
  }
}
