import type { BrowserWindow, Rectangle } from 'electron';
import type { WindowBounds } from '../../shared/records/settings.ts';

/** The window's least size (BrowserWindow's minWidth/minHeight). */
export const MIN_WINDOW = { width: 960, height: 640 } as const;

const overlap = (a: Rectangle, b: Rectangle): number =>
  Math.max(0, Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x)) *
  Math.max(0, Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y));

/**
 * Where a saved window opens: on the display it overlaps most, moved and shrunk to fit that
 * display's work area (a monitor unplugged, a resolution lowered). Null when it overlaps none
 * (the window then opens at its default size, centred).
 */
export function visibleBounds(saved: WindowBounds, workAreas: readonly Rectangle[]): WindowBounds | null {
  let best: Rectangle | null = null;
  let bestArea = 0;
  for (const area of workAreas) {
    const a = overlap(saved, area);
    if (a > bestArea) {
      best = area;
      bestArea = a;
    }
  }
  if (!best) return null;
  const width = Math.max(Math.min(saved.width, best.width), Math.min(MIN_WINDOW.width, best.width));
  const height = Math.max(Math.min(saved.height, best.height), Math.min(MIN_WINDOW.height, best.height));
  const x = Math.min(Math.max(saved.x, best.x), best.x + best.width - width);
  const y = Math.min(Math.max(saved.y, best.y), best.y + best.height - height);
  return { x, y, width, height, maximized: saved.maximized };
}

/** How long the window rests before its place is written: a drag moves it many times a second. */
const SAVE_BOUNDS_DELAY_MS = 500;

/**
 * Saves the window's place on every move and resize (debounced) and once more as it closes.
 * The place kept is the normal one (getNormalBounds), so a maximized window comes back
 * maximized over the place it had before.
 */
export function trackWindowBounds(
  window: Pick<BrowserWindow, 'on' | 'getNormalBounds' | 'isMaximized' | 'isDestroyed'>,
  save: (bounds: WindowBounds) => void,
  delayMs = SAVE_BOUNDS_DELAY_MS,
): void {
  let timer: ReturnType<typeof setTimeout> | null = null;
  const saveNow = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (window.isDestroyed()) return;
    const { x, y, width, height } = window.getNormalBounds();
    try {
      save({ x, y, width, height, maximized: window.isMaximized() });
    } catch (error) {
      console.error('trebuchet: could not keep the window place:', error);
    }
  };
  const later = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(saveNow, delayMs);
  };
  for (const event of ['move', 'resize', 'maximize', 'unmaximize'] as const)
    window.on(event as 'move', later);
  window.on('close', saveNow);
}
