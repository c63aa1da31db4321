import { z } from 'zod';
import { capacityPlanSchema } from '../capacity/plan.ts';
import { LIMITS } from '../model/defaults.ts';
import { fileSlug } from '../model/file-name.ts';
import { COMPARISON_PLAN_VERSION, comparisonPlanSchema, type ComparisonPlan } from '../comparison/plan.ts';
import { planReport } from '../comparison/report-settings.ts';
import { SCENARIO_VERSION, scenarioSchema, type Scenario } from '../model/scenario.ts';
import { isRecord, newerVersionIssue, parseWith, type FieldIssue } from '../model/validation.ts';

/*
 * The stored and shared preset format. Every version ever written stays readable: a file
 * is parsed with its own version's schema (a discriminated union on `version`), then
 * brought up to date by migratePreset()'s chain, one version at a time.
 */

/** Marks a JSON file as a preset, so a scenario's own `version` is never mistaken for the preset's. */
export const PRESET_FORMAT = 'trebuchet-preset';
export const PRESET_VERSION = 5;

export const presetIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'preset id is malformed');

const isoTimeSchema = z
  .string({ error: 'must be a date and time' })
  .refine((s) => !Number.isNaN(Date.parse(s)), 'must be a date and time (ISO 8601)');

export const presetNameSchema = z
  .string({ error: 'name must be text' })
  .trim()
  .min(1, 'name is empty')
  .max(LIMITS.nameChars.max, `name is longer than ${LIMITS.nameChars.max} characters`);

const descriptionSchema = z.string().max(4000, 'description is longer than 4000 characters');

/** Version 1, the first stored format: one named scenario, a single timestamp, no id. */
export const presetV1Schema = z.strictObject({
  format: z.literal(PRESET_FORMAT),
  version: z.literal(1),
  name: presetNameSchema,
  savedAt: isoTimeSchema,
  scenario: scenarioSchema,
});
export type PresetV1 = z.infer<typeof presetV1Schema>;

/** The plan with its report named (planReport's default when it names none). */
const withReport = (plan: ComparisonPlan): ComparisonPlan => ({ ...plan, report: planReport(plan) });

const fieldsOf = <V extends number>(version: V) => ({
  format: z.literal(PRESET_FORMAT),
  version: z.literal(version),
  id: presetIdSchema,
  name: presetNameSchema,
  /** What the preset reproduces and what to fill in (built-in presets explain their placeholders here). */
  description: descriptionSchema.default(''),
  createdAt: isoTimeSchema,
  updatedAt: isoTimeSchema,
});

// Versions 2 to 4 named a run's preset 'scenario'; 5 calls it 'run', the job kind's name.
const LEGACY_RUN = 'scenario';

/** Version 2: an id, two timestamps, and either a scenario or a comparison plan. */
export const presetV2Schema = z.discriminatedUnion('kind', [
  z.strictObject({ ...fieldsOf(2), kind: z.literal(LEGACY_RUN), scenario: scenarioSchema }),
  z.strictObject({ ...fieldsOf(2), kind: z.literal('comparison'), plan: comparisonPlanSchema }),
]);
export type PresetV2 = z.infer<typeof presetV2Schema>;

/**
 * Versions 3 and on: a scenario, a comparison plan with its report named, or a capacity
 * search's plan (an app without capacity searches refuses that kind, naming it, rather than
 * losing anything); `run`: what a run's preset is called.
 */
const withNamedReport = <V extends number, R extends string>(version: V, run: R) =>
  z.discriminatedUnion('kind', [
    z.strictObject({ ...fieldsOf(version), kind: z.literal(run), scenario: scenarioSchema }),
    z.strictObject({
      ...fieldsOf(version),
      kind: z.literal('comparison'),
      plan: comparisonPlanSchema.transform((plan) => withReport(plan)),
    }),
    z.strictObject({ ...fieldsOf(version), kind: z.literal('capacity'), plan: capacityPlanSchema }),
  ]);

/**
 * Version 3: as 2, and a comparison plan names its report (layout and matrix columns,
 * filled in when missing); an older app would drop that field silently, so the version
 * says it is there.
 */
export const presetV3Schema = withNamedReport(3, LEGACY_RUN);
export type PresetV3 = z.infer<typeof presetV3Schema>;

/**
 * Version 4: as 3, and a scenario's load may hold stages (shared/model/stages.ts); an older
 * app would drop them and run a fixed level instead, so the version says they may be there.
 */
export const presetV4Schema = withNamedReport(4, LEGACY_RUN);
export type PresetV4 = z.infer<typeof presetV4Schema>;

/**
 * Version 5 (current): as 4, a run's preset of kind 'run' (the job kind's name), no longer
 * 'scenario'; an older app would refuse the kind without saying why, so the version says it.
 */
export const presetV5Schema = withNamedReport(5, 'run');
export type PresetV5 = z.infer<typeof presetV5Schema>;

/** A preset as the app holds it: the current version. */
export type Preset = PresetV5;
export type PresetKind = Preset['kind'];

/** Any preset version this app reads. */
export const presetFileSchema = z.discriminatedUnion('version', [
  presetV1Schema,
  presetV2Schema,
  presetV3Schema,
  presetV4Schema,
  presetV5Schema,
]);
export type AnyPreset = z.infer<typeof presetFileSchema>;

export interface MigrationContext {
  /** A fresh preset id, for versions that had none. */
  newId(): string;
}

export const defaultMigrationContext: MigrationContext = {
  newId: () => globalThis.crypto.randomUUID(),
};

const v4ToV5 = (p: PresetV4): PresetV5 =>
  p.kind === LEGACY_RUN ? { ...p, version: 5, kind: 'run' } : { ...p, version: 5 };

