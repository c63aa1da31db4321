import { z } from 'zod';
import { scenarioSchema } from './scenario.ts';
import { runResultSchema, sampleSchema } from './result.ts';
import type { CommandName } from './api-client.ts';

/**
 * The one contract between the UI and a host (Electron main over IPC, the web host over a
 * WebSocket). Each command has an input schema (validated by the host) and an output type.
 * Areas: app, run (more areas are added beside them: presets, history, export). The
 * command names, the reply envelope and the API object's type live in api-client.ts (no
 * zod there, so the preload can bundle it); they are re-exported here.
 */
export {
  COMMAND_NAMES,
  isCommandName,
  type ApiArea,
  type CommandName,
  type CommandReply,
  type TrebuchetApi,
} from './api-client.ts';

export const runIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'run id is malformed');

export const commandInputSchemas = {
  'app.info': z.object({}).optional(),
  'run.start': z.object({ scenario: scenarioSchema }),
  'run.stop': z.object({ runId: runIdSchema }),
} as const satisfies Record<CommandName, z.ZodType>;

/** Which host the UI talks to, for the About line and host-specific hints. */
export interface AppInfo {
  appVersion: string;
  host: 'electron' | 'web';
  /** The host's platform (process.platform), e.g. "linux". */
  platform: string;
}

export interface CommandOutputs {
  'app.info': AppInfo;
  'run.start': { runId: string };
  /** stopped is false when the run is unknown, already over, or not started by this caller. */
  'run.stop': { stopped: boolean };
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
  z.object({ type: z.literal('started'), runId: runIdField, targetCount: z.number().int().nonnegative() }),
  z.object({ type: z.literal('target-started'), runId: runIdField, targetIndex }),
  z.object({ type: z.literal('sample'), runId: runIdField, targetIndex, sample: sampleSchema }),
  z.object({ type: z.literal('target-done'), runId: runIdField, targetIndex, result: runResultSchema }),
  /** The whole run ended; status 'cancelled' when stopped, results keep what was measured. */
  z.object({
    type: z.literal('done'),
    runId: runIdField,
    status: z.enum(['completed', 'cancelled', 'failed']),
    results: z.array(runResultSchema),
  }),
  /** The run broke down outside any target (host error); results so far are in earlier events. */
  z.object({ type: z.literal('error'), runId: runIdField, message: z.string() }),
]);
export type RunEvent = z.infer<typeof runEventSchema>;

export type RunEventType = RunEvent['type'];
