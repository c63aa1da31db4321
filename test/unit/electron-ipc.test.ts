import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeIpcMain, FakeWebContents, electronMock, exposed } from '../helpers/electron-mock.ts';
import { FakeRunService, nextMacrotask } from '../helpers/fake-run-service.ts';
import { createCommandHandlers } from '../../electron/host/commands.ts';
import { RunRegistry } from '../../electron/host/run-registry.ts';
import { createHostServices, type HostServices } from '../../electron/host/services.ts';
import { HistorySaver } from '../../electron/services/history-saver.ts';
import { openStores } from '../../electron/stores/index.ts';
import { APP_ORIGIN } from '../../electron/main/app-protocol.ts';
import { registerIpcHandlers, windowOwner } from '../../electron/main/ipc.ts';
import {
  CAPACITY_EVENT_CHANNEL,
  commandChannel,
  COMPARISON_EVENT_CHANNEL,
  RUN_EVENT_CHANNEL,
} from '../../electron/main/ipc-channels.ts';
import {
  COMMAND_NAMES,
  type CapacityEvent,
  type ComparisonEvent,
  type RunEvent,
  type TrebuchetApi,
} from '../../shared/contract/api.ts';
import { scenarioSchema } from '../../shared/model/scenario.ts';
import type { IpcMain } from 'electron';

vi.mock('electron', async () => (await import('../helpers/electron-mock.ts')).electronMock);

interface FakeFrame {
  origin: string;
  url: string;
  parent: FakeFrame | null;
}

function invokeEvent(sender: FakeWebContents, frame: FakeFrame | null) {
  return { sender, senderFrame: frame, frameId: 1, processId: 1, type: 'frame' };
}

const appFrame: FakeFrame = { origin: APP_ORIGIN, url: `${APP_ORIGIN}/index.html`, parent: null };
const goodScenario = { targets: [{ url: 'http://127.0.0.1:8080/' }] };
const parsedScenario = scenarioSchema.parse(goodScenario);

