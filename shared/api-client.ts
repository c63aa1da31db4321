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
  /**
   * One run's events (a run this window or page started), from now on; returns the
   * unsubscribe function. Subscribe when run.start answers: the host sends a run's first
   * event after that reply.
   */
  onRunEvent(runId: string, listener: (event: RunEvent) => void): () => void;
  /** One comparison's events, from now on (subscribe when compare.start answers); returns the unsubscribe function. */
  onComparisonEvent(comparisonId: string, listener: (event: ComparisonEvent) => void): () => void;
};

/**
 * The receiving end of a window's or page's event channel, which carries the events of all
 * of its jobs: each event goes to the listeners of its own job only (a lookup, not a
 * broadcast), and one of a job nobody follows is dropped. The preload and the WebSocket
 * client each hold one per kind of job.
 */
export class JobEvents<E> {
  readonly #listeners = new Map<string, Set<(event: E) => void>>();
  readonly #idOf: (event: E) => string;
  readonly #what: string;

  constructor(idOf: (event: E) => string, what: string) {
    this.#idOf = idOf;
    this.#what = what;
  }

  subscribe(id: string, listener: (event: E) => void): () => void {
    const listeners = this.#listeners.get(id) ?? new Set();
    listeners.add(listener);
    this.#listeners.set(id, listeners);
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0 && this.#listeners.get(id) === listeners) this.#listeners.delete(id);
    };
  }

  deliver(event: E): void {
    for (const listener of this.#listeners.get(this.#idOf(event)) ?? []) {
      try {
        listener(event);
      } catch (error) {
        console.error(`trebuchet: a ${this.#what} event listener failed:`, error);
      }
    }
  }

  /** Jobs followed now. */
  get size(): number {
    return this.#listeners.size;
  }
}

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
