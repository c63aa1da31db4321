import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { FakeBrowserWindow, FakeSession, electronMock } from '../helpers/electron-mock.ts';
import { FakeEngine, nextMacrotask } from '../helpers/fake-engine.ts';
import { passes } from '../helpers/jobs.ts';
import { CONTENT_SECURITY_POLICY, META_CONTENT_SECURITY_POLICY } from '../../shared/contract/csp.ts';
import { HistorySaver } from '../../electron/jobs/history-saver.ts';
import { JobRegistry } from '../../electron/jobs/registry.ts';
import { openStores } from '../../electron/stores/index.ts';
import {
  APP_ORIGIN,
  APP_START_URL,
  registerAppScheme,
  serveRenderer,
} from '../../electron/main/app-protocol.ts';
import { openAppWindow, stopRunsBeforeQuit, type AppShell } from '../../electron/main/app-shell.ts';
import { windowOwner } from '../../electron/main/ipc.ts';
import { JOB_EVENT_CHANNEL } from '../../electron/main/ipc-channels.ts';
import { hardenSession } from '../../electron/main/security.ts';
import { createMainWindow } from '../../electron/main/window.ts';
import { comparisonPlanSchema } from '../../shared/comparison/plan.ts';
import { scenarioSchema } from '../../shared/model/scenario.ts';
import type { App, Protocol, Session } from 'electron';

vi.mock('electron', async () => (await import('../helpers/electron-mock.ts')).electronMock);

const windowOptions = { preloadPath: '/app/dist/preload/index.cjs', url: APP_START_URL, devTools: false };
const scenario = scenarioSchema.parse({ targets: [{ url: 'http://127.0.0.1:9/' }] });

function lastWindow(): FakeBrowserWindow {
  const w = FakeBrowserWindow.instances.at(-1);
  if (!w) throw new Error('no window was created');
  return w;
}

describe('main window', () => {
  it('is created with secure web preferences and loads the app origin', () => {
    createMainWindow(windowOptions);
    const w = lastWindow();
    expect(w.options.webPreferences).toMatchObject({
      preload: '/app/dist/preload/index.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      devTools: false,
    });
    expect(w.loadURL).toHaveBeenCalledWith('app://trebuchet/index.html');
  });

  it('blocks navigation, redirects, webviews and new windows', () => {
    createMainWindow(windowOptions);
    const contents = lastWindow().webContents;
    for (const name of ['will-navigate', 'will-redirect', 'will-attach-webview']) {
      const event = { preventDefault: vi.fn() };
      contents.emit(name, event, 'https://example.com/');
      expect(event.preventDefault, name).toHaveBeenCalledTimes(1);
    }
    expect(contents.windowOpenHandler?.({ url: 'https://example.com/' })).toEqual({ action: 'deny' });
  });
});

describe('session', () => {
  const appPage = `${APP_ORIGIN}/index.html`;

  it('denies every permission request and check but the clipboard write', () => {
    const session = new FakeSession();
    hardenSession(session as unknown as Session, APP_ORIGIN);
    const granted: boolean[] = [];
    for (const permission of ['media', 'notifications', 'clipboard-read', 'geolocation']) {
      session.permissionRequestHandler?.({}, permission, (ok) => granted.push(ok), {
        requestingUrl: appPage,
      });
    }
    expect(granted).toEqual([false, false, false, false]);
    expect(session.permissionCheckHandler?.({}, 'media', APP_ORIGIN, {})).toBe(false);
    expect(session.permissionCheckHandler?.({}, 'clipboard-read', APP_ORIGIN, {})).toBe(false);
    expect(session.devicePermissionHandler?.({})).toBe(false);
  });

  it('grants clipboard-sanitized-write to the app origin only', () => {
    const session = new FakeSession();
    hardenSession(session as unknown as Session, APP_ORIGIN);
    const ask = (requestingUrl: string | undefined) => {
      let answer: boolean | null = null;
      session.permissionRequestHandler?.({}, 'clipboard-sanitized-write', (ok) => (answer = ok), {
        requestingUrl,
      });
      return answer;
    };
    expect(ask(appPage)).toBe(true);
    expect(ask('https://evil.example/')).toBe(false);
    // A look-alike host that merely starts with the app's origin.
    expect(ask('app://trebuchet.evil/index.html')).toBe(false);
    expect(ask(undefined)).toBe(false);
    expect(session.permissionCheckHandler?.({}, 'clipboard-sanitized-write', APP_ORIGIN, {})).toBe(true);
    expect(
      session.permissionCheckHandler?.({}, 'clipboard-sanitized-write', 'https://evil.example', {}),
    ).toBe(false);
  });
});

