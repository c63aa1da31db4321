import { createTrebuchetApi, JobEvents, unwrapReply } from '../../shared/contract/client.ts';
import type { CommandName, CommandOutput, CommandReply, TrebuchetApi } from '../../shared/contract/api.ts';
import {
  commandReplySchema,
  HTTP_COMMANDS,
  pageMessageSchema,
  type ClientMessage,
} from '../../shared/contract/web-protocol.ts';

/** What the client needs to hear from a socket. */
export interface SocketHandlers {
  open(): void;
  message(data: unknown): void;
  /** Also after a failed attempt (browsers fire error, then close). */
  close(): void;
}

/**
 * The part of a WebSocket this client uses. The browser's, Node's global one and the `ws`
 * package's all fit behind createSocket, so tests drive the same code against the real host.
 */
export interface SocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

const OPEN = 1;

export interface WebSocketApiOptions {
  /** ws:// URL of the web host's socket, token included. */
  url: string;
  /** Opens a socket and wires its events to handlers. */
  createSocket(url: string, handlers: SocketHandlers): SocketLike;
  /** Delay before the first reconnect attempt; doubles up to maxReconnectDelayMs. */
  reconnectDelayMs?: number;
  maxReconnectDelayMs?: number;
  /** How long a command waits for the connection to come back before it rejects. */
  offlineTimeoutMs?: number;
  /** Told whenever the connection goes up or down (for a "reconnecting" banner). */
  onConnectionChange?(connected: boolean): void;
  /**
   * Sends a command over HTTP to the path given (HTTP_COMMANDS: History's import, too large for
   * a socket message); without it those commands go over the socket too.
   */
  post?(path: string, command: CommandName, input: unknown): Promise<CommandReply>;
}

export interface WebSocketApi {
  api: TrebuchetApi;
  readonly connected: boolean;
  /** Closes the socket for good (no reconnect); pending commands reject. */
  close(): void;
}

interface Pending {
  resolve(reply: CommandReply): void;
  reject(error: Error): void;
}

/**
 * Opens the web host's WebSocket and implements TrebuchetApi over it. Resolves once the
 * first connection is open; rejects if that first attempt fails. Afterwards a dropped
 * connection is reopened with backoff: commands sent meanwhile wait for it (up to
 * offlineTimeoutMs), commands whose reply was lost with the old socket reject, and the jobs
 * followed resume on the new socket: each asks the host for the events after the last one it
 * got (jobs.events, from the job's replay), its live ones waiting meanwhile, so none is lost
 * or applied twice. Every message from the host is validated; malformed ones are dropped.
 */