const v3ToV4 = (p: PresetV3): PresetV4 => ({ ...p, version: 4 });

function v2ToV3(p: PresetV2): PresetV3 {
  return p.kind === 'comparison' ? { ...p, version: 3, plan: withReport(p.plan) } : { ...p, version: 3 };
}

function v1ToV2(p: PresetV1, ctx: MigrationContext): PresetV2 {
  return {
    format: PRESET_FORMAT,
    version: 2,
    id: ctx.newId(),
    name: p.name,
    description: '',
    createdAt: p.savedAt,
    updatedAt: p.savedAt,
    kind: LEGACY_RUN,
    scenario: p.scenario,
  };
}

/** Brings a preset of any known version up to the current one, one step at a time. */
export function migratePreset(p: AnyPreset, ctx: MigrationContext = defaultMigrationContext): Preset {
  switch (p.version) {
    case 1:
      return migratePreset(v1ToV2(p, ctx), ctx);
    case 2:
      return migratePreset(v2ToV3(p), ctx);
    case 3:
      return migratePreset(v3ToV4(p), ctx);
    case 4:
      return migratePreset(v4ToV5(p), ctx);
    case 5:
      return p;
  }
}

export type ParsedPreset =
  | {
      ok: true;
      value: Preset;
      /** The version the input was written in, when older than the current one. */ migratedFrom:
        number | null;
    }
  | { ok: false; issues: FieldIssue[] };

const fail = (path: string, message: string): ParsedPreset => ({ ok: false, issues: [{ path, message }] });

/**
 * Reads any JSON value as a preset: a preset file of any known version, or a bare scenario
 * or comparison plan (wrapped into a new preset named after it). Returns a current preset,
 * or the issues naming each bad field ("scenario.targets.0.url: URL is not valid ...").
 */
export function parsePresetFile(
  input: unknown,
  ctx: MigrationContext & { now?: () => Date } = defaultMigrationContext,
): ParsedPreset {
  if (!isRecord(input)) {
    return fail('', 'a preset file must hold a JSON object');
  }
  const now = (ctx.now ?? (() => new Date()))().toISOString();
  if (!('format' in input)) {
    if ('levels' in input) {
      const newer = newerVersionIssue(input, 'comparison plan', COMPARISON_PLAN_VERSION);
      if (newer) return { ok: false, issues: [newer] };
      const r = parseWith(comparisonPlanSchema, input);
      if (!r.ok) return r;
      return { ok: true, value: fromPlan(r.value, ctx.newId(), now), migratedFrom: null };
    }
    if ('targets' in input) {
      const newer = newerVersionIssue(input, 'scenario', SCENARIO_VERSION);
      if (newer) return { ok: false, issues: [newer] };
      const r = parseWith(scenarioSchema, input);
      if (!r.ok) return r;
      return { ok: true, value: fromScenario(r.value, ctx.newId(), now), migratedFrom: null };
    }
    return fail(
      'format',
      `not a Trebuchet preset (expected "format": "${PRESET_FORMAT}", or a scenario with "targets")`,
    );
  }
  if (input.format !== PRESET_FORMAT) {
    // Never quoted: the file may be anything a person pointed at.
    return fail('format', `not a Trebuchet preset (expected "format": "${PRESET_FORMAT}")`);
  }
  const version = input.version;
  if (typeof version !== 'number') return fail('version', 'version must be a number');
  const newer = newerVersionIssue(input, 'preset', PRESET_VERSION);
  if (newer) return { ok: false, issues: [newer] };
  if (![1, 2, 3, 4, PRESET_VERSION].includes(version)) {
    return fail(
      'version',
      `unknown preset version ${version}; this app reads versions 1 to ${PRESET_VERSION}`,
    );
  }
  const r = parseWith(presetFileSchema, input);
  if (!r.ok) return r;
  return {
    ok: true,
    value: migratePreset(r.value, ctx),
    migratedFrom: r.value.version === PRESET_VERSION ? null : r.value.version,
  };
}

function fromScenario(scenario: Scenario, id: string, now: string): Preset {
  return {
    format: PRESET_FORMAT,
    version: PRESET_VERSION,
    id,
    name: scenario.name.trim() || 'Imported scenario',
    description: '',
    createdAt: now,
    updatedAt: now,
    kind: 'run',
    scenario,
  };
}

function fromPlan(plan: ComparisonPlan, id: string, now: string): Preset {
  return {
    format: PRESET_FORMAT,
    version: PRESET_VERSION,
    id,
    name: plan.name.trim() || 'Imported comparison',
    description: '',
    createdAt: now,
    updatedAt: now,
    kind: 'comparison',
    plan: withReport(plan),
  };
}

/** What a caller saves: a name and the content; the store adds the id, version and timestamps. */
export const presetDraftSchema = z.discriminatedUnion('kind', [
  z.strictObject({
    name: presetNameSchema,
    description: descriptionSchema.default(''),
    kind: z.literal('run'),
    scenario: scenarioSchema,
  }),
  z.strictObject({
    name: presetNameSchema,
    description: descriptionSchema.default(''),
    kind: z.literal('comparison'),
    plan: comparisonPlanSchema.transform((plan) => withReport(plan)),
  }),
  z.strictObject({
    name: presetNameSchema,
    description: descriptionSchema.default(''),
    kind: z.literal('capacity'),
    plan: capacityPlanSchema,
  }),
]);
export type PresetDraftInput = z.input<typeof presetDraftSchema>;

/** A file name for an exported preset: "ab -n 50000 -c 500" -> "ab-n-50000-c-500.trebuchet-preset.json". */
export function presetFileName(name: string): string {
  return `${fileSlug(name, 'preset')}.trebuchet-preset.json`;
}
