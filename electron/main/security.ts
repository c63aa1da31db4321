import type { Session, WebContents, WebPreferences } from 'electron';

/**
 * The renderer runs as an untrusted web page: isolated from the preload, sandboxed, no Node,
 * same-origin policy on. Everything it may do goes through window.trebuchet.
 */
export function secureWebPreferences(preloadPath: string, devTools: boolean): WebPreferences {
  return {
    preload: preloadPath,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    navigateOnDragDrop: false,
    spellcheck: false,
    devTools,
  };
}

/**
 * A single-page app never navigates and never opens windows: a link or a dropped file must
 * not replace the UI (and its window.trebuchet) with other content.
 */
export function hardenWebContents(contents: WebContents): void {
  contents.on('will-navigate', (event) => event.preventDefault());
  contents.on('will-redirect', (event) => event.preventDefault());
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
}

/**
 * The one permission the app uses: writing text to the clipboard on a click ("Copy report"),
 * which Chromium asks for as clipboard-sanitized-write. Reading the clipboard stays denied.
 */
export const CLIPBOARD_WRITE_PERMISSION = 'clipboard-sanitized-write';

/** True for the app's own pages (app://trebuchet/...), whatever path they show. */
function isAppUrl(url: string | undefined, appOrigin: string): boolean {
  if (url === undefined) return false;
  return url === appOrigin || url.startsWith(`${appOrigin}/`);
}

/**
 * No permission (camera, notifications, clipboard read, USB, ...) is ever granted, except
 * clipboard-sanitized-write to the app's own origin. Chromium asks twice: a check (synchronous,
 * with the requesting origin) and a request (with the requesting URL); both must agree.
 */
export function hardenSession(session: Session, appOrigin: string): void {
  session.setPermissionRequestHandler((_contents, permission, callback, details) => {
    callback(permission === CLIPBOARD_WRITE_PERMISSION && isAppUrl(details.requestingUrl, appOrigin));
  });
  session.setPermissionCheckHandler(
    (_contents, permission, requestingOrigin) =>
      permission === CLIPBOARD_WRITE_PERMISSION && isAppUrl(requestingOrigin, appOrigin),
  );
  session.setDevicePermissionHandler(() => false);
}
