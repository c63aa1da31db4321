import path from 'node:path';
import {
  parsePresetFile,
  presetDraftSchema,
  presetFileName,
  presetNameSchema,
  PRESET_FORMAT,
  PRESET_VERSION,
  type Preset,
  type PresetDraftInput,
} from '../../shared/records/presets.ts';
import {
  summarizePreset,
  type ExportOutcome,
  type PresetSummary,
  type SaveOutcome,
  type SecretOptions,
  type StoreProblem,
} from '../../shared/records/preset-summary.ts';
import { describeSecrets, secretHeadersOf, type SecretRef } from '../../shared/records/preset-summary.ts';
import { parseOrThrow, ValidationError } from '../../shared/model/validation.ts';
import { FileProblemError, readBoundedFile, textOf } from '../files/bounded-file.ts';
import {
  ensureDirectory,
  MAX_JSON_DEPTH,
  parseJsonText,
  removeStaleTempFiles,
  writeFileAtomic,
} from './files.ts';
import { MAX_PRESET_BYTES, PresetFolder, whyNotAPreset, type Entry } from './preset-folder.ts';
import { migrateLegacyPresets } from './preset-migration.ts';
import { clearSecrets, decideSecretHandling, jsonCopy, sealSecrets, type SecretCipher } from './secrets.ts';

/*
 * Layout of the presets in the data directory:
 *   presets/<id>.preset.json    one user preset in the preset file format (shared/records/presets.ts),
 *                               secret header values sealed ({ value: "", sealed }) or, when
 *                               the user allowed it, plain; written atomically, owner-only
 *   presets/<id>.preset.broken-<time>.json   a preset file that could not be read, kept for the user
 *   presets.json                the single file of earlier versions (conf's format): at the first
 *                               start its presets move into presets/ and it is kept as
 *                               presets.migrated-<time>.json
 * One file per preset, so two processes on one data directory (the CLI beside the web host,
 * two hosts) never overwrite each other's saves, and a broken preset costs only itself.
 * The folder's files are read in preset-folder.ts, presets.json moved in preset-migration.ts.
 */

const PRESETS_DIR = 'presets';

export interface PresetStoreOptions {
  /** The data directory: presets/ is kept in it. */
  dir: string;
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

/**
 * The user's presets: save, load, list, rename, duplicate, delete, import and export, one
 * file each in presets/. Files are re-read when they change on disk (the CLI and the web
 * host may share the folder) and validated on every read: a file that cannot be a preset is
 * renamed aside (<id>.preset.broken-<time>.json) and reported in problems(); the others stay.
 */
export class PresetStore {
  /** The presets folder. */
  readonly path: string;
  private readonly dataDir: string;
  private readonly cipher: SecretCipher | null;
  private readonly builtIns: ReadonlyMap<string, Preset>;
  private readonly now: () => Date;
  private readonly newId: () => string;
  private readonly problemList: StoreProblem[] = [];
  private readonly problemKeys = new Set<string>();
  private readonly folder: PresetFolder;

  constructor(opts: PresetStoreOptions) {
    this.dataDir = opts.dir;
    this.path = path.join(opts.dir, PRESETS_DIR);
    this.cipher = opts.cipher ?? null;
    this.builtIns = new Map((opts.builtIns ?? []).map((p) => [p.id, p]));
    this.now = opts.now ?? (() => new Date());
    this.newId = opts.newId ?? (() => globalThis.crypto.randomUUID());
    const inTheWay = ensureDirectory(this.path, this.now);
    if (inTheWay) {
      this.report(this.path, inTheWay, `${this.path} was not a folder. It was kept as ${inTheWay}.`);
    }
    removeStaleTempFiles(this.path);
    const report = (file: string, keptAs: string | null, message: string) =>
      this.report(file, keptAs, message);
    this.folder = new PresetFolder(this.path, this.cipher, this.now, report);
    migrateLegacyPresets(this.dataDir, this.folder, this.now, report);
    // Read every file now so a broken one is set aside and reported at start-up.
    this.folder.read();
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
      ...this.folder.read().map((e) => summarizePreset(e.preset, 'user', e.locked)),
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
    return jsonCopy(this.entry(id).preset);
  }

