import { BrowserWindow } from 'electron';
import type { WindowBounds } from '../../shared/records/settings.ts';
import { hardenWebContents, secureWebPreferences } from './security.ts';
import { MIN_WINDOW, trackWindowBounds } from './window-bounds.ts';

export interface MainWindowOptions {
  preloadPath: string;
  /** The renderer's start page (app://trebuchet/index.html). */
  url: string;
  devTools: boolean;
  /** Where the window opens (the kept place, fitted to a display: visibleBounds); centred at the default size when absent. */
  bounds?: WindowBounds | null;
  /** Told the window's place after it moved or was resized (debounced) and as it closes. */
  onBounds?: (bounds: WindowBounds) => void;
}

/** The app's window: secure preferences, hardened contents, where it was last, shown once painted. */
export function createMainWindow(opts: MainWindowOptions): BrowserWindow {
  const window = new BrowserWindow({
    width: opts.bounds?.width ?? 1280,
    height: opts.bounds?.height ?? 860,
    ...(opts.bounds ? { x: opts.bounds.x, y: opts.bounds.y } : {}),
    minWidth: MIN_WINDOW.width,
    minHeight: MIN_WINDOW.height,
    title: 'Trebuchet',
    show: false,
    webPreferences: secureWebPreferences(opts.preloadPath, opts.devTools),
  });
  hardenWebContents(window.webContents);
  window.once('ready-to-show', () => {
    if (opts.bounds?.maximized === true) window.maximize();
    window.show();
  });
  if (opts.onBounds) trackWindowBounds(window, opts.onBounds);
  window
    .loadURL(opts.url)
    .catch((error: unknown) => console.error('trebuchet: could not load the UI:', error));
  return window;
}
