import path from 'node:path';
import { app, BrowserWindow, ipcMain, protocol, screen, session } from 'electron';
import { createCommandHandlers } from '../host/commands.ts';
import { createHostServices, type HostServices } from '../host/services.ts';
import { recoverJournals } from '../jobs/journal/recover.ts';
import { openDesktopStores } from '../stores/electron-adapter.ts';
import { APP_ORIGIN, APP_START_URL, registerAppScheme, serveRenderer } from './app-protocol.ts';
import { openAppWindow, stopRunsBeforeQuit, type AppShell } from './app-shell.ts';
import { registerIpcHandlers } from './ipc.ts';
import { hardenSession } from './security.ts';
import { visibleBounds } from './window-bounds.ts';

// Wiring only: every piece lives in a module of its own, tested with a mocked electron.
registerAppScheme(protocol);

// Set once the app is ready (safeStorage, behind the stores, needs it); no job runs before.
let services: HostServices | null = null;
stopRunsBeforeQuit(app, () => (services ? services.close() : Promise.resolve()));

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});

app
  .whenReady()
  .then(async () => {
    hardenSession(session.defaultSession, APP_ORIGIN);
    serveRenderer(session.defaultSession.protocol, path.join(app.getAppPath(), 'dist', 'renderer'));
    const stores = await openDesktopStores();
    // Jobs an earlier start left unfinished (killed, crashed) become History entries first.
    const recovered = await recoverJournals({ dataDir: stores.dataDir, history: stores.history });
    const ready = createHostServices({ stores, recovered, appVersion: app.getVersion() });
    services = ready;
    const shell: AppShell = {
      services: ready,
      trusted: new Set(),
      window: {
        preloadPath: path.join(app.getAppPath(), 'dist', 'preload', 'index.cjs'),
        url: APP_START_URL,
        devTools: !app.isPackaged,
        get bounds() {
          // Read at each opening: the displays may have changed since the last.
          const last = stores.settings.window();
          return (
            last &&
            visibleBounds(
              last,
              screen.getAllDisplays().map((d) => d.workArea),
            )
          );
        },
        onBounds: (bounds) => stores.settings.setWindow(bounds),
      },
    };
    registerIpcHandlers({
      ipcMain,
      handlers: createCommandHandlers({
        services: ready,
        info: { appVersion: app.getVersion(), host: 'electron', platform: process.platform },
        // The desktop app is the person's own: Kubernetes runs start, once its window confirmed them.
        allowKubernetes: true,
      }),
      trusted: shell.trusted,
      appOrigin: APP_ORIGIN,
    });
    openAppWindow(shell);
    app.on('activate', () => {
      if (BrowserWindow.getAllWindows().length === 0) openAppWindow(shell);
    });
  })
  .catch((error: unknown) => {
    console.error('trebuchet: could not start:', error);
    app.exit(1);
  });
