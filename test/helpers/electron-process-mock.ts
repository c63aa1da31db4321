/**
 * The `electron` module for a desktop main process run under test in a process of its own
 * (desktop-host-process.ts), where vitest's module mock cannot reach and the Electron binary
 * cannot be downloaded: plain stand-ins, as test/helpers/electron-mock.ts's, for what the main
 * process and electron-store touch. userData is TREBUCHET_USER_DATA. A window's sent events
 * go to `sent`, which the driver sets.
 */
import { EventEmitter } from 'node:events';
import { fileURLToPath } from 'node:url';

let nextContentsId = 1;

export const hooks: { sent: (channel: string, args: unknown[]) => void } = { sent: () => undefined };

class WebContents extends EventEmitter {
  readonly id = nextContentsId++;
  send(channel: string, ...args: unknown[]): void {
    hooks.sent(channel, args);
  }
  setWindowOpenHandler(): void {}
  isDestroyed(): boolean {
    return false;
  }
}

export class BrowserWindow extends EventEmitter {
  static readonly instances: BrowserWindow[] = [];
  static getAllWindows(): BrowserWindow[] {
    return BrowserWindow.instances;
  }
  readonly webContents = new WebContents();
  readonly options: Record<string, unknown>;
  constructor(options: Record<string, unknown>) {
    super();
    this.options = options;
    BrowserWindow.instances.push(this);
  }
  loadURL(): Promise<void> {
    return Promise.resolve();
  }
  show(): void {}
  maximize(): void {}
  isDestroyed(): boolean {
    return false;
  }
  isMaximized(): boolean {
    return false;
  }
  getNormalBounds() {
    return { x: 0, y: 0, width: 1280, height: 860 };
  }
}

type Handler = (event: unknown, ...args: unknown[]) => unknown;

class IpcMain extends EventEmitter {
  readonly handlers = new Map<string, Handler>();
  handle(channel: string, handler: Handler): void {
    this.handlers.set(channel, handler);
  }
  removeHandler(channel: string): void {
    this.handlers.delete(channel);
  }
}

export const ipcMain = new IpcMain();

export const app = Object.assign(new EventEmitter(), {
  isPackaged: false,
  whenReady: () => Promise.resolve(),
  getVersion: () => '0.0.0-test',
  getPath: () => process.env.TREBUCHET_USER_DATA ?? '',
  getAppPath: () => fileURLToPath(new URL('../../', import.meta.url)),
  quit: () => process.exit(0),
  exit: (code: number) => process.exit(code),
});

export const protocol = { registerSchemesAsPrivileged: () => undefined, handle: () => undefined };
export const screen = { getAllDisplays: () => [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }] };
export const session = {
  defaultSession: {
    setPermissionRequestHandler: () => undefined,
    setPermissionCheckHandler: () => undefined,
    setDevicePermissionHandler: () => undefined,
    protocol: { handle: () => undefined },
  },
};
/** No keychain here: secrets are treated as the desktop treats a Linux without a keyring. */
export const safeStorage = {
  isEncryptionAvailable: () => false,
  getSelectedStorageBackend: () => 'basic_text',
  encryptString: (): Buffer => {
    throw new Error('no keychain under test');
  },
  decryptString: (): string => {
    throw new Error('no keychain under test');
  },
};
export const shell = {};

export default { app, BrowserWindow, ipcMain, protocol, screen, session, safeStorage, shell };
