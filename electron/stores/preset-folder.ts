import fs from 'node:fs';
import path from 'node:path';
import { parsePresetFile, PRESET_FORMAT, type Preset } from '../../shared/records/presets.ts';
import { isRecord } from '../../shared/model/validation.ts';
import { describeIssues, ValidationError } from '../../shared/model/validation.ts';
import { LIMITS } from '../../shared/model/defaults.ts';
import { FileProblemError, readBoundedFileSync, textOf } from '../files/bounded-file.ts';
import { MAX_JSON_DEPTH, moveAside, parseJsonText, writeFileAtomicSync } from './files.ts';
import {
  asStored,
  jsonCopy,
  sealSecrets,
  transplantSealed,
  unsealSecrets,
  type SecretCipher,
} from './secrets.ts';

/*
 * The files of presets/: one <id>.preset.json per user preset, re-read when it changes on
 * disk (the CLI and the web host may share the folder) and validated on every read. A file
 * that cannot be a preset is renamed aside (<id>.preset.broken-<time>.json) and reported;
 * the others stay. preset-store.ts builds the store's operations on it.
 */

export const PRESET_FILE = /^([A-Za-z0-9_-]{1,64})\.preset\.json$/;
/** A preset is a few kilobytes; anything past the input file cap is refused before it is read. */
export const MAX_PRESET_BYTES = LIMITS.inputFileBytes.max;

export interface Entry {
  /** As stored in the file (secrets sealed, or plain when the user allowed it). */
  raw: Record<string, unknown>;
  /** As the app uses it (secrets decrypted). */
  preset: Preset;
  /** Some sealed values could not be decrypted here; raw keeps them sealed. */
  locked: boolean;
}

export type ParsedEntry = { ok: true; entry: Entry; migrated: boolean } | { ok: false; why: string };

/** Reports a file set aside (keptAs) or a value that could not be read. */
export type ReportProblem = (file: string, keptAs: string | null, message: string) => void;

/** What the preset schema says of a stored preset (sealed values read as empty); null when it reads. */
export function whyNotAPreset(stored: unknown): string | null {
  const parsed = parsePresetFile(asStored(stored));
  return parsed.ok ? null : describeIssues(parsed.issues);
}

const byCreation = (a: Entry, b: Entry): number =>
  a.preset.createdAt.localeCompare(b.preset.createdAt) || a.preset.id.localeCompare(b.preset.id);

/** Identifies a file's current version, so an unchanged file is not parsed again. */
const stampOf = (st: fs.Stats): string => `${st.ino}:${st.size}:${st.mtimeMs}`;

/** A preset file's text; one that could not be read back (past MAX_PRESET_BYTES) is refused. */
export function presetText(raw: Record<string, unknown>): string {
  const text = `${JSON.stringify(raw, null, 2)}\n`;
  const bytes = Buffer.byteLength(text);
  if (bytes > MAX_PRESET_BYTES) {
    throw new ValidationError('preset', [
      { path: '', message: `the preset is ${bytes} bytes; a preset is at most ${MAX_PRESET_BYTES}` },
    ]);
  }
  return text;
}

export class PresetFolder {
  /** By file name: the stamp of the version read and what it held (null: set aside or gone). */
  private readonly cache = new Map<string, { stamp: string; entry: Entry | null }>();

  /** The presets folder. */
  readonly path: string;
  private readonly cipher: SecretCipher | null;
  private readonly now: () => Date;
  private readonly report: ReportProblem;

  constructor(folder: string, cipher: SecretCipher | null, now: () => Date, report: ReportProblem) {
    this.path = folder;
    this.cipher = cipher;
    this.now = now;
    this.report = report;
  }

  fileName(id: string): string {
    return `${id}.preset.json`;
  }

  file(id: string): string {
    return path.join(this.path, this.fileName(id));
  }

  /** The user preset `id` as on disk now; undefined when there is none. */
  find(id: string): Entry | undefined {
    return PRESET_FILE.test(this.fileName(id)) ? this.read().find((e) => e.preset.id === id) : undefined;
  }

  /** Deletes a preset's file; false when there is none. */
  remove(id: string): boolean {
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
   * The stored form of a current preset: only its schema's fields, sealed when a cipher is
   * available (values this machine cannot decrypt stay sealed as in `sealedFrom`).
   */
  toRaw(preset: Preset, sealedFrom: Record<string, unknown> | null): Record<string, unknown> {
    const tree = jsonCopy(preset) as unknown as Record<string, unknown>;
    if (sealedFrom) transplantSealed(sealedFrom, tree);
    else if (this.cipher?.available() === true) sealSecrets(tree, this.cipher);
    return tree;
  }

  /** Writes one preset's file; only once it is on disk does the caller hear it is saved. */
  write(entry: Entry): void {
    const name = this.fileName(entry.preset.id);
    const file = path.join(this.path, name);
    writeFileAtomicSync(file, presetText(entry.raw));
    this.cache.set(name, { stamp: stampOf(fs.statSync(file)), entry });
  }

  /** Every readable user preset, oldest first; files changed since the last read are read again. */
  read(): Entry[] {
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
        cached = { stamp, entry: this.load(m[1]!, file) };
        this.cache.set(name, cached);
      }
      if (cached.entry) entries.push(cached.entry);
    }
    for (const name of [...this.cache.keys()]) if (!seen.has(name)) this.cache.delete(name);
    return entries.sort(byCreation);
  }

  /** One preset file, validated; null when it was set aside (and reported) or is gone. */
  private load(id: string, file: string): Entry | null {
    let text: string;
    try {
      text = textOf(readBoundedFileSync(file, MAX_PRESET_BYTES, 'a preset'));
    } catch (err) {
      if (!(err instanceof FileProblemError)) throw err;
      if (err.code === 'ENOENT') return null;
      return this.setAside(file, `it ${err.problem}`);
    }
    const json = parseJsonText(text, MAX_JSON_DEPTH, whyNotAPreset);
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
  parseEntry(raw: unknown, newId: () => string): ParsedEntry {
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
}
