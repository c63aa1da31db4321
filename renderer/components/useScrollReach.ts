import { useCallback, useRef, type RefCallback } from 'react';

/**
 * A box whose content may be wider than it (a table in a narrow window scrolls within its
 * card): while it is, the box takes the keyboard's focus, so arrow keys scroll it for someone
 * without a mouse (WCAG 2.1.1, axe's scrollable-region-focusable); while it is not, it is no tab
 * stop. Its size and its children's are watched, so a table filled later counts too.
 */
export function useScrollReach<T extends HTMLElement>(): RefCallback<T> {
  const observer = useRef<ResizeObserver | null>(null);
  return useCallback((el: T | null) => {
    observer.current?.disconnect();
    observer.current = null;
    // jsdom (the unit tests' page) has no ResizeObserver: nothing there scrolls anyway.
    if (el === null || typeof ResizeObserver === 'undefined') return;
    const update = (): void => {
      if (el.scrollWidth > el.clientWidth + 1) el.tabIndex = 0;
      else el.removeAttribute('tabindex');
    };
    const watch = new ResizeObserver(update);
    watch.observe(el);
    for (const child of el.children) watch.observe(child);
    observer.current = watch;
    update();
  }, []);
}
