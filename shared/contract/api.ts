import { z } from 'zod';
import type { ApiArea, CommandName } from './command-names.ts';
import { capacityPlanSchema, type CapacityEvent, type CapacityPlan } from '../capacity/plan.ts';
import type { ComparisonEvent } from '../comparison/cells.ts';
import { comparisonPlanSchema, type ComparisonPlan } from '../comparison/plan.ts';
import {
  historyIdSchema,
  historyNameSchema,
  type HistorySummary,
  type RunRecord,
} from '../records/history.ts';
import { presetDraftSchema, presetIdSchema, presetNameSchema, type Preset } from '../records/presets.ts';
import {
  type ExportOutcome,
  type PresetSummary,
  type SaveOutcome,
  type StoreProblem,
} from '../records/preset-summary.ts';
import { resourceSampleSchema } from '../resources/resources.ts';
import { runResultSchema, runStatusSchema, sampleSchema } from '../model/result.ts';
import { scenarioSchema, type Scenario } from '../model/scenario.ts';

/**
 * The one contract between the UI and a host (Electron main over IPC, the web host over a
 * WebSocket). Each command has an input schema (validated by the host) and an output type.
 * Areas: app, run, presets, history, compare, capacity. The command names and the reply envelope live
 * in shared/contract/command-names.ts (no zod there, so the preload can bundle them); they are re-exported
 * here. The client (shared/contract/client.ts) depends on this contract, never the other way round.
 */
export {
  COMMAND_NAMES,
  isCommandName,
  type ApiArea,
  type CommandName,
  type CommandReply,
} from './command-names.ts';

export type { ComparisonEvent } from '../comparison/cells.ts';
export type { CapacityEvent } from '../capacity/plan.ts';

export const runIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'run id is malformed');
export const comparisonIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'comparison id is malformed');
export const capacityIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'capacity search id is malformed');

/** A preset file is a few kilobytes; the web host's message limit is 4 MiB. */
export const MAX_PRESET_TEXT = 1024 * 1024;

/**
 * How to treat secret header values (Authorization, Cookie, API keys) where they would be
 * written as plain text: a store without encryption, or an exported file. Without either
 * flag the host answers `secrets-need-consent` and writes nothing.
 */
const secretChoice = {
  allowPlaintextSecrets: z.boolean().optional(),
  omitSecrets: z.boolean().optional(),
};

const noInput = z.strictObject({}).optional();

export const commandInputSchemas = {
  'app.info': noInput,
  'run.start': z.strictObject({ scenario: scenarioSchema }),
  'run.stop': z.strictObject({ runId: runIdSchema }),
  'run.active': noInput,
  'presets.list': noInput,
  'presets.get': z.strictObject({ id: presetIdSchema }),
  /** A new preset, or (with id) new content for the user preset id. */
  'presets.save': z.strictObject({
    preset: presetDraftSchema,
    id: presetIdSchema.optional(),
    ...secretChoice,
  }),
  'presets.rename': z.strictObject({ id: presetIdSchema, name: presetNameSchema }),
  'presets.duplicate': z.strictObject({ id: presetIdSchema, name: presetNameSchema.optional() }),
  'presets.delete': z.strictObject({ id: presetIdSchema }),
  /** The text of a preset file (any version), or of a bare scenario or comparison plan. */
  'presets.import': z.strictObject({
    text: z.string().max(MAX_PRESET_TEXT, `a preset file is at most ${MAX_PRESET_TEXT} characters`),
    ...secretChoice,
  }),
  'presets.export': z.strictObject({ id: presetIdSchema, ...secretChoice }),
  'history.list': noInput,
  'history.get': z.strictObject({ id: historyIdSchema }),
  'history.rename': z.strictObject({ id: historyIdSchema, name: historyNameSchema }),
  'history.delete': z.strictObject({ id: historyIdSchema }),
  'compare.start': z.strictObject({ plan: comparisonPlanSchema }),
  'compare.stop': z.strictObject({ comparisonId: comparisonIdSchema }),
  'compare.active': noInput,
  'capacity.start': z.strictObject({ plan: capacityPlanSchema }),
  'capacity.stop': z.strictObject({ capacityId: capacityIdSchema }),
  'capacity.active': noInput,
} as const satisfies Record<CommandName, z.ZodType>;

