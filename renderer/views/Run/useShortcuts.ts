import { useEffect, useRef } from 'react';
import { shortcutOf, type Shortcut } from '../../lib/shortcuts.ts';

/**
 * Window-wide run/stop keys. The handlers sit in a ref so the listener is added once and
 * always calls the latest ones.
 */
export function useShortcuts(handlers: Record<Shortcut, () => boolean>): void {
  const ref = useRef(handlers);
  useEffect(() => {
    ref.current = handlers;
  });
  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      const s = shortcutOf(e);
      // A handler returns false when the key means nothing now, so Escape still closes menus.
      if (s && ref.current[s]()) e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