export function connectWebSocketApi(opts: WebSocketApiOptions): Promise<WebSocketApi> {
  const baseDelay = opts.reconnectDelayMs ?? 250;
  const maxDelay = opts.maxReconnectDelayMs ?? 5000;
  const offlineTimeout = opts.offlineTimeoutMs ?? 15_000;
  const jobs = new JobEvents();
  const pending = new Map<number, Pending>();
  const waitingForOpen = new Set<{ wake(): void; fail(error: Error): void }>();
  let nextId = 1;
  let socket: SocketLike | null = null;
  let connected = false;
  let closed = false;
  let delay = baseDelay;
  let reconnectTimer: ReturnType<typeof setTimeout> | null = null;

  const setConnected = (value: boolean) => {
    if (connected === value) return;
    connected = value;
    opts.onConnectionChange?.(value);
  };

  const receive = (data: unknown) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(String(data));
    } catch {
      console.warn('trebuchet: dropped a message from the host that is not JSON');
      return;
    }
    const message = pageMessageSchema.safeParse(parsed);
    if (!message.success) {
      console.warn('trebuchet: dropped a malformed message from the host:', message.error.message);
      return;
    }
    const msg = message.data;
    if (msg.kind === 'reply') {
      const waiter = pending.get(msg.id);
      pending.delete(msg.id);
      waiter?.resolve(msg.reply.ok ? { ok: true, value: msg.reply.value } : msg.reply);
      return;
    }
    jobs.deliver(msg.envelope);
  };

  /** After a reconnect: each followed job gets the events the host sent while the page was away. */
  const catchUp = () => {
    for (const { jobId, after } of jobs.followed()) {
      jobs
        .catchUp(jobId, async () => {
          const value = unwrapReply(await send('jobs.events', { jobId, after }));
          return (value as CommandOutput<'jobs.events'>).events;
        })
        .catch((e: unknown) =>
          console.warn('trebuchet: could not catch up with a job after a reconnect:', e),
        );
    }
  };

  const open = (onFirst?: { resolve(): void; reject(error: Error): void }) => {
    const ws: SocketLike = opts.createSocket(opts.url, {
      message: receive,
      open: () => {
        delay = baseDelay;
        setConnected(true);
        for (const waiter of waitingForOpen) waiter.wake();
        waitingForOpen.clear();
        if (onFirst) onFirst.resolve();
        else catchUp();
        onFirst = undefined;
      },
      close: () => {
        if (socket !== ws) return;
        socket = null;
        setConnected(false);
        for (const [id, waiter] of pending) {
          pending.delete(id);
          waiter.reject(new Error('lost the connection to the Trebuchet host before it answered'));
        }
        if (onFirst) {
          closed = true;
          onFirst.reject(
            new Error(
              'could not connect to the Trebuchet host (is it running, and is the token in the page URL right?)',
            ),
          );
          return;
        }
        if (closed) return;
        reconnectTimer = setTimeout(() => {
          reconnectTimer = null;
          if (!closed) open();
        }, delay);
        delay = Math.min(delay * 2, maxDelay);
      },
    });
    socket = ws;
  };

  const whenOpen = (): Promise<void> => {
    if (closed) return Promise.reject(new Error('the connection to the Trebuchet host was closed'));
    if (connected) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const waiter = {
        wake() {
          clearTimeout(timer);
          resolve();
        },
        fail(error: Error) {
          clearTimeout(timer);
          reject(error);
        },
      };
      const timer = setTimeout(() => {
        waitingForOpen.delete(waiter);
        reject(new Error('not connected to the Trebuchet host (still reconnecting)'));
      }, offlineTimeout);
      waitingForOpen.add(waiter);
    });
  };

  const send = async (command: CommandName, input: unknown): Promise<CommandReply> => {
    const path = HTTP_COMMANDS[command];
    if (path !== undefined && opts.post) return opts.post(path, command, input);
    await whenOpen();
    const ws = socket;
    if (!ws || ws.readyState !== OPEN) throw new Error('not connected to the Trebuchet host');
    const id = nextId++;
    const message: ClientMessage = { id, command, input };
    return new Promise<CommandReply>((resolve, reject) => {
      pending.set(id, { resolve, reject });
      ws.send(JSON.stringify(message));
    });
  };

  const api = createTrebuchetApi(send, { onJobEvent: (jobId, listener) => jobs.subscribe(jobId, listener) });

  return new Promise<WebSocketApi>((resolve, reject) => {
    open({
      resolve: () =>
        resolve({
          api,
          get connected() {
            return connected;
          },
          close() {
            closed = true;
            if (reconnectTimer) clearTimeout(reconnectTimer);
            for (const waiter of waitingForOpen)
              waiter.fail(new Error('the connection to the Trebuchet host was closed'));
            waitingForOpen.clear();
            socket?.close(1000, 'closed by the page');
          },
        }),
      reject,
    });
  });
}

/**
 * A command posted over HTTP (WebSocketApiOptions.post) with fetch: the reply envelope the
 * host answers, or a refusal carrying the host's text (a body over the cap, a wrong token).
 */
export async function postCommand(url: string, input: unknown): Promise<CommandReply> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(input),
  });
  const text = await response.text();
  if (!response.ok) return { ok: false, error: text || `the host answered ${response.status}` };
  const reply = commandReplySchema.safeParse(JSON.parse(text));
  if (!reply.success) return { ok: false, error: 'the host answered something that is not a reply' };
  return reply.data.ok ? { ok: true, value: reply.data.value } : reply.data;
}
