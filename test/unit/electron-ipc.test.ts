import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeIpcMain, FakeWebContents, electronMock, exposed } from '../helpers/electron-mock.ts';
import { FakeEngine, nextMacrotask } from '../helpers/fake-engine.ts';
import { createCommandHandlers } from '../../electron/host/commands.ts';
import { HistorySaver } from '../../electron/jobs/history-saver.ts';
import { JobRegistry } from '../../electron/jobs/registry.ts';
import { createHostServices, type HostServices } from '../../electron/host/services.ts';
import { openStores } from '../../electron/stores/index.ts';
import { APP_ORIGIN } from '../../electron/main/app-protocol.ts';
import { registerIpcHandlers, windowOwner } from '../../electron/main/ipc.ts';
import { commandChannel, JOB_EVENT_CHANNEL } from '../../electron/main/ipc-channels.ts';
import { COMMAND_NAMES, type TrebuchetApi } from '../../shared/contract/api.ts';
import type { JobEnvelope } from '../../shared/contract/jobs.ts';
import { passes } from '../helpers/jobs.ts';
import { resultWith } from '../helpers/comparison-results.ts';
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
const startRun = { kind: 'run', plan: goodScenario };
const parsedScenario = scenarioSchema.parse(goodScenario);

describe('IPC handlers', () => {
  let ipcMain: FakeIpcMain;
  let engine: FakeEngine;
  let services: HostServices;
  let dataDir: string;
  let ours: FakeWebContents;

  beforeEach(async () => {
    ipcMain = new FakeIpcMain();
    engine = new FakeEngine();
    dataDir = await mkdtemp(path.join(tmpdir(), 'trebuchet-ipc-'));
    services = createHostServices({
      startTarget: engine.start,
      stores: await openStores({ dataDir }),
      appVersion: '1.2.3',
    });
    ours = new FakeWebContents();
    registerIpcHandlers({
      ipcMain: ipcMain as unknown as IpcMain,
      handlers: createCommandHandlers({
        services,
        info: { appVersion: '1.2.3', host: 'electron', platform: 'linux' },
        allowKubernetes: true,
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
    const reply = await ipcMain.invoke(commandChannel('jobs.start'), invokeEvent(ours, appFrame), startRun);
    expect(reply).toEqual({ ok: true, value: { jobId: expect.stringMatching(/^run-/) as unknown } });
    const { jobId } = (reply as { value: { jobId: string } }).value;
    await nextMacrotask();
    expect(engine.started).toHaveLength(1);
    // Validated and defaulted by the shared schema before the service saw it.
    expect(engine.started[0]?.load).toMatchObject({ model: 'closed', connections: 10 });
    expect(services.jobs.idsOf(windowOwner(ours))).toEqual([jobId]);
    expect(await ipcMain.invoke(commandChannel('app.info'), invokeEvent(ours, appFrame))).toEqual({
      ok: true,
      value: { appVersion: '1.2.3', host: 'electron', platform: 'linux', dataDir, problems: [] },
    });
  });

  it('begins a started job only once its reply is out: a macrotask after the handler answered', async () => {
    const reply = await ipcMain.invoke(commandChannel('jobs.start'), invokeEvent(ours, appFrame), startRun);
    expect(reply).toMatchObject({ ok: true });
    expect(engine.started).toHaveLength(0);
    expect(ours.send).not.toHaveBeenCalled();
    await nextMacrotask();
    expect(engine.started).toHaveLength(1);
  });

  it('rejects a bad payload with a message naming the field, without calling the service', async () => {
    const badUrl = await ipcMain.invoke(commandChannel('jobs.start'), invokeEvent(ours, appFrame), {
      kind: 'run',
      plan: { targets: [{ url: 'ftp://example' }], load: { model: 'closed', connections: 0 } },
    });
    expect(badUrl).toMatchObject({ ok: false });
    const message = (badUrl as { error: string }).error;
    expect(message).toContain('jobs.start input is invalid: plan.targets.0.url: URL must start with');
    expect(message).toContain('plan.load.connections: connections must be at least 1');
    const badId = await ipcMain.invoke(commandChannel('jobs.stop'), invokeEvent(ours, appFrame), {
      jobId: '../etc',
    });
    // The fields are named apart too, so a form can say it at the field.
    expect(badId).toEqual({
      ok: false,
      error: 'jobs.stop input is invalid: jobId: job id is malformed',
      issues: [{ path: 'jobId', message: 'job id is malformed' }],
    });
    const missing = await ipcMain.invoke(
      commandChannel('jobs.start'),
      invokeEvent(ours, appFrame),
      undefined,
    );
    expect(missing).toMatchObject({ ok: false, error: expect.any(String) as unknown });
    expect((missing as { error: string }).error).toMatch(/^jobs\.start input is invalid/);
    await nextMacrotask();
    expect(engine.started).toHaveLength(0);
    expect(engine.stopped).toHaveLength(0);
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
      const reply = await ipcMain.invoke(commandChannel('jobs.start'), event, startRun);
      expect(reply).toEqual({
        ok: false,
        error: "jobs.start refused: the sender is not the app's own window",
      });
    }
    warn.mockRestore();
    await nextMacrotask();
    expect(engine.started).toHaveLength(0);
  });

  it('lets a window stop only its own jobs', async () => {
    const other = new FakeWebContents();
    const job = services.jobs.start({ kind: 'run', plan: parsedScenario }, windowOwner(other));
    job.begin();
    engine.begin(0);
    const reply = await ipcMain.invoke(commandChannel('jobs.stop'), invokeEvent(ours, appFrame), {
      jobId: job.id,
    });
    expect(reply).toEqual({ ok: true, value: { stopped: false } });
    expect(engine.stopped).toEqual([]);
  });
});

describe('preload', () => {
  it('exposes the curated API: one method per command and one event subscription for every job', async () => {
    const ipcRenderer = electronMock.ipcRenderer;
    await import('../../electron/preload/index.ts');
    const api = exposed.get('trebuchet') as TrebuchetApi;
    expect(Object.keys(api).sort()).toEqual([
      'app',
      'history',
      'jobs',
      'kube',
      'onJobEvent',
      'presets',
      'settings',
    ]);
    expect(Object.keys(api.jobs).sort()).toEqual(['active', 'events', 'start', 'stop']);
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
    expect(Object.keys(api.history).sort()).toEqual([
      'baseline',
      'delete',
      'diff',
      'get',
      'import',
      'list',
      'rename',
    ]);
    expect(Object.keys(api.settings).sort()).toEqual(['get', 'set']);
    expect(Object.keys(api.kube)).toEqual(['contexts', 'preview']);

    ipcRenderer.invoke.mockResolvedValueOnce({ ok: true, value: { jobId: 'run-9' } });
    await expect(api.jobs.start({ kind: 'run', plan: goodScenario })).resolves.toEqual({ jobId: 'run-9' });
    expect(ipcRenderer.invoke).toHaveBeenLastCalledWith('trebuchet:jobs.start', {
      kind: 'run',
      plan: goodScenario,
    });

    ipcRenderer.invoke.mockResolvedValueOnce({
      ok: false,
      error: 'jobs.stop input is invalid: jobId: job id is malformed',
    });
    await expect(api.jobs.stop({ jobId: '!' })).rejects.toThrow('jobId: job id is malformed');

    // One listener on one channel, whatever the kind; each event reaches its own job's listeners, once.
    expect(ipcRenderer.listenerCount(JOB_EVENT_CHANNEL)).toBe(1);
    const seen: JobEnvelope[] = [];
    const unsubscribe = api.onJobEvent('run-9', (envelope) => seen.push(envelope));
    const started: JobEnvelope = {
      jobId: 'run-9',
      kind: 'run',
      n: 0,
      event: { type: 'progress', progress: { type: 'started', targetCount: 2 } },
    };
    ipcRenderer.emit(JOB_EVENT_CHANNEL, { sender: 'not for the renderer' }, started);
    ipcRenderer.emit(JOB_EVENT_CHANNEL, {}, { ...started, jobId: 'run-8' });
    ipcRenderer.emit(JOB_EVENT_CHANNEL, {}, started);
    const comparison: JobEnvelope = {
      jobId: 'cmp-1',
      kind: 'comparison',
      n: 0,
      event: { type: 'progress', progress: { type: 'started', cellCount: 8 } },
    };
    const comparisons: JobEnvelope[] = [];
    const stopListening = api.onJobEvent('cmp-1', (e) => comparisons.push(e));
    ipcRenderer.emit(JOB_EVENT_CHANNEL, {}, comparison);
    unsubscribe();
    ipcRenderer.emit(JOB_EVENT_CHANNEL, {}, { ...started, n: 1 });
    stopListening();
    ipcRenderer.emit(JOB_EVENT_CHANNEL, {}, { ...comparison, n: 1 });
    expect(seen).toEqual([started]);
    expect(comparisons).toEqual([comparison]);
  });
});

describe('the window owner', () => {
  it("gets its jobs' events once attached, none of another owner's, and none while detached", async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'trebuchet-registry-'));
    const stores = await openStores({ dataDir });
    const engine = new FakeEngine();
    const history = new HistorySaver({ history: stores.history, appVersion: '1' });
    const registry = new JobRegistry({
      history,
      context: { appVersion: '1', startTarget: engine.start, checkTarget: passes },
    });
    const a: JobEnvelope[] = [];
    const b: JobEnvelope[] = [];
    registry.attach('a', (e) => a.push(e));
    registry.attach('b', (e) => b.push(e));
    const job = registry.start(
      {
        kind: 'run',
        plan: scenarioSchema.parse({
          ...goodScenario,
          targets: [...goodScenario.targets, ...goodScenario.targets],
        }),
      },
      'a',
    );
    expect(engine.started).toHaveLength(0);
    job.begin();
    expect(a.map((e) => e.event)).toEqual([
      { type: 'progress', progress: { type: 'started', targetCount: 2 } },
    ]);
    // Several targets: the run checks every URL first, then starts the first.
    await expect.poll(() => engine.started.length).toBe(1);
    engine.begin(0);
    expect(a).toHaveLength(2);
    expect(b).toEqual([]);

    registry.detach('a');
    engine.finish(0, resultWith({ rps: 1 }));
    await expect.poll(() => engine.started.length).toBe(2);
    engine.begin(1);
    expect(a).toHaveLength(2);
    registry.attach('a', (e) => a.push(e));
    expect(await registry.stop(job.id, 'b')).toBe(false);
    expect(await registry.stop(job.id, 'a')).toBe(true);
    await history.idle();
    await expect.poll(() => a.at(-1)?.event.type).toBe('done');
    expect(a.at(-1)).toMatchObject({
      jobId: job.id,
      kind: 'run',
      event: { type: 'done', status: 'cancelled' },
    });
    // Numbered over the whole job: the events the owner missed while detached are in the replay.
    expect(a.map((e) => e.n)).toEqual([0, 1, 4, 5]);
    expect(registry.eventsAfter(job.id, 'a', 1).map((e) => e.n)).toEqual([2, 3, 4, 5]);
    expect(registry.idsOf('a')).toEqual([]);
    expect(b).toEqual([]);
    await registry.close();
    await rm(dataDir, { recursive: true, force: true });
  });
});
