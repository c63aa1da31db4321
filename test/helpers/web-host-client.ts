import WebSocket from 'ws';
import { connectWebSocketApi, type WebSocketApi } from '../../renderer/api/web-socket-client.ts';

/**
 * The API of a web host on 127.0.0.1:port, reached as its page reaches it (token, same origin;
 * with `client`, the tab's id a page keeps across reconnects, which owns its jobs).
 */
export function connectToHost(port: number, token: string, client?: string): Promise<WebSocketApi> {
  return connectWebSocketApi({
    url: `ws://127.0.0.1:${port}/ws?token=${token}${client === undefined ? '' : `&client=${client}`}`,
    createSocket: (url, on) => {
      // As a browser delivers messages: one per task (ws may otherwise emit the start reply and
      // the job's first event in the same tick, before the caller has subscribed).
      const ws = new WebSocket(url, { origin: `http://127.0.0.1:${port}`, allowSynchronousEvents: false });
      ws.on('open', () => on.open());
      ws.on('message', (data: Buffer) => on.message(data.toString('utf8')));
      ws.on('close', () => on.close());
      ws.on('error', () => undefined);
      return ws;
    },
  });
}
