import { useCallback, useLayoutEffect, useRef, type RefObject } from 'react';

/**
 * Where the keyboard's focus goes when a row of a list removes itself (Enter on "Remove target
 * 2"): its button is gone, and the focus would fall to the page's body, the reader back at the
 * top. It goes to the row that took the removed one's place (the last row when the last was
 * removed), to its element marked data-row-focus="<kind>", or, with no row left, to the
 * element marked data-row-fallback="<kind>" (the list's add button).
 */
export function useFocusAfterRemove<T extends HTMLElement>(
  kind: string,
): { list: RefObject<T | null>; removing: (index: number) => void } {
  const list = useRef<T | null>(null);
  const pending = useRef<number | null>(null);
  // After the render without the row: the rows that are left are in the page.
  useLayoutEffect(() => {
    const at = pending.current;
    if (at === null || list.current === null) return;
    pending.current = null;
    const rows = list.current.querySelectorAll<HTMLElement>(`[data-row-focus="${kind}"]`);
    const next =
      rows[Math.min(at, rows.length - 1)] ??
      list.current.querySelector<HTMLElement>(`[data-row-fallback="${kind}"]`);
    next?.focus();
  });
  const removing = useCallback((index: number) => {
    pending.current = index;
  }, []);
  return { list, removing };
}
