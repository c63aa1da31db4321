/*
 * The command names and the reply envelope: the zod-free part of the contract
 * (shared/contract/api.ts), which the sandboxed preload bundles.
 *
 * A command is named `area.verb`; adding an area means adding its names here, its input
 * schema in `commandInputSchemas`, its output in `CommandOutputs` and its handler in the
 * hosts' dispatch table (each step is a type error until done).
 */
import type { FieldIssue } from '../model/validation.ts';

export const COMMAND_NAMES = [
  'app.info',
  'jobs.start',
  'jobs.stop',
  'jobs.active',
  'jobs.events',
  'presets.list',
  'presets.get',
  'presets.save',
  'presets.rename',
  'presets.duplicate',
  'presets.delete',
  'presets.import',
  'presets.export',
  'history.list',
  'history.get',
  'history.rename',
  'history.delete',
  'history.import',
  'history.baseline',
  'history.diff',
  'settings.get',
  'settings.set',
  'kube.contexts',
  'kube.preview',
] as const;
export type CommandName = (typeof COMMAND_NAMES)[number];

export function isCommandName(value: unknown): value is CommandName {
  return typeof value === 'string' && (COMMAND_NAMES as readonly string[]).includes(value);
}

/**
 * How a host answers a command, whatever the transport (IPC or WebSocket). A refused input
 * names its fields (issues, paths from the command's input: "scenario.targets.0.body.path"),
 * so a form can say it at the field.
 */
export type CommandReply = { ok: true; value: unknown } | { ok: false; error: string; issues?: FieldIssue[] };

type AreaOf<K extends string> = K extends `${infer A}.${string}` ? A : never;
export type ApiArea = AreaOf<CommandName>;
