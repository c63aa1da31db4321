import { BrowserWindow } from 'electron';
import { hardenWebContents, secureWebPreferences } from './security.ts';

export interface MainWindowOptions {
  preloadPath: string;
  /** The renderer's start page (app://trebuchet/index.html). */
  url: string;
  devTools: boolean;
}

/** The app's window: secure preferences, hardened contents, shown once painted. */
export function createMainWindow(opts: MainWindowOptions): BrowserWindow {
  const window = new BrowserWindow({
    width: 1280,
    height: 860,
    minWidth: 960,
    minHeight: 640,
    title: 'Trebuchet',
    show: false,
    webPreferences: secureWebPreferences(opts.preloadPath, opts.devTools),
  });
  hardenWebContents(window.webContents);
  window.once('ready-to-show', () => window.show());
  window
    .loadURL(opts.url)
    .catch((error: unknown) => console.error('trebuchet: could not load the UI:', error));
  return window;
}
