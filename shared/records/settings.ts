import { z } from 'zod';
import { capacityPlanSchema } from '../capacity/plan.ts';
import { comparisonPlanSchema } from '../comparison/plan.ts';
import { matrixColumnIdSchema } from '../comparison/report-settings.ts';
import { metricsOutSchema, NO_METRICS_OUT } from '../metrics/outs.ts';
import { scenarioSchema } from '../model/scenario.ts';

/*
 * What a host keeps of the app between starts (issue 22): the view shown, the Run, Compare
 * and Capacity drafts, the matrix's columns, where live metrics go and, on the desktop, the
 * window's place. One
 * store per host (the desktop's electron-store in userData, the web host's web-settings.json
 * in its data folder); presets stay one file each (docs/presets-history-comparisons.md).
 */

/**
 * The settings' version. The desktop's electron-store records it as its `projectVersion`
 * (`${SETTINGS_VERSION}.0.0`), so its `migrations` are keyed by this number, not by the app's
 * version; the web host's file carries it as `version`.
 */
export const SETTINGS_VERSION = 1;

/** Drafts hold at most a browser-picked file or two (LIMITS.uploadBytes each); a settings file past this is refused. */
export const MAX_SETTINGS_BYTES = 8 * 1024 * 1024;

const SETTINGS_VIEWS = ['run', 'compare', 'capacity', 'history', 'presets'] as const;
const settingsViewSchema = z.enum(SETTINGS_VIEWS);

/**
 * A draft is kept as the last form of it that validated (a scenario or a plan, with the
 * schema of presets), with whether it was edited since it was opened or saved: the app asks
 * before opening a preset over an edited one. Secret header values are never kept here.
 */
const draftOf = <T extends z.ZodType>(content: T) =>
  z.strictObject({ content, edited: z.boolean() }).nullable();

export const uiSettingsSchema = z.strictObject({
  /** The view (top tab) shown last. */
  view: settingsViewSchema,
  drafts: z.strictObject({
    run: draftOf(scenarioSchema),
    compare: draftOf(comparisonPlanSchema),
    capacity: draftOf(capacityPlanSchema),
  }),
  /** The comparison matrix's columns as last picked; null: each plan's own. */
  matrixColumns: z.array(matrixColumnIdSchema).min(1).max(64).nullable(),
  /** "Send live metrics to …": where every job's live metrics go (docs/metrics.md); absent in files saved before it existed. */
  metrics: metricsOutSchema.default(NO_METRICS_OUT),
});
export type UiSettings = z.infer<typeof uiSettingsSchema>;

/**
 * A change to the UI's settings: the parts given replace the kept ones. What a settings file
 * may leave out (metrics, by its default) is not filled in here, or a patch that does not name
 * it would put the default over the kept value.
 */
export const uiSettingsPatchSchema = uiSettingsSchema
  .partial()
  .extend({ metrics: metricsOutSchema.optional() });
export type UiSettingsPatch = z.input<typeof uiSettingsPatchSchema>;

const coordinate = z.number().int().min(-1_000_000).max(1_000_000);
const extent = z.number().int().min(100).max(100_000);

/** The desktop window's place and size in screen coordinates (before maximizing), and whether it was maximized. */
const windowBoundsSchema = z.strictObject({
  x: coordinate,
  y: coordinate,
  width: extent,
  height: extent,
  maximized: z.boolean(),
});
export type WindowBounds = z.infer<typeof windowBoundsSchema>;

/** What a settings store holds (electron-store keeps its version beside it). */
export const settingsSchema = z.strictObject({
  ui: uiSettingsSchema,
  /** Desktop only; null until the window was first moved or resized. */
  window: windowBoundsSchema.nullable(),
});
export type Settings = z.infer<typeof settingsSchema>;

/** The version a settings file says it is (the web host's file carries it beside the settings). */
export const settingsVersionSchema = z.number().int().min(1);

export function defaultUiSettings(): UiSettings {
  return {
    view: 'run',
    drafts: { run: null, compare: null, capacity: null },
    matrixColumns: null,
    metrics: NO_METRICS_OUT,
  };
}

export function defaultSettings(): Settings {
  return { ui: defaultUiSettings(), window: null };
}

/**
 * How a document of an earlier version becomes the next one: SETTINGS_MIGRATIONS[n] takes a
 * version n-1 document and returns a version n one (validated by settingsSchema afterwards).
 * Version 1 is the first, so there is none yet; the desktop passes these to electron-store as
 * its `migrations` (keyed `${n}.0.0`), the web host runs them on its file.
 */
export type SettingsMigrations = Readonly<
  Record<number, (old: Record<string, unknown>) => Record<string, unknown>>
>;
export const SETTINGS_MIGRATIONS: SettingsMigrations = {};

/** The document of version `from` brought to version `to` (not yet validated). */
export function migrateSettings(
  doc: Record<string, unknown>,
  from: number,
  to: number = SETTINGS_VERSION,
  migrations: SettingsMigrations = SETTINGS_MIGRATIONS,
): Record<string, unknown> {
  let out = doc;
  for (let v = from + 1; v <= to; v++) {
    const step = migrations[v];
    if (step) out = step(out);
  }
  return out;
}
