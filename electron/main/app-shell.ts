import type { App, BrowserWindow } from 'electron';
import type { HostServices } from '../host/services.ts';
import { windowOwner } from './ipc.ts';
import { JOB_EVENT_CHANNEL } from './ipc-channels.ts';
import { createMainWindow, type MainWindowOptions } from './window.ts';

export interface AppShell {
  /** The jobs of every kind, routed per window. */
  services: Pick<HostServices, 'attach' | 'detach' | 'stopOwned'>;
  /** The app's windows' webContents ids, which IPC trusts. */
  trusted: Set<number>;
  window: MainWindowOptions;
}

/**
 * Opens a window wired to the host's services: each of its jobs sends its events to it
 * (never to a destroyed one), and closing it stops them; they keep (and save) their partial
 * results.
 */
export function openAppWindow(shell: AppShell): BrowserWindow {
  const window = createMainWindow(shell.window);
  const contents = window.webContents;
  // Read now: once the window is closed its webContents is destroyed, and Electron throws
  // ("Object has been destroyed") on any property read but isDestroyed().
  const contentsId = contents.id;
  const owner = windowOwner(contents);
  shell.trusted.add(contentsId);
  shell.services.attach(owner, (envelope) => {
    if (!contents.isDestroyed()) contents.send(JOB_EVENT_CHANNEL, envelope);
  });
  window.on('closed', () => {
    shell.trusted.delete(contentsId);
    shell.services.detach(owner);
    shell.services
      .stopOwned(owner)
      .catch((error: unknown) => console.error('trebuchet: stopping runs failed:', error));
  });
  return window;
}

/**
 * Quitting mid-run waits for every run to stop (each ends 'cancelled' with what it measured)
 * before the app exits, so no worker is killed halfway through writing its result.
 */
export function stopRunsBeforeQuit(app: App, stopAll: () => Promise<void>): void {
  let stopping = false;
  let stopped = false;
  app.on('before-quit', (event) => {
    if (stopped) return;
    event.preventDefault();
    if (stopping) return;
    stopping = true;
    stopAll()
      .catch((error: unknown) => console.error('trebuchet: stopping runs before quit failed:', error))
      .finally(() => {
        stopped = true;
        app.quit();
      });
  });
}
