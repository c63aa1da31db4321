import fs from 'node:fs';
import path from 'node:path';
import { isRecord } from '../../shared/model/validation.ts';
import { describeIssues, ValidationError } from '../../shared/model/validation.ts';
import { LIMITS } from '../../shared/model/defaults.ts';
import { FileProblemError, readBoundedFileSync, textOf } from '../files/bounded-file.ts';
import { deeperThan, MAX_JSON_DEPTH, moveAside, parseJsonText, writeFileAtomicSync } from './files.ts';
import { presetText, type PresetFolder, type ReportProblem } from './preset-folder.ts';
import { loadCrypto } from '../engine/builtins.ts';

/* The single presets.json of earlier versions (conf's format), moved into presets/ one file each. */

export const LEGACY_FILE = 'presets.json';

/**
 * Moves the presets of an earlier version's single presets.json into presets/, one file
 * each, then keeps the old file aside as presets.migrated-<time>.json. A preset it cannot
 * read stays in that file and is reported; one already in presets/ is not overwritten, so
 * a second host migrating at the same moment, or a restart after a crash, changes nothing.
 */
export function migrateLegacyPresets(
  dataDir: string,
  folder: PresetFolder,
  now: () => Date,
  report: ReportProblem,
): void {
  const legacy = path.join(dataDir, LEGACY_FILE);
  const st = fs.statSync(legacy, { throwIfNoEntry: false });
  if (!st) return;
  const whole = (why: string) => {
    const keptAs = moveAside(legacy, now());
    if (keptAs) {
      report(
        legacy,
        keptAs,
        `The presets file could not be read (${why}). It was kept as ${keptAs}; no preset was taken from it.`,
      );
    }
  };
  let text: string;
  try {
    text = textOf(readBoundedFileSync(legacy, LIMITS.inputFileBytes.max, 'the presets file'));
  } catch (err) {
    if (!(err instanceof FileProblemError)) throw err;
    if (err.code === 'ENOENT') return;
    return whole(`it ${err.problem}`);
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
      `v1-${loadCrypto()
        .createHash('sha256')
        .update(`${i}:${JSON.stringify(raw)}`)
        .digest('hex')
        .slice(0, 32)}`;
    const r = folder.parseEntry(raw, legacyId);
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
    const file = folder.file(id);
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
    report(
      legacy,
      null,
      `The presets in ${legacy} could not all be moved to ${folder.path} (${writeError}). It stays in place and is read again at the next start.`,
    );
    return;
  }
  const keptAs = moveAside(legacy, now(), 'migrated');
  // Null: another process migrated the file at the same moment (and reports what it refused).
  if (!keptAs) return;
  for (const why of refused) {
    report(
      legacy,
      keptAs,
      `A saved preset could not be read (${why}). It is kept in ${keptAs}; the other presets were moved to ${folder.path}.`,
    );
  }
}
