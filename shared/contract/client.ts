import type { FieldIssue } from '../model/validation.ts';
import type { CommandName, CommandReply, TrebuchetApi } from './api.ts';
import { COMMAND_NAMES } from './command-names.ts';

/*
 * The client side of the contract (shared/contract/api.ts): the one builder that turns a transport
 * into the curated `TrebuchetApi` object, and the router of job events. Kept free of zod
 * (it imports api.ts for types only) because the sandboxed preload bundles it.
 */

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

/** A host's refusal of a command: its message, and the fields it named (paths from the command's input). */
export class CommandError extends Error {
  readonly issues: readonly FieldIssue[];
  constructor(message: string, issues: readonly FieldIssue[] = []) {
    super(message);
    this.name = 'CommandError';
    this.issues = issues;
  }
}

/** Turns a reply into the command's value, or a CommandError carrying the host's message and fields. */
export function unwrapReply(reply: CommandReply): unknown {
  if (reply.ok) return reply.value;
  throw new CommandError(reply.error, reply.issues);
}

/**
 * Builds the curated API object from a transport. Exactly the commands in COMMAND_NAMES
 * become methods, plus the event subscriptions; nothing else (no generic channel)
 * reaches the renderer.
 */
export function createTrebuchetApi(
  send: SendCommand,
  events: Pick<TrebuchetApi, 'onRunEvent' | 'onComparisonEvent' | 'onCapacityEvent'>,
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
    onCapacityEvent: events.onCapacityEvent,
  } as unknown as TrebuchetApi;
}
