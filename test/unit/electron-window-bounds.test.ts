import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { trackWindowBounds, visibleBounds } from '../../electron/main/window-bounds.ts';

const laptop = { x: 0, y: 0, width: 1920, height: 1050 };
const left = { x: -2560, y: 0, width: 2560, height: 1400 };

describe('the window opens where it was, on a display', () => {
  it('keeps a place that fits its display', () => {
    const saved = { x: -2000, y: 100, width: 1400, height: 900, maximized: false };
    expect(visibleBounds(saved, [laptop, left])).toEqual(saved);
  });

  it('moves and shrinks a window that hangs off its display into the work area', () => {
    const saved = { x: 1500, y: 900, width: 2400, height: 1300, maximized: true };
    expect(visibleBounds(saved, [laptop])).toEqual({
      x: 0,
      y: 0,
      width: 1920,
      height: 1050,
      maximized: true,
    });
    expect(visibleBounds({ ...saved, width: 1000, height: 700 }, [laptop])).toEqual({
      x: 920,
      y: 350,
      width: 1000,
      height: 700,
      maximized: true,
    });
  });

  it('opens at the default place when the display it was on is gone', () => {
    expect(
      visibleBounds({ x: -2000, y: 100, width: 1400, height: 900, maximized: false }, [laptop]),
    ).toBeNull();
  });
});

class FakeWindow extends EventEmitter {
  bounds = { x: 10, y: 20, width: 1280, height: 860 };
  maximized = false;
  destroyed = false;
  getNormalBounds = () => this.bounds;
  isMaximized = () => this.maximized;
  isDestroyed = () => this.destroyed;
}

describe('the window place is saved', () => {
  afterEach(() => vi.useRealTimers());

  it('once after a drag settles, and again as the window closes', () => {
    vi.useFakeTimers();
    const window = new FakeWindow();
    const save = vi.fn();
    trackWindowBounds(window as never, save, 500);
    for (let x = 11; x <= 60; x++) {
      window.bounds = { ...window.bounds, x };
      window.emit('move');
      vi.advanceTimersByTime(16);
    }
    expect(save).not.toHaveBeenCalled();
    vi.advanceTimersByTime(500);
    expect(save).toHaveBeenCalledTimes(1);
    expect(save).toHaveBeenLastCalledWith({ x: 60, y: 20, width: 1280, height: 860, maximized: false });
    window.maximized = true;
    window.emit('maximize');
    window.emit('close');
    expect(save).toHaveBeenCalledTimes(2);
    expect(save).toHaveBeenLastCalledWith({ x: 60, y: 20, width: 1280, height: 860, maximized: true });
    vi.advanceTimersByTime(1000);
    expect(save).toHaveBeenCalledTimes(2);
  });
});
