import type { FieldIssue } from '../model/validation.ts';
import type { CommandName, CommandReply, TrebuchetApi } from './api.ts';
import type { JobEnvelope } from './jobs.ts';
import { COMMAND_NAMES } from './command-names.ts';

/*
 * The client side of the contract (shared/contract/api.ts): the one builder that turns a transport
 * into the curated `TrebuchetApi` object, and the router of job events. Kept free of zod
 * (it imports api.ts and jobs.ts for types only) because the sandboxed preload bundles it.
 */

type Listener = (envelope: JobEnvelope) => void;

/**
 * The receiving end of a window's or page's event channel, which carries the events of all
 * of its jobs: each event goes to the listeners of its own job only (a lookup, not a
 * broadcast), and one of a job nobody follows is dropped. It passes each event of a job once,
 * in order (n), so events sent twice (a reconnect's catch-up beside the live stream) are
 * applied once. The preload and the WebSocket client each hold one.
 */
export class JobEvents {
  readonly #listeners = new Map<string, Set<Listener>>();
  /** The last event number passed on, per followed job. */
  readonly #last = new Map<string, number>();
  /** Jobs catching up (catchUp): their live events wait here, in order. */
  readonly #held = new Map<string, JobEnvelope[]>();

  subscribe(jobId: string, listener: Listener): () => void {
    const listeners = this.#listeners.get(jobId) ?? new Set();
    listeners.add(listener);
    this.#listeners.set(jobId, listeners);
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0 && this.#listeners.get(jobId) === listeners) {
        this.#listeners.delete(jobId);
        this.#last.delete(jobId);
        this.#held.delete(jobId);
      }
    };
  }

  deliver(envelope: JobEnvelope): void {
    const held = this.#held.get(envelope.jobId);
    if (held) held.push(envelope);
    else this.#pass(envelope);
  }

  /** The jobs followed now, with the last event number each got (-1: none yet). */
  followed(): { jobId: string; after: number }[] {
    return [...this.#listeners.keys()].map((jobId) => ({ jobId, after: this.#last.get(jobId) ?? -1 }));
  }

  /**
   * Holds a followed job's live events while what it missed is fetched (a reconnect), then
   * passes the missed events and the held ones in order, each once.
   */
  async catchUp(jobId: string, missed: () => Promise<JobEnvelope[]>): Promise<void> {
    if (!this.#listeners.has(jobId) || this.#held.has(jobId)) return;
    this.#held.set(jobId, []);
    try {
      for (const envelope of await missed()) this.#pass(envelope);
    } finally {
      const held = this.#held.get(jobId) ?? [];
      this.#held.delete(jobId);
      for (const envelope of held) this.#pass(envelope);
    }
  }

  #pass(envelope: JobEnvelope): void {
    const listeners = this.#listeners.get(envelope.jobId);
    if (!listeners) return;
    if (envelope.n <= (this.#last.get(envelope.jobId) ?? -1)) return;
    this.#last.set(envelope.jobId, envelope.n);
    for (const listener of listeners) {
      try {
        listener(envelope);
      } catch (error) {
        console.error(`trebuchet: a ${envelope.kind} event listener failed:`, error);
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
 * become methods, plus the one event subscription; nothing else (no generic channel)
 * reaches the renderer.
 */
export function createTrebuchetApi(
  send: SendCommand,
  events: Pick<TrebuchetApi, 'onJobEvent'>,
): TrebuchetApi {
  const areas: Record<string, Record<string, (input?: unknown) => Promise<unknown>>> = {};
  for (const command of COMMAND_NAMES) {
    const [area = '', verb = ''] = command.split('.');
    (areas[area] ??= {})[verb] = async (input?: unknown) => unwrapReply(await send(command, input));
  }
  // The only cast on the client side: the loop builds exactly the shape TrebuchetApi derives
  // from COMMAND_NAMES, and the host validated every value it answers with.
  return { ...areas, onJobEvent: events.onJobEvent } as unknown as TrebuchetApi;
}
