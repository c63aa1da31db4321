import { z } from 'zod';
import { scenarioSchema } from './scenario.ts';
import type { RunResult, Sample } from './result.ts';

/**
 * The one contract between the UI and a host (Electron main over IPC, the web host over a
 * WebSocket). Each command has an input schema (validated by the host) and an output type.
 * Areas: run (more areas are added beside it: presets, history, export).
 */
export const runIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'run id is malformed');

export const commandInputSchemas = {
  'run.start': z.object({ scenario: scenarioSchema }),
  'run.stop': z.object({ runId: runIdSchema }),
} as const;

export interface CommandOutputs {
  'run.start': { runId: string };
  'run.stop': { stopped: boolean };
}

export type CommandName = keyof typeof commandInputSchemas;
/** What a caller passes (defaults may be omitted). */
export type CommandInput<K extends CommandName> = z.input<(typeof commandInputSchemas)[K]>;
/** What a handler receives after validation. */
export type CommandArgs<K extends CommandName> = z.output<(typeof commandInputSchemas)[K]>;
export type CommandOutput<K extends CommandName> = CommandOutputs[K];

/**
 * One event stream per run. A run executes its scenario's targets one after another;
 * each target yields one RunResult.
 */
export type RunEvent =
  | { type: 'started'; runId: string; targetCount: number }
  | { type: 'target-started'; runId: string; targetIndex: number }
  | { type: 'sample'; runId: string; targetIndex: number; sample: Sample }
  | { type: 'target-done'; runId: string; targetIndex: number; result: RunResult }
  /** The whole run ended; status 'cancelled' when stopped, results keep what was measured. */
  | { type: 'done'; runId: string; status: 'completed' | 'cancelled' | 'failed'; results: RunResult[] }
  /** The run broke down outside any target (host error); results so far are in earlier events. */
  | { type: 'error'; runId: string; message: string };

export type RunEventType = RunEvent['type'];

/**
 * What the renderer holds: a curated object per area, the same whichever host is behind it
 * (Electron's preload exposes it as window.trebuchet; the web host's WebSocket client
 * implements it too). Commands reject with an Error whose message names the bad field.
 */
export interface TrebuchetApi {
  run: {
    start(input: CommandInput<'run.start'>): Promise<CommandOutput<'run.start'>>;
    stop(input: CommandInput<'run.stop'>): Promise<CommandOutput<'run.stop'>>;
  };
  /** Every run's events; returns the unsubscribe function. */
  onRunEvent(listener: (event: RunEvent) => void): () => void;
}
