import { z } from 'zod';
import type { ApiArea, CommandName } from './command-names.ts';
import { jobIdSchema, jobKindSchema, jobStartSchema, type ActiveJob, type JobEnvelope } from './jobs.ts';
import { shardPlacementSchema } from '../distributed/placement.ts';
import type { KubeConfirmation } from '../distributed/kube-confirmation.ts';
import {
  historyIdSchema,
  historyNameSchema,
  type HistorySummary,
  type HistoryRecord,
} from '../records/history.ts';
import type { Baseline } from '../records/baselines.ts';
import type { ResultDiff } from '../diff/compare.ts';
import { importFilesSchema, type ImportOutcome } from '../records/import.ts';
import { uiSettingsPatchSchema, type UiSettings } from '../records/settings.ts';
import { presetDraftSchema, presetIdSchema, presetNameSchema, type Preset } from '../records/presets.ts';
import {
  type ExportOutcome,
  type PresetSummary,
  type SaveOutcome,
  type StoreProblem,
} from '../records/preset-summary.ts';

/**
 * The one contract between the UI and a host (Electron main over IPC, the web host over a
 * WebSocket). Each command has an input schema (validated by the host) and an output type.
 * Areas: app, jobs, presets, history, settings. The command names and the reply envelope live in
 * shared/contract/command-names.ts (no zod there, so the preload can bundle them); they are
 * re-exported here. Jobs of every kind (runs, comparisons, capacity searches) start, stop,
 * stream and come back after a reload the same way: shared/contract/jobs.ts. The client
 * (shared/contract/client.ts) depends on this contract, never the other way round.
 */
export {
  COMMAND_NAMES,
  isCommandName,
  type ApiArea,
  type CommandName,
  type CommandReply,
} from './command-names.ts';

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

/** A part of a saved result by name (shared/diff/compare.ts namedParts). */
const partLabelSchema = z.string().min(1).max(1000);

const noInput = z.strictObject({}).optional();

export const commandInputSchemas = {
  'app.info': noInput,
  /** A job of a kind, with its plan. */
  'jobs.start': jobStartSchema,
  'jobs.stop': z.strictObject({ jobId: jobIdSchema }),
  /** The caller's jobs that have not ended, of one kind or all. */
  'jobs.active': z.strictObject({ kind: jobKindSchema.optional() }).optional(),
  /** A job's events after the n-th (-1: all), for a page whose connection dropped. */
  'jobs.events': z.strictObject({ jobId: jobIdSchema, after: z.number().int().min(-1) }),
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
  /**
   * Result files to keep in History (runs, comparisons, capacity searches, shard results to
   * merge). The web host takes this command over its own bounded HTTP path (IMPORT_PATH),
   * not the WebSocket, whose messages are capped far lower.
   */
  'history.import': z.strictObject({ files: importFilesSchema }),
  /** Makes a saved run the baseline of its subject (on), or no baseline (off). */
  'history.baseline': z.strictObject({ id: historyIdSchema, on: z.boolean() }),
  /**
   * Two saved runs compared figure by figure (next against base), as `trebuchet diff` does:
   * their parts matched by name, or the two parts named (History's diff picks any two).
   */
  'history.diff': z.strictObject({
    base: historyIdSchema,
    next: historyIdSchema,
    parts: z.strictObject({ base: partLabelSchema, next: partLabelSchema }).optional(),
  }),
  'settings.get': noInput,
  /** The parts of the UI's settings given replace the kept ones; the others stay. */
  'settings.set': z.strictObject({ ui: uiSettingsPatchSchema }),
  /** The kubeconfig's contexts (the Run tab's shards on Kubernetes). */
  'kube.contexts': noInput,
  /** What a run on these shards would start on Kubernetes, resolved by the host, for the page to confirm. */
  'kube.preview': z.strictObject({ shards: shardPlacementSchema }),
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
  /**
   * The web host only: the command that starts it again as it is now (port, data folder), and
   * whether a page holding this host's URL takes the restarted host back by itself (its token
   * is kept for the port) or needs the new URL it prints (a port picked at random).
   */
  restart?: { command: string; samePage: boolean };
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
  /** Per subject, the run later ones are compared with. */
  baselines: Baseline[];
  problems: StoreProblem[];
}

export interface CommandOutputs {
  'app.info': AppInfo;
  'jobs.start': { jobId: string };
  /** stopped is false when the job is unknown, already over, or not started by this caller. */
  'jobs.stop': { stopped: boolean };
  /** The caller's jobs that have not ended, oldest first. */
  'jobs.active': { jobs: ActiveJob[] };
  /** Empty for a job that is not the caller's, or ended long enough ago to be forgotten. */
  'jobs.events': { events: JobEnvelope[] };
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
  'history.get': HistoryRecord;
  'history.rename': HistorySummary;
  'history.import': ImportOutcome;
  'history.baseline': { baselines: Baseline[] };
  'history.diff': ResultDiff;
  'history.delete': { deleted: boolean };
  /** The host's kubeconfig contexts (as kubectl finds it), for a run on Kubernetes; problem: why none could be read. */
  'kube.contexts': {
    contexts: string[];
    current: string | null;
    problem: string | null;
    /** False: this host starts no run on Kubernetes (a web host without --allow-kubernetes). */
    allowed: boolean;
  };
  /** The context, namespace, image and pod count the host would start; jobs.start takes them back confirmed. */
  'kube.preview': KubeConfirmation;
  'settings.get': SettingsReply;
  'settings.set': SettingsReply;
}

/** The UI's settings as the host keeps them, and where (a file; the desktop's is electron-store's). */
export interface SettingsReply {
  ui: UiSettings;
  file: string;
}

/** What a caller passes (defaults may be omitted). */
export type CommandInput<K extends CommandName> = z.input<(typeof commandInputSchemas)[K]>;
/** What a handler receives after validation. */
export type CommandArgs<K extends CommandName> = z.output<(typeof commandInputSchemas)[K]>;
export type CommandOutput<K extends CommandName> = CommandOutputs[K];

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
   * One job's events (a job this window or page started), from now on; returns the
   * unsubscribe function. Subscribe when jobs.start answers: the host sends a job's first
   * event after that reply.
   */
  onJobEvent(jobId: string, listener: (envelope: JobEnvelope) => void): () => void;
};
