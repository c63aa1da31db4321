import { useEffect, useRef, type RefObject } from 'react';

/** Below this width the two panes stack, the editor or list above the results (App.css's reflow). */
export const STACKED_QUERY = '(max-width: 800px)';

/**
 * With the panes stacked (a narrow window, 200 % zoom), what a click made appear under the
 * editor is out of sight, a screen or more below: scrolled into view whenever `key` changes (a
 * run started, a saved run or a diff opened). Side by side it is in view already.
 */
export function useRevealWhenStacked<T extends HTMLElement>(key: string | number): RefObject<T | null> {
  const ref = useRef<T | null>(null);
  useEffect(() => {
    if (window.matchMedia(STACKED_QUERY).matches) ref.current?.scrollIntoView({ block: 'start' });
  }, [key]);
  return ref;
}
