import { describe, expect, it, vi } from 'vitest';
import { connectWebSocketApi, type SocketHandlers } from '../../renderer/api/web-socket-client.ts';
import type { JobEnvelope } from '../../shared/contract/jobs.ts';
import { runResultFixture, sampleFixture } from '../helpers/run-result.ts';

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
  event(envelope: unknown): void {
    this.handlers.message(JSON.stringify({ kind: 'job', envelope }));
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

const started: JobEnvelope = {
  jobId: 'run-1',
  kind: 'run',
  n: 0,
  event: { type: 'progress', progress: { type: 'started', targetCount: 1 } },
};
/** Event n of run-1: a sample of its first target. */
const sampleAt = (n: number): JobEnvelope => ({
  jobId: 'run-1',
  kind: 'run',
  n,
  event: { type: 'sample', part: 0, source: 'engine', sample: sampleFixture({ seq: n }) },
});

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
    const bad = api.jobs.stop({ jobId: '!' });
    await vi.waitFor(() => expect(socket(0).sent).toHaveLength(2));
    expect(socket(0).sent.map((m) => m.command)).toEqual(['app.info', 'jobs.stop']);
    socket(0).reply(socket(0).sent[1]!.id, {
      ok: false,
      error: 'jobs.stop input is invalid: jobId: job id is malformed',
    });
    socket(0).reply(socket(0).sent[0]!.id, {
      ok: true,
      value: { appVersion: '1', host: 'web', platform: 'linux' },
    });
    await expect(info).resolves.toEqual({ appVersion: '1', host: 'web', platform: 'linux' });
    await expect(bad).rejects.toThrow('jobId: job id is malformed');
  });

  it("delivers a job's valid events to its own listeners only, once each, drops malformed ones, and honours unsubscribe", async () => {
    const { socket, connecting } = scripted();
    socket(0).open();
    const { api } = await connecting;
    const seen: JobEnvelope[] = [];
    const other: JobEnvelope[] = [];
    const unsubscribe = api.onJobEvent('run-1', (e) => seen.push(e));
    api.onJobEvent('run-2', (e) => other.push(e));
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    socket(0).event({
      ...started,
      event: { type: 'progress', progress: { type: 'started', targetCount: 'two' } },
    });
    socket(0).event({ ...started, event: { type: 'exploded' } });
    socket(0).event({ ...started, kind: 'diff' });
    // A result carrying its samples would send them twice: refused.
    socket(0).event({
      ...started,
      event: { type: 'result', part: 0, result: runResultFixture({ samples: [sampleFixture()] }) },
    });
    socket(0).handlers.message('not json');
    expect(warn).toHaveBeenCalledTimes(5);
    warn.mockRestore();
    socket(0).event(started);
    socket(0).event(started);
    socket(0).event({ ...started, jobId: 'run-3' });
    socket(0).event(sampleAt(1));
    unsubscribe();
    socket(0).event(sampleAt(2));
    expect(seen).toEqual([started, sampleAt(1)]);
    expect(other).toEqual([]);
  });

  it('reconnects after a drop: lost replies reject, new commands wait, each job catches up on what it missed', async () => {
    const { socket, sockets, changes, connecting } = scripted();
    socket(0).open();
    const { api } = await connecting;
    const seen: JobEnvelope[] = [];
    api.onJobEvent('run-1', (e) => seen.push(e));
    socket(0).event(started);
    socket(0).event(sampleAt(1));

    const lost = api.jobs.stop({ jobId: 'run-1' });
    await vi.waitFor(() => expect(socket(0).sent).toHaveLength(1));
    socket(0).drop();
    await expect(lost).rejects.toThrow('lost the connection to the Trebuchet host');

    const waiting = api.jobs.stop({ jobId: 'run-1' });
    await vi.waitFor(() => expect(sockets).toHaveLength(2));
    socket(1).drop(); // the host is still restarting: back off and try again
    await vi.waitFor(() => expect(sockets).toHaveLength(3));
    socket(2).open();
    // The followed job asks for what came after the last event it got, beside the waiting command.
    await vi.waitFor(() => expect(socket(2).sent).toHaveLength(2));
    const catchUp = socket(2).sent.find((m) => m.command === 'jobs.events')!;
    expect(catchUp.input).toEqual({ jobId: 'run-1', after: 1 });
    // Live events that come before the answer wait; the answer's come first, each event once.
    socket(2).event(sampleAt(4));
    expect(seen.map((e) => e.n)).toEqual([0, 1]);
    socket(2).reply(catchUp.id, { ok: true, value: { events: [sampleAt(2), sampleAt(3), sampleAt(4)] } });
    await vi.waitFor(() => expect(seen.map((e) => e.n)).toEqual([0, 1, 2, 3, 4]));
    socket(2).event(sampleAt(5));
    expect(seen.map((e) => e.n)).toEqual([0, 1, 2, 3, 4, 5]);
    const stop = socket(2).sent.find((m) => m.command === 'jobs.stop')!;
    socket(2).reply(stop.id, { ok: true, value: { stopped: true } });
    await expect(waiting).resolves.toEqual({ stopped: true });
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