/** Which host the UI talks to, for the About line and host-specific hints. */
export interface AppInfo {
  appVersion: string;
  host: 'electron' | 'web';
  /** The host's platform (process.platform), e.g. "linux". */
  platform: string;
  /** Where presets/ and history/ live; absent from hosts without stores. */
  dataDir?: string;
  /**
   * The web host only: the folder whose files a scenario may name (trebuchet serve
   * --files-dir), or null when it reads none (files are picked in the browser and sent).
   * Absent from the desktop app, which reads any path.
   */
  filesDir?: string | null;
  /** Store files that were broken and kept aside, or secrets that could not be decrypted. */
  problems?: StoreProblem[];
}

/** How a store keeps secret header values: encrypted (desktop keychain) or plain text (asks first). */
export type SecretStorage = 'encrypted' | 'plaintext';

export interface PresetList {
  /** Built-in presets first (read-only), then the user's in the order they were created. */
  presets: PresetSummary[];
  secretStorage: SecretStorage;
  /** Where the user's presets are kept: the presets/ folder, one file each. */
  file: string;
  problems: StoreProblem[];
}

export interface HistoryList {
  /** Newest first. */
  runs: HistorySummary[];
  /** The history directory. */
  dir: string;
  problems: StoreProblem[];
}

/**
 * A run the caller (this window, this page across reloads) started and that has not ended,
 * so a reloaded page takes it up again where it stands.
 */
export interface ActiveRun {
  runId: string;
  scenario: Scenario;
  /**
   * Its events so far, in order, to replay as if they had just arrived. Samples of a finished
   * target are left out (its result carries them all); the target running now keeps its
   * latest samples, one per tick (bounded, the oldest go first on a very long run).
   */
  events: RunEvent[];
  /** Seconds since the target running now started; null between targets. */
  targetElapsedSeconds: number | null;
}

/** A comparison the caller started and that has not ended, for a reloaded page. */
export interface ActiveComparison {
  comparisonId: string;
  plan: ComparisonPlan;
  /** Its events so far, in order: every one but the cells' samples, of which only the latest is kept. */
  events: ComparisonEvent[];
}

/** A capacity search the caller started and that has not ended, for a reloaded page. */
export interface ActiveCapacity {
  capacityId: string;
  plan: CapacityPlan;
  /** Its events so far, in order: every one but the steps' samples, of which only the latest is kept. */
  events: CapacityEvent[];
}

export interface CommandOutputs {
  'app.info': AppInfo;
  'run.start': { runId: string };
  /** stopped is false when the run is unknown, already over, or not started by this caller. */
  'run.stop': { stopped: boolean };
  /** The caller's runs that have not ended, oldest first. */
  'run.active': { runs: ActiveRun[] };
  'presets.list': PresetList;
  'presets.get': { preset: Preset; source: PresetSummary['source'] };
  'presets.save': SaveOutcome;
  'presets.rename': PresetSummary;
  'presets.duplicate': PresetSummary;
  /** deleted is false when there was no such preset. */
  'presets.delete': { deleted: boolean };
  'presets.import': SaveOutcome;
  'presets.export': ExportOutcome;
  'history.list': HistoryList;
  'history.get': RunRecord;
  'history.rename': HistorySummary;
  'history.delete': { deleted: boolean };
  'compare.start': { comparisonId: string };
  /** stopped is false when the comparison is unknown, already over, or not started by this caller. */
  'compare.stop': { stopped: boolean };
  /** The caller's comparisons that have not ended, oldest first. */
  'compare.active': { comparisons: ActiveComparison[] };
  'capacity.start': { capacityId: string };
  /** stopped is false when the search is unknown, already over, or not started by this caller. */
  'capacity.stop': { stopped: boolean };
  /** The caller's capacity searches that have not ended, oldest first. */
  'capacity.active': { searches: ActiveCapacity[] };
}

