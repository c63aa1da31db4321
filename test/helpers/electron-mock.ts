import { EventEmitter } from 'node:events';
import { vi } from 'vitest';

/**
 * A stand-in for the `electron` module (the binary cannot be downloaded here), after
 * Fiddle's tests/mocks: just enough of BrowserWindow, webContents, ipcMain, ipcRenderer,
 * contextBridge, app, protocol and session to drive the main-process and preload code.
 * Use with: vi.mock('electron', async () => (await import('./electron-mock.ts')).electronMock)
 */

let nextContentsId = 1;

export class FakeWebContents extends EventEmitter {
  readonly #id = nextContentsId++;
  readonly send = vi.fn<(channel: string, ...args: unknown[]) => void>();
  windowOpenHandler: ((details: { url: string }) => { action: 'allow' | 'deny' }) | null = null;
  #destroyed = false;

  /** Like Electron's, readable only until the contents is destroyed. */
  get id(): number {
    if (this.#destroyed) throw new TypeError('Object has been destroyed');
    return this.#id;
  }

  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'allow' | 'deny' }): void {
    this.windowOpenHandler = handler;
  }
  isDestroyed(): boolean {
    return this.#destroyed;
  }
  destroy(): void {
    this.#destroyed = true;
  }
}

export class FakeBrowserWindow extends EventEmitter {
  static readonly instances: FakeBrowserWindow[] = [];
  static getAllWindows(): FakeBrowserWindow[] {
    return FakeBrowserWindow.instances;
  }
  readonly options: Record<string, unknown>;
  readonly webContents = new FakeWebContents();
  readonly loadURL = vi.fn((_url: string) => Promise.resolve());
  readonly show = vi.fn();

  constructor(options: Record<string, unknown>) {
    super();
    this.options = options;
    FakeBrowserWindow.instances.push(this);
  }

  /** What Electron does when the user closes the window. */
  simulateClose(): void {
    this.webContents.destroy();
    this.emit('closed');
  }
}

type InvokeHandler = (event: unknown, ...args: unknown[]) => unknown;

export class FakeIpcMain {
  readonly handlers = new Map<string, InvokeHandler>();
  handle(channel: string, handler: InvokeHandler): void {
    if (this.handlers.has(channel)) throw new Error(`second handler for ${channel}`);
    this.handlers.set(channel, handler);
  }
  removeHandler(channel: string): void {
    this.handlers.delete(channel);
  }
  /** Calls a channel's handler as Electron would for an ipcRenderer.invoke(). */
  async invoke(channel: string, event: unknown, ...args: unknown[]): Promise<unknown> {
    const handler = this.handlers.get(channel);
    if (!handler) throw new Error(`no handler for ${channel}`);
    return await handler(event, ...args);
  }
}

export class FakeIpcRenderer extends EventEmitter {
  readonly invoke = vi.fn<(channel: string, ...args: unknown[]) => Promise<unknown>>();
}

export class FakeSession {
  permissionRequestHandler:
    | ((
        wc: unknown,
        permission: string,
        callback: (granted: boolean) => void,
        details: { requestingUrl?: string },
      ) => void)
    | null = null;
  permissionCheckHandler: ((...args: unknown[]) => boolean) | null = null;
  devicePermissionHandler: ((...args: unknown[]) => boolean) | null = null;
  readonly protocol = new FakeProtocol();
  setPermissionRequestHandler(handler: FakeSession['permissionRequestHandler']): void {
    this.permissionRequestHandler = handler;
  }
  setPermissionCheckHandler(handler: FakeSession['permissionCheckHandler']): void {
    this.permissionCheckHandler = handler;
  }
  setDevicePermissionHandler(handler: FakeSession['devicePermissionHandler']): void {
    this.devicePermissionHandler = handler;
  }
}

export class FakeProtocol {
  readonly privileged: unknown[] = [];
  readonly handlers = new Map<string, (request: Request) => Response | Promise<Response>>();
  registerSchemesAsPrivileged(schemes: unknown[]): void {
    this.privileged.push(...schemes);
  }
  handle(scheme: string, handler: (request: Request) => Response | Promise<Response>): void {
    this.handlers.set(scheme, handler);
  }
}

export class FakeApp extends EventEmitter {
  readonly quit = vi.fn(() => {
    const event = { defaultPrevented: false, preventDefault: () => (event.defaultPrevented = true) };
    this.emit('before-quit', event);
    if (!event.defaultPrevented) this.quitted = true;
  });
  quitted = false;
  getVersion(): string {
    return '0.0.0-test';
  }
}

export const exposed = new Map<string, unknown>();

export const electronMock = {
  BrowserWindow: FakeBrowserWindow,
  ipcMain: new FakeIpcMain(),
  ipcRenderer: new FakeIpcRenderer(),
  contextBridge: {
    exposeInMainWorld: (key: string, api: unknown) => {
      exposed.set(key, api);
    },
  },
  app: new FakeApp(),
  protocol: new FakeProtocol(),
  session: { defaultSession: new FakeSession() },
};
