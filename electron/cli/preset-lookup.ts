/**
 * Finding the preset `--preset` names: a preset file (any version, or a bare scenario or
 * comparison plan), else a built-in or saved preset by id, by name, or by a part of either
 * that only one preset has ("seed-004", "jmeter").
 */
import { dirname, isAbsolute, resolve } from 'node:path';
import type { ComparisonPlan } from '../../shared/comparison.ts';
import { parsePresetFile, type Preset, type PresetSummary } from '../../shared/presets.ts';
import type { Body, Scenario, TlsOptions } from '../../shared/scenario.ts';
import { describeIssues } from '../../shared/validation.ts';
import { CliInputError } from './values.ts';

/** The presets to pick from: the preset store (electron/stores) has this shape. */
export interface PresetSource {
  list(): PresetSummary[];
  get(id: string): Preset;
}

export interface PresetFileIo {
  cwd: string;
  isFile(path: string): boolean;
  readFile(path: string): string;
}

/** The file `ref` names, when it names an existing file. */
export function presetFilePath(ref: string, io: Pick<PresetFileIo, 'cwd' | 'isFile'>): string | null {
  const file = resolve(io.cwd, ref);
  return io.isFile(file) ? file : null;
}

/** Body files and CA files named in a preset file are relative to that file. */
function bodyRelativeTo(base: string, body: Body): Body {
  return body.kind === 'file' && !isAbsolute(body.path)
    ? { kind: 'file', path: resolve(base, body.path) }
    : body;
}

function tlsRelativeTo(base: string, tls: TlsOptions): TlsOptions {
  return tls.caFile === null || isAbsolute(tls.caFile) ? tls : { ...tls, caFile: resolve(base, tls.caFile) };
}

export function readPresetFile(flag: string, file: string, io: PresetFileIo): Preset {
  let json: unknown;
  try {
    json = JSON.parse(io.readFile(file));
  } catch (e) {
    throw new CliInputError(flag, `${file} is not valid JSON (${(e as Error).message})`);
  }
  const parsed = parsePresetFile(json);
  if (!parsed.ok) throw new CliInputError(flag, `${file}: ${describeIssues(parsed.issues)}`);
  const p = parsed.value;
  const base = dirname(file);
  if (p.kind === 'scenario') {
    const { targets, options } = p.scenario;
    const scenario: Scenario = {
      ...p.scenario,
      targets: targets.map((t) => ({ ...t, body: bodyRelativeTo(base, t.body) })),
      options: { ...options, tls: tlsRelativeTo(base, options.tls) },
    };
    return { ...p, scenario };
  }
  const { targets, options } = p.plan;
  const plan: ComparisonPlan = {
    ...p.plan,
    targets: targets.map((t) => ({ ...t, body: bodyRelativeTo(base, t.body) })),
    options: { ...options, tls: tlsRelativeTo(base, options.tls) },
  };
  return { ...p, plan };
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
