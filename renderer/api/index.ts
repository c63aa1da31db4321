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
const connectionListeners = new Set<(connected: boolean) => void>();

/**
 * Tells the listener when the web host's connection drops or comes back (for a
 * "reconnecting" notice); never called in Electron. Returns the unsubscribe function.
 */
export function onHostConnectionChange(listener: (connected: boolean) => void): () => void {
  connectionListeners.add(listener);
  return () => {
    connectionListeners.delete(listener);
  };
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
      for (const listener of connectionListeners) listener(connected);
    },
  });
  return api;
}

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