describe('content security policy', () => {
  it('allows only the app itself: no eval, no inline script, no remote content', () => {
    const directives = new Map(
      CONTENT_SECURITY_POLICY.split(';').map((d) => {
        const [name = '', ...values] = d.trim().split(/\s+/);
        return [name, values] as const;
      }),
    );
    expect(directives.get('default-src')).toEqual(["'self'"]);
    expect(directives.get('script-src')).toEqual(["'self'"]);
    expect(directives.get('object-src')).toEqual(["'none'"]);
    expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
    expect(CONTENT_SECURITY_POLICY).not.toContain('unsafe-eval');
    expect(CONTENT_SECURITY_POLICY).not.toContain('unsafe-inline');
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/https?:|\*/);
  });

  it("puts the header's policy in the page's meta tag too, less the header-only frame-ancestors", () => {
    expect(CONTENT_SECURITY_POLICY).toBe(`${META_CONTENT_SECURITY_POLICY}; frame-ancestors 'none'`);
    expect(META_CONTENT_SECURITY_POLICY).not.toContain('frame-ancestors');
  });

  describe('app:// protocol', () => {
    let root: string;
    let protocol: FakeSession['protocol'];
    beforeAll(async () => {
      root = await mkdtemp(path.join(tmpdir(), 'trebuchet-app-protocol-'));
      await mkdir(path.join(root, 'renderer', 'assets'), { recursive: true });
      await writeFile(path.join(root, 'renderer', 'index.html'), '<!doctype html><title>t</title>');
      await writeFile(path.join(root, 'renderer', 'assets', 'app.js'), 'console.log(1)');
      await writeFile(path.join(root, 'secret.txt'), 'outside');
      protocol = new FakeSession().protocol;
      registerAppScheme(protocol as unknown as Protocol);
      serveRenderer(protocol as unknown as Protocol, path.join(root, 'renderer'));
    });
    afterAll(() => rm(root, { recursive: true, force: true }));

    const fetchApp = (url: string) => {
      const handler = protocol.handlers.get('app');
      if (!handler) throw new Error('app:// is not handled');
      return handler(new Request(url));
    };

    it('is a privileged standard, secure scheme', () => {
      expect(protocol.privileged).toEqual([
        { scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true } },
      ]);
    });

    it('serves the renderer with the CSP header', async () => {
      const page = await fetchApp(APP_START_URL);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(await page.text()).toBe('<!doctype html><title>t</title>');
      const script = await fetchApp('app://trebuchet/assets/app.js');
      expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
      expect(script.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    });

    it('refuses paths outside the renderer folder and other hosts', async () => {
      expect((await fetchApp('app://trebuchet/%2e%2e/secret.txt')).status).toBe(404);
      expect((await fetchApp('app://trebuchet/..%2fsecret.txt')).status).toBe(404);
      expect((await fetchApp('app://other/index.html')).status).toBe(404);
      expect((await fetchApp('app://trebuchet/missing.js')).status).toBe(404);
    });
  });
});

describe('window and its jobs', () => {
  it('receives only its own jobs, never after it is destroyed, and closing it stops them', async () => {
    const engine = new FakeEngine();
    const dataDir = await mkdtemp(path.join(tmpdir(), 'trebuchet-window-'));
    const history = new HistorySaver({
      history: (await openStores({ dataDir })).history,
      appVersion: '1',
    });
    const registry = new JobRegistry({
      history,
      context: { appVersion: '1', startTarget: engine.start, checkTarget: passes },
    });
    const stoppedOwners: string[] = [];
    const services: AppShell['services'] = {
      attach: (owner, sink) => registry.attach(owner, sink),
      detach: (owner) => registry.detach(owner),
      stopOwned: async (owner) => {
        stoppedOwners.push(owner);
        await registry.stopOwned(owner);
      },
    };
    const trusted = new Set<number>();
    const shell = { services, trusted, window: windowOptions };
    openAppWindow(shell);
    const first = lastWindow();
    openAppWindow(shell);
    const second = lastWindow();
    expect(trusted).toEqual(new Set([first.webContents.id, second.webContents.id]));
    // Taken before the close: a destroyed webContents throws on reading its id, as Electron's does.
    const firstId = first.webContents.id;
    const firstOwner = windowOwner(first.webContents);

    const run = registry.start({ kind: 'run', plan: scenario }, firstOwner);
    run.begin();
    expect(first.webContents.send).toHaveBeenCalledWith(JOB_EVENT_CHANNEL, {
      jobId: run.id,
      kind: 'run',
      n: 0,
      event: { type: 'progress', progress: { type: 'started', targetCount: 1 } },
    });
    engine.begin(0);
    const comparison = registry.start(
      {
        kind: 'comparison',
        plan: comparisonPlanSchema.parse({
          targets: [{ name: 'a', urls: { http: 'http://127.0.0.1:9/' } }],
          load: { model: 'closed', limit: { kind: 'duration', seconds: 1 } },
          levels: [1, 2],
          repetitions: 2,
        }),
      },
      windowOwner(second.webContents),
    );
    comparison.begin();
    // Its 'started' and 'preflight', on the same channel as the run's.
    expect(second.webContents.send).toHaveBeenCalledWith(JOB_EVENT_CHANNEL, {
      jobId: comparison.id,
      kind: 'comparison',
      n: 0,
      event: { type: 'progress', progress: { type: 'started', cellCount: 4 } },
    });
    expect(second.webContents.send).toHaveBeenCalledTimes(2);
    expect(first.webContents.send).toHaveBeenCalledTimes(2);

    first.simulateClose();
    await nextMacrotask();
    expect(engine.stopped).toEqual([0]);
    expect(stoppedOwners).toEqual([firstOwner]);
    // The cancelled run's result and 'done' came after the window was gone: nothing was sent to it.
    expect(first.webContents.send).toHaveBeenCalledTimes(2);
    expect(trusted.has(firstId)).toBe(false);
    // Listed until its cancelled 'done' is saved and passed on (to no one).
    await expect.poll(() => registry.idsOf(firstOwner)).toEqual([]);
    await registry.close();
    await rm(dataDir, { recursive: true, force: true });
  });
});

describe('quitting', () => {
  it('waits for every run to stop before the app exits', async () => {
    const app = electronMock.app;
    let release: () => void = () => undefined;
    const stopAll = vi.fn(() => new Promise<void>((resolve) => (release = resolve)));
    stopRunsBeforeQuit(app as unknown as App, stopAll);

    app.quit();
    expect(stopAll).toHaveBeenCalledTimes(1);
    expect(app.quitted).toBe(false);
    app.quit(); // a second Cmd+Q while stopping does not start a second stop
    expect(stopAll).toHaveBeenCalledTimes(1);

    release();
    await vi.waitFor(() => expect(app.quitted).toBe(true));
  });
});
