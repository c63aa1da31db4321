/**
 * Finding the preset `--preset` names: a preset file (any version, or a bare scenario or
 * comparison plan), else a built-in or saved preset by id, by name, or by a part of either
 * that only one preset has ("seed-004", "jmeter").
 */
import { dirname, resolve } from 'node:path';
import { parsePresetFile, type Preset } from '../../../shared/records/presets.ts';
import { type PresetSummary } from '../../../shared/records/preset-summary.ts';
import { describeIssues } from '../../../shared/model/validation.ts';
import { pathsRelativeTo, readJsonFile, type FileIo } from '../files.ts';
import { CliInputError } from '../values.ts';

/** The presets to pick from: the preset store (electron/stores) has this shape. */
export interface PresetSource {
  list(): PresetSummary[];
  get(id: string): Preset;
}

/**
 * The file `ref` names, when something but a folder is there: a named pipe or a device is
 * read as a file (and refused, saying what it is), never taken for a preset's name.
 */
export function presetFilePath(
  ref: string,
  io: Pick<FileIo, 'cwd' | 'exists' | 'isDirectory'>,
): string | null {
  const file = resolve(io.cwd, ref);
  return io.exists(file) && !io.isDirectory(file) ? file : null;
}

/** A preset file (any version, or a bare scenario or plan); the files it names are relative to it. */
export function readPresetFile(flag: string, file: string, io: Pick<FileIo, 'readFile'>): Preset {
  const parsed = parsePresetFile(readJsonFile(flag, file, io));
  if (!parsed.ok) throw new CliInputError(flag, `${file}: ${describeIssues(parsed.issues)}`);
  const p = parsed.value;
  const dir = dirname(file);
  switch (p.kind) {
    case 'run':
      return { ...p, scenario: { ...p.scenario, ...pathsRelativeTo(dir, p.scenario) } };
    case 'comparison':
      return { ...p, plan: { ...p.plan, ...pathsRelativeTo(dir, p.plan) } };
    case 'capacity':
      return { ...p, plan: { ...p.plan, ...pathsRelativeTo(dir, p.plan) } };
  }
}

/** By exact id, then exact name, then a part of the id or name that only one preset has. */
export function findPreset(flag: string, ref: string, source: PresetSource): Preset {
  const all = source.list();
  const wanted = ref.trim().toLowerCase();
  const exact =
    all.find((p) => p.id === ref.trim()) ?? all.find((p) => p.name.trim().toLowerCase() === wanted);
  if (exact) return source.get(exact.id);
  const partial = all.filter(
    (p) => p.id.toLowerCase().includes(wanted) || p.name.toLowerCase().includes(wanted),
  );
  if (partial.length === 1) return source.get(partial[0]!.id);
  if (partial.length > 1) {
    throw new CliInputError(
      flag,
      `"${ref}" matches ${partial.length} presets: ${partial.map((p) => p.id).join(', ')}; give one of these ids`,
    );
  }
  throw new CliInputError(
    flag,
    `no preset file or preset named "${ref}" (trebuchet presets list shows the presets; a file path must exist)`,
  );
}
