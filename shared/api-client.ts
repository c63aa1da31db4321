import type { CommandInput, CommandOutput, ComparisonEvent, RunEvent } from './api.ts';

/**
 * The zod-free half of the contract: the command names, the reply envelope and the one
 * builder that turns a transport into the curated `TrebuchetApi` object. Kept free of zod
 * because the sandboxed preload bundles it and needs none of the schemas.
 *
 * A command is named `area.verb`; adding an area means adding its names here, its input
 * schema in `commandInputSchemas`, its output in `CommandOutputs` and its handler in the
 * hosts' dispatch table (each step is a type error until done).
 */
export const COMMAND_NAMES = [
  'app.info',
  'run.start',
  'run.stop',
  'run.active',
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
  'compare.start',
  'compare.stop',
  'compare.active',
] as const;
export type CommandName = (typeof COMMAND_NAMES)[number];

export function isCommandName(value: unknown): value is CommandName {
  return typeof value === 'string' && (COMMAND_NAMES as readonly string[]).includes(value);
}

/** How a host answers a command, whatever the transport (IPC or WebSocket). */
export type CommandReply = { ok: true; value: unknown } | { ok: false; error: string };

type AreaOf<K extends string> = K extends `${infer A}.${string}` ? A : never;
export type ApiArea = AreaOf<CommandName>;

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
  /** Every run's events (only the runs this window or page started); returns the unsubscribe function. */
  onRunEvent(listener: (event: RunEvent) => void): () => void;
  /** Every comparison's events (only the comparisons this window or page started); returns the unsubscribe function. */
  onComparisonEvent(listener: (event: ComparisonEvent) => void): () => void;
};

/** Sends one command and resolves with the host's reply (a transport failure may reject). */
export type SendCommand = (command: CommandName, input: unknown) => Promise<CommandReply>;

/** Turns a reply into the command's value, or an Error carrying the host's message. */
export function unwrapReply(reply: CommandReply): unknown {
  if (reply.ok) return reply.value;
  throw new Error(reply.error);
}

/**
 * Builds the curated API object from a transport. Exactly the commands in COMMAND_NAMES
 * become methods, plus the two event subscriptions; nothing else (no generic channel)
 * reaches the renderer.
 */
export function createTrebuchetApi(
  send: SendCommand,
  events: Pick<TrebuchetApi, 'onRunEvent' | 'onComparisonEvent'>,
): TrebuchetApi {
  const areas: Record<string, Record<string, (input?: unknown) => Promise<unknown>>> = {};
  for (const command of COMMAND_NAMES) {
    const [area = '', verb = ''] = command.split('.');
    (areas[area] ??= {})[verb] = async (input?: unknown) => unwrapReply(await send(command, input));
  }
  // The only cast on the client side: the loop builds exactly the shape TrebuchetApi derives
  // from COMMAND_NAMES, and the host validated every value it answers with.
  return {
    ...areas,
    onRunEvent: events.onRunEvent,
    onComparisonEvent: events.onComparisonEvent,
  } as unknown as TrebuchetApi;
}