/** What a caller passes (defaults may be omitted). */
export type CommandInput<K extends CommandName> = z.input<(typeof commandInputSchemas)[K]>;
/** What a handler receives after validation. */
export type CommandArgs<K extends CommandName> = z.output<(typeof commandInputSchemas)[K]>;
export type CommandOutput<K extends CommandName> = CommandOutputs[K];

const runIdField = z.string();
const targetIndex = z.number().int().nonnegative();

/**
 * One event stream per run. A run executes its scenario's targets one after another;
 * each target yields one RunResult. A run's events reach its caller only after the
 * `run.start` reply.
 */
export const runEventSchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('started'),
    runId: runIdField,
    targetCount: z.number().int().nonnegative(),
  }),
  z.strictObject({ type: z.literal('target-started'), runId: runIdField, targetIndex }),
  z.strictObject({ type: z.literal('sample'), runId: runIdField, targetIndex, sample: sampleSchema }),
  /**
   * One reading of the target's server (target.monitor), on the same time axis as the engine
   * sample it was taken at (same seq and elapsedSeconds); at most one per engine sample, and
   * at most one per DEFAULTS.monitor.minIntervalMs. The target's result carries them all.
   */
  z.strictObject({
    type: z.literal('server-sample'),
    runId: runIdField,
    targetIndex,
    sample: resourceSampleSchema,
  }),
  z.strictObject({ type: z.literal('target-done'), runId: runIdField, targetIndex, result: runResultSchema }),
  /** The whole run ended; status 'cancelled' when stopped, results keep what was measured. */
  z.strictObject({
    type: z.literal('done'),
    runId: runIdField,
    status: runStatusSchema,
    results: z.array(runResultSchema),
    /** Set by a host that saved the run in history before passing this on (the saved run's id), or could not. */
    historyId: z.string().optional(),
    historyError: z.string().optional(),
  }),
  /** The run broke down outside any target (host error); results so far are in earlier events. */
  z.strictObject({ type: z.literal('error'), runId: runIdField, message: z.string() }),
]);
export type RunEvent = z.infer<typeof runEventSchema>;

/** Commands whose input may be omitted (e.g. `app.info()`) take it as an optional argument. */
export type CommandMethod<K extends CommandName> =
  undefined extends CommandInput<K>
    ? (input?: CommandInput<K>) => Promise<CommandOutput<K>>
    : (input: CommandInput<K>) => Promise<CommandOutput<K>>;

/**
 * What the renderer holds: one object per area with one method per command, the same
 * whichever host is behind it (Electron's preload exposes it as `window.trebuchet`, the
 * web host's WebSocket client builds it too). Commands reject with an Error whose message
 * names the bad field.
 */
export type TrebuchetApi = {
  [A in ApiArea]: { [K in CommandName as K extends `${A}.${infer V}` ? V : never]: CommandMethod<K> };
} & {
  /**
   * One run's events (a run this window or page started), from now on; returns the
   * unsubscribe function. Subscribe when run.start answers: the host sends a run's first
   * event after that reply.
   */
  onRunEvent(runId: string, listener: (event: RunEvent) => void): () => void;
  /** One comparison's events, from now on (subscribe when compare.start answers); returns the unsubscribe function. */
  onComparisonEvent(comparisonId: string, listener: (event: ComparisonEvent) => void): () => void;
  /** One capacity search's events, from now on (subscribe when capacity.start answers); returns the unsubscribe function. */
  onCapacityEvent(capacityId: string, listener: (event: CapacityEvent) => void): () => void;
};
