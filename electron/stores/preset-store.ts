import { createHash } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
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
import {
  deeperThan,
  ensureDirectory,
  MAX_JSON_DEPTH,
  moveAside,
  notAFile,
  parseJsonText,
  readFailure,
  writeFileAtomic,
  writeFileAtomicSync,
} from './files.ts';
import {
  clearSecrets,
  decideSecretHandling,
  jsonCopy,
  sealSecrets,
  transplantSealed,
  unsealSecrets,
  type SecretCipher,
} from './secrets.ts';

/*
 * Layout of the presets in the data directory:
 *   presets/<id>.preset.json    one user preset in the preset file format (shared/presets.ts),
 *                               secret header values sealed ({ value: "", sealed }) or, when
 *                               the user allowed it, plain; written atomically, owner-only
 *   presets/<id>.preset.broken-<time>.json   a preset file that could not be read, kept for the user
 *   presets.json                the single file of earlier versions (conf's format): at the first
 *                               start its presets move into presets/ and it is kept as
 *                               presets.migrated-<time>.json
 * One file per preset, so two processes on one data directory (the CLI beside the web host,
 * two hosts) never overwrite each other's saves, and a broken preset costs only itself.
 */

const PRESETS_DIR = 'presets';
const LEGACY_FILE = 'presets.json';
const PRESET_FILE = /^([A-Za-z0-9_-]{1,64})\.preset\.json$/;
/** A preset is a few kilobytes; refuse anything that cannot be one before reading it. */
const MAX_PRESET_BYTES = 5 * 1024 * 1024;
/** The earlier single file held every preset. */
const MAX_LEGACY_BYTES = 64 * 1024 * 1024;

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

interface Entry {
  /** As stored in the file (secrets sealed, or plain when the user allowed it). */
  raw: Record<string, unknown>;
  /** As the app uses it (secrets decrypted). */
  preset: Preset;
  /** Some sealed values could not be decrypted here; raw keeps them sealed. */
  locked: boolean;
}

type ParsedEntry = { ok: true; entry: Entry; migrated: boolean } | { ok: false; why: string };

const byCreation = (a: Entry, b: Entry): number =>
  a.preset.createdAt.localeCompare(b.preset.createdAt) || a.preset.id.localeCompare(b.preset.id);

/** Identifies a file's current version, so an unchanged file is not parsed again. */
const stampOf = (st: fs.Stats): string => `${st.ino}:${st.size}:${st.mtimeMs}`;