  /**
   * Saves a new preset, or replaces the content of the user preset `id`. The draft is
   * validated (a ValidationError names each bad field).
   */
  save(draft: PresetDraftInput, opts: SecretOptions & { id?: string } = {}): SaveOutcome {
    const d = parseOrThrow(presetDraftSchema, draft, 'preset');
    const now = this.now().toISOString();
    let createdAt = now;
    let id = this.newId();
    if (opts.id !== undefined) {
      this.writable(opts.id);
      createdAt = this.entry(opts.id).preset.createdAt;
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
    return this.put(preset, opts);
  }

  rename(id: string, name: string): PresetSummary {
    const newName = parseOrThrow(presetNameSchema, name, 'name');
    this.writable(id);
    const e = this.entry(id);
    const preset = { ...e.preset, name: newName, updatedAt: this.now().toISOString() };
    return this.write({ raw: this.folder.toRaw(preset, e.locked ? e.raw : null), preset, locked: e.locked });
  }

  /** Copies a preset (a built-in one too) into a new user preset, "<name> (copy)" by default. */
  duplicate(id: string, name?: string): PresetSummary {
    const builtIn = this.builtIns.get(id);
    const from = builtIn ? null : this.entry(id);
    const source = builtIn ?? from!.preset;
    const newName = parseOrThrow(presetNameSchema, name ?? `${source.name} (copy)`, 'name');
    const now = this.now().toISOString();
    const preset: Preset = {
      ...jsonCopy(source),
      id: this.newId(),
      name: newName,
      createdAt: now,
      updatedAt: now,
    };
    // A user preset's sealed values are carried over as stored (even ones this machine cannot decrypt).
    const locked = from?.locked ?? false;
    return this.write({ raw: this.folder.toRaw(preset, locked ? from!.raw : null), preset, locked });
  }

  /** Deletes a user preset; false when there is none with that id. */
  delete(id: string): boolean {
    this.writable(id);
    return this.folder.remove(id);
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
    const json = parseJsonText(text, MAX_JSON_DEPTH, whyNotAPreset);
    if (!json.ok) throw new ValidationError('preset file', [{ path: '', message: json.message }]);
    const parsed = parsePresetFile(json.value, { newId: this.newId, now: this.now });
    if (!parsed.ok) throw new ValidationError('preset file', parsed.issues);
    const now = this.now().toISOString();
    const preset: Preset = { ...parsed.value, id: this.newId(), createdAt: now, updatedAt: now };
    return this.put(preset, opts);
  }

  async importFile(file: string, opts: SecretOptions = {}): Promise<SaveOutcome> {
    let text: string;
    try {
      text = textOf(await readBoundedFile(file, MAX_PRESET_BYTES, 'a preset file'));
    } catch (err) {
      if (!(err instanceof FileProblemError)) throw err;
      throw new ValidationError('preset file', [{ path: '', message: `the file ${err.problem}` }]);
    }
    return this.importText(text, opts);
  }

  /** Throws for a built-in preset, which cannot be changed. */
  private writable(id: string): void {
    const builtIn = this.builtIns.get(id);
    if (builtIn) throw new ReadOnlyPresetError(builtIn.name);
  }

  /** The user preset `id` as on disk now. */
  private entry(id: string): Entry {
    const entry = this.folder.find(id);
    if (!entry) throw new PresetNotFoundError(id);
    return entry;
  }

  private put(preset: Preset, opts: SecretOptions): SaveOutcome {
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
    return { ok: true, preset: this.write({ raw: stored, preset: kept, locked: false }) };
  }

  private consent(
    secrets: SecretRef[],
    message: string,
  ): { ok: false; reason: 'secrets-need-consent'; secrets: SecretRef[]; message: string } {
    return { ok: false, reason: 'secrets-need-consent', secrets, message };
  }

  /** Writes one preset's file; only once it is on disk does the caller hear it is saved. */
  private write(entry: Entry): PresetSummary {
    this.folder.write(entry);
    return summarizePreset(entry.preset, 'user', entry.locked);
  }

  private report(file: string, keptAs: string | null, message: string): void {
    const key = `${keptAs ?? ''}|${message}`;
    if (this.problemKeys.has(key)) return;
    this.problemKeys.add(key);
    this.problemList.push({ store: 'presets', file, keptAs, message, at: this.now().toISOString() });
  }
}