describe('IPC handlers', () => {
  let ipcMain: FakeIpcMain;
  let service: FakeRunService;
  let services: HostServices;
  let dataDir: string;
  let ours: FakeWebContents;

  beforeEach(async () => {
    ipcMain = new FakeIpcMain();
    service = new FakeRunService();
    dataDir = await mkdtemp(path.join(tmpdir(), 'trebuchet-ipc-'));
    services = createHostServices({
      engine: service,
      stores: await openStores({ dataDir }),
      appVersion: '1.2.3',
    });
    ours = new FakeWebContents();
    registerIpcHandlers({
      ipcMain: ipcMain as unknown as IpcMain,
      handlers: createCommandHandlers({
        services,
        info: { appVersion: '1.2.3', host: 'electron', platform: 'linux' },
      }),
      trusted: new Set([ours.id]),
      appOrigin: APP_ORIGIN,
    });
  });

  afterEach(async () => {
    await services.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('registers one channel per command of the contract', () => {
    expect([...ipcMain.handlers.keys()].sort()).toEqual(COMMAND_NAMES.map(commandChannel).sort());
  });

  it('runs a valid command from the app window through the service', async () => {
    const reply = await ipcMain.invoke(commandChannel('run.start'), invokeEvent(ours, appFrame), {
      scenario: goodScenario,
    });
    expect(reply).toEqual({ ok: true, value: { runId: 'run-1' } });
    expect(service.started).toHaveLength(1);
    // Validated and defaulted by the shared schema before the service saw it.
    expect(service.started[0]?.load).toMatchObject({ model: 'closed', connections: 10 });
    expect(services.runs.idsOf(windowOwner(ours))).toEqual(['run-1']);
    expect(await ipcMain.invoke(commandChannel('app.info'), invokeEvent(ours, appFrame))).toEqual({
      ok: true,
      value: { appVersion: '1.2.3', host: 'electron', platform: 'linux', dataDir, problems: [] },
    });
  });

  it('begins a started run only once its reply is out: a macrotask after the handler answered', async () => {
    const reply = await ipcMain.invoke(commandChannel('run.start'), invokeEvent(ours, appFrame), {
      scenario: goodScenario,
    });
    expect(reply).toEqual({ ok: true, value: { runId: 'run-1' } });
    expect(service.begun('run-1')).toBe(false);
    await nextMacrotask();
    expect(service.begun('run-1')).toBe(true);
  });

  it('rejects a bad payload with a message naming the field, without calling the service', async () => {
    const badUrl = await ipcMain.invoke(commandChannel('run.start'), invokeEvent(ours, appFrame), {
      scenario: { targets: [{ url: 'ftp://example' }], load: { model: 'closed', connections: 0 } },
    });
    expect(badUrl).toMatchObject({ ok: false });
    const message = (badUrl as { error: string }).error;
    expect(message).toContain('run.start input is invalid: scenario.targets.0.url: URL must start with');
    expect(message).toContain('scenario.load.connections: connections must be at least 1');
    const badId = await ipcMain.invoke(commandChannel('run.stop'), invokeEvent(ours, appFrame), {
      runId: '../etc',
    });
    // The fields are named apart too, so a form can say it at the field.
    expect(badId).toEqual({
      ok: false,
      error: 'run.stop input is invalid: runId: run id is malformed',
      issues: [{ path: 'runId', message: 'run id is malformed' }],
    });
    const missing = await ipcMain.invoke(commandChannel('run.start'), invokeEvent(ours, appFrame), undefined);
    expect(missing).toMatchObject({ ok: false, error: expect.any(String) as unknown });
    expect((missing as { error: string }).error).toMatch(/^run\.start input is invalid/);
    expect(service.started).toHaveLength(0);
    expect(service.stopped).toHaveLength(0);
  });

  it('refuses foreign senders: another webContents, another origin, a subframe, a gone frame', async () => {
    const stranger = new FakeWebContents();
    const senders = [
      invokeEvent(stranger, appFrame),
      invokeEvent(ours, { origin: 'https://evil.example', url: 'https://evil.example/', parent: null }),
      invokeEvent(ours, { origin: APP_ORIGIN, url: `${APP_ORIGIN}/index.html`, parent: appFrame }),
      invokeEvent(ours, null),
    ];
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    for (const event of senders) {
      const reply = await ipcMain.invoke(commandChannel('run.start'), event, { scenario: goodScenario });
      expect(reply).toEqual({
        ok: false,
        error: "run.start refused: the sender is not the app's own window",
      });
    }
    warn.mockRestore();
    expect(service.started).toHaveLength(0);
  });

  it('lets a window stop only its own runs', async () => {
    const other = new FakeWebContents();
    const { id: runId } = services.runs.start(parsedScenario, windowOwner(other));
    const reply = await ipcMain.invoke(commandChannel('run.stop'), invokeEvent(ours, appFrame), { runId });
    expect(reply).toEqual({ ok: true, value: { stopped: false } });
    expect(service.stopped).toEqual([]);
  });
});

describe('preload', () => {
  it('exposes the curated API: one method per command and one event subscription per kind of job', async () => {
    const ipcRenderer = electronMock.ipcRenderer;
    await import('../../electron/preload/index.ts');
    const api = exposed.get('trebuchet') as TrebuchetApi;
    expect(Object.keys(api).sort()).toEqual([
      'app',
      'capacity',
      'compare',
      'history',
      'onCapacityEvent',
      'onComparisonEvent',
      'onRunEvent',
      'presets',
      'run',
    ]);
    expect(Object.keys(api.run).sort()).toEqual(['active', 'start', 'stop']);
    expect(Object.keys(api.compare).sort()).toEqual(['active', 'start', 'stop']);
    expect(Object.keys(api.capacity).sort()).toEqual(['active', 'start', 'stop']);
    expect(Object.keys(api.presets).sort()).toEqual([
      'delete',
      'duplicate',
      'export',
      'get',
      'import',
      'list',
      'rename',
      'save',
    ]);
    expect(Object.keys(api.history).sort()).toEqual(['delete', 'get', 'list', 'rename']);

    ipcRenderer.invoke.mockResolvedValueOnce({ ok: true, value: { runId: 'run-9' } });
    await expect(api.run.start({ scenario: goodScenario })).resolves.toEqual({ runId: 'run-9' });
    expect(ipcRenderer.invoke).toHaveBeenLastCalledWith('trebuchet:run.start', { scenario: goodScenario });

    ipcRenderer.invoke.mockResolvedValueOnce({
      ok: false,
      error: 'run.stop input is invalid: runId: run id is malformed',
    });
    await expect(api.run.stop({ runId: '!' })).rejects.toThrow('runId: run id is malformed');

    // One listener per channel, whoever follows what; each event reaches its own job's listeners.
    expect(ipcRenderer.listenerCount(RUN_EVENT_CHANNEL)).toBe(1);
    const seen: RunEvent[] = [];
    const unsubscribe = api.onRunEvent('run-9', (event) => seen.push(event));
    const event: RunEvent = { type: 'started', runId: 'run-9', targetCount: 2 };
    ipcRenderer.emit(RUN_EVENT_CHANNEL, { sender: 'not for the renderer' }, event);
    ipcRenderer.emit(RUN_EVENT_CHANNEL, {}, { ...event, runId: 'run-8' });
    unsubscribe();
    ipcRenderer.emit(RUN_EVENT_CHANNEL, {}, event);
    expect(seen).toEqual([event]);

    const comparisons: ComparisonEvent[] = [];
    const stopListening = api.onComparisonEvent('cmp-1', (e) => comparisons.push(e));
    const started: ComparisonEvent = { type: 'started', comparisonId: 'cmp-1', cellCount: 8 };
    ipcRenderer.emit(COMPARISON_EVENT_CHANNEL, {}, started);
    ipcRenderer.emit(RUN_EVENT_CHANNEL, {}, event);
    stopListening();
    ipcRenderer.emit(COMPARISON_EVENT_CHANNEL, {}, started);
    expect(comparisons).toEqual([started]);

    const searches: CapacityEvent[] = [];
    const stopFollowing = api.onCapacityEvent('cap-1', (e) => searches.push(e));
    const search: CapacityEvent = { type: 'started', capacityId: 'cap-1', searchCount: 2 };
    ipcRenderer.emit(CAPACITY_EVENT_CHANNEL, {}, search);
    ipcRenderer.emit(CAPACITY_EVENT_CHANNEL, {}, { ...search, capacityId: 'cap-2' });
    ipcRenderer.emit(COMPARISON_EVENT_CHANNEL, {}, started);
    stopFollowing();
    ipcRenderer.emit(CAPACITY_EVENT_CHANNEL, {}, search);
    expect(searches).toEqual([search]);
  });
});

describe('run registry', () => {
  it('begins a run when told (after its start reply), then routes its events to the owner only', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'trebuchet-registry-'));
    const stores = await openStores({ dataDir });
    const service = new FakeRunService();
    const history = new HistorySaver({ history: stores.history, appVersion: '1' });
    const registry = new RunRegistry({ service, history });
    const a: RunEvent[] = [];
    const b: RunEvent[] = [];
    registry.attach('a', () => (e) => a.push(e));
    registry.attach('b', () => (e) => b.push(e));
    const run = registry.start(parsedScenario, 'a');
    const runId = run.id;
    expect(service.begun(runId)).toBe(false);
    run.begin();
    service.emit({ type: 'started', runId, targetCount: 1 });
    expect(a).toEqual([{ type: 'started', runId, targetCount: 1 }]);
    service.emit({ type: 'target-started', runId, targetIndex: 0 });
    expect(a).toHaveLength(2);
    expect(b).toEqual([]);

    registry.detach('a');
    service.emit({ type: 'target-started', runId, targetIndex: 1 });
    expect(a).toHaveLength(2);
    registry.attach('a', () => (e) => a.push(e));
    expect(await registry.stop(runId, 'b')).toBe(false);
    expect(await registry.stop(runId, 'a')).toBe(true);
    await history.idle();
    await expect.poll(() => a.at(-1)?.type).toBe('done');
    expect(a.at(-1)).toMatchObject({ type: 'done', runId, status: 'cancelled', results: [] });
    expect(registry.idsOf('a')).toEqual([]);
    expect(b).toEqual([]);
    await rm(dataDir, { recursive: true, force: true });
  });
});