/** A preset file's text; one that could not be read back (past MAX_PRESET_BYTES) is refused. */
function presetText(raw: Record<string, unknown>): string {
  const text = `${JSON.stringify(raw, null, 2)}\n`;
  const bytes = Buffer.byteLength(text);
  if (bytes > MAX_PRESET_BYTES) {
    throw new ValidationError('preset', [
      { path: '', message: `the preset is ${bytes} bytes; a preset is at most ${MAX_PRESET_BYTES}` },
    ]);
  }
  return text;
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
  /** By file name: the stamp of the version read and what it held (null: set aside or gone). */
  private readonly cache = new Map<string, { stamp: string; entry: Entry | null }>();

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
    this.migrateLegacyFile();
    // Read every file now so a broken one is set aside and reported at start-up.
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
    return this.write({ raw: this.toRaw(preset, e.locked ? e.raw : null), preset, locked: e.locked });
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
    return this.write({ raw: this.toRaw(preset, locked ? from!.raw : null), preset, locked });
  }

  /** Deletes a user preset; false when there is none with that id. */
  delete(id: string): boolean {
    this.writable(id);
    if (!PRESET_FILE.test(this.fileName(id))) return false;
    try {
      fs.rmSync(this.file(id));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw err;
    }
    this.cache.delete(this.fileName(id));
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
    return this.put(preset, opts);
  }

  async importFile(file: string, opts: SecretOptions = {}): Promise<SaveOutcome> {
    const stat = await fsp.stat(file);
    if (stat.size > MAX_PRESET_BYTES) {
      throw new ValidationError('preset file', [
        { path: '', message: `the file is ${stat.size} bytes; a preset is at most ${MAX_PRESET_BYTES}` },
      ]);
    }
    return this.importText(await fsp.readFile(file, 'utf8'), opts);
  }

  // -------------------------------------------------------------------------------------

  private fileName(id: string): string {
    return `${id}.preset.json`;
  }

  private file(id: string): string {
    return path.join(this.path, this.fileName(id));
  }

  /** Throws for a built-in preset, which cannot be changed. */
  private writable(id: string): void {
    const builtIn = this.builtIns.get(id);
    if (builtIn) throw new ReadOnlyPresetError(builtIn.name);
  }

  /** The user preset `id` as on disk now. */
  private entry(id: string): Entry {
    const entry = PRESET_FILE.test(this.fileName(id))
      ? this.read().find((e) => e.preset.id === id)
      : undefined;
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

  /**
   * The stored form of a current preset: only its schema's fields, sealed when a cipher is
   * available (values this machine cannot decrypt stay sealed as in `sealedFrom`).
   */
  private toRaw(preset: Preset, sealedFrom: Record<string, unknown> | null): Record<string, unknown> {
    const tree = jsonCopy(preset) as unknown as Record<string, unknown>;
    if (sealedFrom) transplantSealed(sealedFrom, tree);
    else if (this.cipher?.available() === true) sealSecrets(tree, this.cipher);
    return tree;
  }

  /** Writes one preset's file; only once it is on disk does the caller hear it is saved. */
  private write(entry: Entry): PresetSummary {
    const name = this.fileName(entry.preset.id);
    const file = path.join(this.path, name);
    writeFileAtomicSync(file, presetText(entry.raw));
    this.cache.set(name, { stamp: stampOf(fs.statSync(file)), entry });
    return summarizePreset(entry.preset, 'user', entry.locked);
  }

  /** Every readable user preset, oldest first; files changed since the last read are read again. */
  private read(): Entry[] {
    let names: string[];
    try {
      names = fs.readdirSync(this.path);
    } catch (err) {
      // Removed from under the app: made again, so the next save has a folder to write to.
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      fs.mkdirSync(this.path, { recursive: true });
      names = [];
    }
    const entries: Entry[] = [];
    const seen = new Set<string>();
    for (const name of names) {
      const m = PRESET_FILE.exec(name);
      if (!m) continue;
      const file = path.join(this.path, name);
      const st = fs.statSync(file, { throwIfNoEntry: false });
      if (!st) continue;
      seen.add(name);
      const stamp = stampOf(st);
      let cached = this.cache.get(name);
      if (cached?.stamp !== stamp) {
        cached = { stamp, entry: this.load(m[1]!, file, st) };
        this.cache.set(name, cached);
      }
      if (cached.entry) entries.push(cached.entry);
    }
    for (const name of [...this.cache.keys()]) if (!seen.has(name)) this.cache.delete(name);
    return entries.sort(byCreation);
  }

  /** One preset file, validated; null when it was set aside (and reported) or is gone. */
  private load(id: string, file: string, st: fs.Stats): Entry | null {
    if (!st.isFile()) return this.setAside(file, notAFile(st));
    if (st.size > MAX_PRESET_BYTES) {
      return this.setAside(file, `it is ${st.size} bytes; a preset is at most ${MAX_PRESET_BYTES}`);
    }
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      return this.setAside(file, readFailure(err));
    }
    const json = parseJsonText(text);
    if (!json.ok) return this.setAside(file, json.message);
    const r = this.parseEntry(json.value, () => id);
    if (!r.ok) return this.setAside(file, r.why);
    if (r.entry.preset.id !== id)
      return this.setAside(file, `it holds preset ${r.entry.preset.id}, not ${id}`);
    // Written back once in the current version, so every later read (and an older reader) sees it.
    if (r.migrated) {
      try {
        writeFileAtomicSync(file, presetText(r.entry.raw));
      } catch {
        // The file stays as it was (nothing is lost) and is migrated again at the next start.
      }
    }
    return r.entry;
  }

  /** A stored preset (any version) read into an entry; `newId` names a version without ids. */
  private parseEntry(raw: unknown, newId: () => string): ParsedEntry {
    if (!isRecord(raw) || raw.format !== PRESET_FORMAT)
      return { ok: false, why: 'it is not in the preset format' };
    const tree = jsonCopy(raw);
    const { failed } = unsealSecrets(tree, this.cipher);
    const parsed = parsePresetFile(tree, { newId, now: this.now });
    if (!parsed.ok) return { ok: false, why: describeIssues(parsed.issues) };
    const preset = parsed.value;
    const locked = failed > 0;
    if (locked) {
      this.report(
        this.file(preset.id),
        null,
        `${failed} secret header value${failed === 1 ? '' : 's'} of "${preset.name}" could not be decrypted here and read${failed === 1 ? 's' : ''} as empty; enter ${failed === 1 ? 'it' : 'them'} again and save`,
      );
    }
    const migrated = parsed.migratedFrom !== null;
    return {
      ok: true,
      entry: { raw: migrated ? this.toRaw(preset, locked ? raw : null) : raw, preset, locked },
      migrated,
    };
  }

  /**
   * Moves the presets of an earlier version's single presets.json into presets/, one file
   * each, then keeps the old file aside as presets.migrated-<time>.json. A preset it cannot
   * read stays in that file and is reported; one already in presets/ is not overwritten, so
   * a second host migrating at the same moment, or a restart after a crash, changes nothing.
   */
  private migrateLegacyFile(): void {
    const legacy = path.join(this.dataDir, LEGACY_FILE);
    const st = fs.statSync(legacy, { throwIfNoEntry: false });
    if (!st) return;
    const whole = (why: string) => {
      const keptAs = moveAside(legacy, this.now());
      if (keptAs) {
        this.report(
          legacy,
          keptAs,
          `The presets file could not be read (${why}). It was kept as ${keptAs}; no preset was taken from it.`,
        );
      }
    };
    if (!st.isFile()) return whole(notAFile(st));
    if (st.size > MAX_LEGACY_BYTES) return whole(`it is ${st.size} bytes; at most ${MAX_LEGACY_BYTES}`);
    let text: string;
    try {
      text = fs.readFileSync(legacy, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
      return whole(readFailure(err));
    }
    // Each preset is bounded on its own below, so one deep preset does not cost the others.
    const json = parseJsonText(text, null);
    if (!json.ok) return whole(json.message);
    const doc = json.value;
    if (!isRecord(doc) || (doc.presets !== undefined && !Array.isArray(doc.presets))) {
      return whole('the file does not hold a "presets" list');
    }
    const list: unknown[] = Array.isArray(doc.presets) ? doc.presets : [];
    const refused: string[] = [];
    const ids = new Set<string>();
    let writeError: string | null = null;
    for (const [i, raw] of list.entries()) {
      const where = `preset ${i + 1} of ${LEGACY_FILE}`;
      if (deeperThan(raw, MAX_JSON_DEPTH)) {
        refused.push(`${where} nests deeper than ${MAX_JSON_DEPTH} levels`);
        continue;
      }
      // An id for a version that had none, the same in every process migrating this file.
      const legacyId = () =>
        `v1-${createHash('sha256')
          .update(`${i}:${JSON.stringify(raw)}`)
          .digest('hex')
          .slice(0, 32)}`;
      const r = this.parseEntry(raw, legacyId);
      if (!r.ok) {
        refused.push(`${where}: ${r.why}`);
        continue;
      }
      const { id } = r.entry.preset;
      if (ids.has(id)) {
        refused.push(`${where}: id ${id} is used twice`);
        continue;
      }
      ids.add(id);
      const file = this.file(id);
      if (fs.existsSync(file)) continue;
      try {
        writeFileAtomicSync(file, presetText(r.entry.raw));
      } catch (err) {
        if (err instanceof ValidationError) refused.push(`${where}: ${describeIssues(err.issues)}`);
        else writeError ??= (err as NodeJS.ErrnoException).code ?? String(err);
      }
    }
    if (writeError !== null) {
      // Nothing is lost: the old file stays where it is, and the next start moves the rest.
      this.report(
        legacy,
        null,
        `The presets in ${legacy} could not all be moved to ${this.path} (${writeError}). It stays in place and is read again at the next start.`,
      );
      return;
    }
    const keptAs = moveAside(legacy, this.now(), 'migrated');
    // Null: another process migrated the file at the same moment (and reports what it refused).
    if (!keptAs) return;
    for (const why of refused) {
      this.report(
        legacy,
        keptAs,
        `A saved preset could not be read (${why}). It is kept in ${keptAs}; the other presets were moved to ${this.path}.`,
      );
    }
  }

  private setAside(file: string, why: string): null {
    const keptAs = moveAside(file, this.now());
    if (keptAs) {
      this.report(
        file,
        keptAs,
        `A saved preset could not be read (${why}). It was kept as ${keptAs} and left out of the list.`,
      );
    }
    return null;
  }

  private report(file: string, keptAs: string | null, message: string): void {
    const key = `${keptAs ?? ''}|${message}`;
    if (this.problemKeys.has(key)) return;
    this.problemKeys.add(key);
    this.problemList.push({ store: 'presets', file, keptAs, message, at: this.now().toISOString() });
  }
}
