import type { TrebuchetApi } from '../../shared/contract/api.ts';
import { clientIdSchema, WEB_SOCKET_PATH } from '../../shared/contract/web-protocol.ts';
import { connectWebSocketApi, postCommand } from './web-socket-client.ts';

export type { TrebuchetApi } from '../../shared/contract/api.ts';

declare global {
  interface Window {
    /** Set by Electron's preload (electron/preload/index.ts); absent in a browser. */
    readonly trebuchet?: TrebuchetApi;
  }
}

const CLIENT_ID_KEY = 'trebuchet.clientId';

let connection: Promise<TrebuchetApi> | null = null;
const connectionListeners = new Set<(state: HostConnection) => void>();

/**
 * The web host's connection as the page tells it: up; lost and being tried again; the host
 * gone from its address (nothing answers: it stopped); or another host there, whose token is
 * not this page's (started on another data folder, or with a port picked at random).
 */
export type HostConnection = 'connected' | 'reconnecting' | 'stopped' | 'other-host';

/** How often a lost host's address is asked what answers there, while the socket is tried again. */
const PROBE_MS = 2000;

/**
 * Tells the listener when the web host's connection drops or comes back, and while it is down
 * what answers at the host's address (for the banner that says how to reopen); never called in
 * Electron. Returns the unsubscribe function.
 */
export function onHostConnectionChange(listener: (state: HostConnection) => void): () => void {
  connectionListeners.add(listener);
  return () => {
    connectionListeners.delete(listener);
  };
}

function tell(state: HostConnection): void {
  for (const listener of connectionListeners) listener(state);
}

/** What answers at the page's address with its token: its host (200), another (401), or nothing. */
async function probe(token: string): Promise<HostConnection> {
  try {
    const answer = await fetch(`${window.location.origin}/?${new URLSearchParams({ token }).toString()}`, {
      method: 'HEAD',
      cache: 'no-store',
    });
    return answer.status === 401 ? 'other-host' : 'reconnecting';
  } catch {
    return 'stopped';
  }
}

/**
 * The renderer's one way to the host; it never knows which host it talks to. In Electron
 * it is the preload's `window.trebuchet`; in a browser it opens the web host's WebSocket
 * (same host as the page, token from the page URL's `?token=`), reconnecting if it drops.
 * Called any number of times, it connects once; rejects with a readable message when the
 * page has no token or the host cannot be reached (a later call tries again).
 */
export function connectApi(): Promise<TrebuchetApi> {
  connection ??= (window.trebuchet ? Promise.resolve(window.trebuchet) : connectToWebHost()).catch(
    (error: unknown) => {
      connection = null;
      throw error;
    },
  );
  return connection;
}

async function connectToWebHost(): Promise<TrebuchetApi> {
  const token = new URLSearchParams(window.location.search).get('token');
  if (!token) {
    throw new Error('This page has no access token: open the URL that `trebuchet serve` printed.');
  }
  const scheme = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
  const query = new URLSearchParams({ token, client: pageClientId() });
  const { api } = await connectWebSocketApi({
    url: `${scheme}//${window.location.host}${WEB_SOCKET_PATH}?${query.toString()}`,
    createSocket: (url, on) => {
      const ws = new WebSocket(url);
      ws.onopen = () => on.open();
      ws.onmessage = (event: MessageEvent) => on.message(event.data);
      ws.onclose = () => on.close();
      return ws;
    },
    post: (path, _command, input) =>
      postCommand(`${window.location.origin}${path}?${new URLSearchParams({ token }).toString()}`, input),
    onConnectionChange: (connected) => {
      if (connected) {
        if (probing) clearInterval(probing);
        probing = null;
        return tell('connected');
      }
      tell('reconnecting');
      // The socket is tried again by itself; meanwhile say what answers at the address.
      const look = () =>
        void probe(token).then((state) => {
          if (probing !== null) tell(state);
        });
      probing ??= setInterval(look, PROBE_MS);
      look();
    },
  });
  return api;
}

let probing: ReturnType<typeof setInterval> | null = null;

/**
 * This tab's identity for the host, kept across reloads (sessionStorage is per tab), so a
 * reload reattaches to the runs the tab started instead of orphaning them.
 */
function pageClientId(): string {
  try {
    const stored = clientIdSchema.safeParse(window.sessionStorage.getItem(CLIENT_ID_KEY));
    if (stored.success) return stored.data;
    const fresh = randomId();
    window.sessionStorage.setItem(CLIENT_ID_KEY, fresh);
    return fresh;
  } catch {
    return randomId();
  }
}

function randomId(): string {
  // getRandomValues, unlike randomUUID, also works outside secure contexts (--allow-remote over http).
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
