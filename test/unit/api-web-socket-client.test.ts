import { describe, expect, it, vi } from 'vitest';
import { connectWebSocketApi, type SocketHandlers } from '../../renderer/api/web-socket-client.ts';
import type { RunEvent } from '../../shared/contract/api.ts';

/** A socket the test drives by hand: it decides when the host opens, answers or drops. */
class ScriptedSocket {
  readyState = 0;
  readonly sent: { id: number; command: string; input?: unknown }[] = [];
  readonly handlers: SocketHandlers;
  constructor(handlers: SocketHandlers) {
    this.handlers = handlers;
  }
  send(data: string): void {
    this.sent.push(JSON.parse(data) as { id: number; command: string; input?: unknown });
  }
  close(): void {
    this.drop();
  }
  open(): void {
    this.readyState = 1;
    this.handlers.open();
  }
  drop(): void {
    this.readyState = 3;
    this.handlers.close();
  }
  reply(id: number, reply: unknown): void {
    this.handlers.message(JSON.stringify({ kind: 'reply', id, reply }));
  }
  event(event: unknown): void {
    this.handlers.message(JSON.stringify({ kind: 'event', event }));
  }
}

function scripted() {
  const sockets: ScriptedSocket[] = [];
  const changes: boolean[] = [];
  const connecting = connectWebSocketApi({
    url: 'ws://127.0.0.1:1/ws?token=t',
    reconnectDelayMs: 10,
    offlineTimeoutMs: 2000,
    onConnectionChange: (connected) => changes.push(connected),
    createSocket: (_url, handlers) => {
      const socket = new ScriptedSocket(handlers);
      sockets.push(socket);
      return socket;
    },
  });
  const socket = (i: number) => {
    const s = sockets[i];
    if (!s) throw new Error(`socket ${i} was not opened`);
    return s;
  };
  return { sockets, socket, changes, connecting };
}

const started: RunEvent = { type: 'started', runId: 'run-1', targetCount: 1 };

describe('WebSocket API client', () => {
  it('rejects when the first connection fails, and does not retry', async () => {
    const { sockets, socket, connecting } = scripted();
    socket(0).drop();
    await expect(connecting).rejects.toThrow('could not connect to the Trebuchet host');
    await new Promise((r) => setTimeout(r, 50));
    expect(sockets).toHaveLength(1);
  });

  it('sends commands and resolves or rejects with the host reply', async () => {
    const { socket, connecting } = scripted();
    socket(0).open();
    const { api } = await connecting;
    const info = api.app.info();
    const bad = api.run.stop({ runId: '!' });
    await vi.waitFor(() => expect(socket(0).sent).toHaveLength(2));
    expect(socket(0).sent.map((m) => m.command)).toEqual(['app.info', 'run.stop']);
    socket(0).reply(socket(0).sent[1]!.id, {
      ok: false,
      error: 'run.stop input is invalid: runId: run id is malformed',
    });
    socket(0).reply(socket(0).sent[0]!.id, {
      ok: true,
      value: { appVersion: '1', host: 'web', platform: 'linux' },
    });
    await expect(info).resolves.toEqual({ appVersion: '1', host: 'web', platform: 'linux' });
    await expect(bad).rejects.toThrow('runId: run id is malformed');
  });

  it("delivers a run's valid events to its own listeners only, drops malformed ones, and honours unsubscribe", async () => {
    const { socket, connecting } = scripted();
    socket(0).open();
    const { api } = await connecting;
    const seen: RunEvent[] = [];
    const other: RunEvent[] = [];
    const unsubscribe = api.onRunEvent('run-1', (e) => seen.push(e));
    api.onRunEvent('run-2', (e) => other.push(e));
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    socket(0).event({ type: 'started', runId: 'run-1', targetCount: 'two' });
    socket(0).event({ type: 'exploded', runId: 'run-1' });
    socket(0).handlers.message('not json');
    expect(warn).toHaveBeenCalledTimes(3);
    warn.mockRestore();
    socket(0).event(started);
    socket(0).event({ ...started, runId: 'run-3' });
    unsubscribe();
    socket(0).event(started);
    expect(seen).toEqual([started]);
    expect(other).toEqual([]);
  });

  it('reconnects after a drop: lost replies reject, new commands wait, events resume', async () => {
    const { socket, sockets, changes, connecting } = scripted();
    socket(0).open();
    const { api } = await connecting;
    const seen: RunEvent[] = [];
    api.onRunEvent('run-1', (e) => seen.push(e));

    const lost = api.run.stop({ runId: 'run-1' });
    await vi.waitFor(() => expect(socket(0).sent).toHaveLength(1));
    socket(0).drop();
    await expect(lost).rejects.toThrow('lost the connection to the Trebuchet host');

    const waiting = api.run.stop({ runId: 'run-1' });
    await vi.waitFor(() => expect(sockets).toHaveLength(2));
    socket(1).drop(); // the host is still restarting: back off and try again
    await vi.waitFor(() => expect(sockets).toHaveLength(3));
    socket(2).open();
    await vi.waitFor(() => expect(socket(2).sent).toHaveLength(1));
    socket(2).reply(socket(2).sent[0]!.id, { ok: true, value: { stopped: true } });
    await expect(waiting).resolves.toEqual({ stopped: true });
    socket(2).event(started);
    expect(seen).toEqual([started]);
    expect(changes).toEqual([true, false, true]);
  });

  it('stops for good when closed', async () => {
    const { socket, sockets, connecting } = scripted();
    socket(0).open();
    const conn = await connecting;
    conn.close();
    expect(conn.connected).toBe(false);
    await expect(conn.api.app.info()).rejects.toThrow('closed');
    await new Promise((r) => setTimeout(r, 50));
    expect(sockets).toHaveLength(1);
  });
});
