import { useCallback, useEffect, useState } from 'react';

/**
 * Whether a draft was edited since it was last settled: opened from a preset or history,
 * saved as a preset, or restored unedited at start. A draft is immutable, so any edit makes a
 * new object; `settle(d)` makes `d` the unedited state.
 */
export function useEdited<D>(draft: D, startEdited: boolean): { edited: boolean; settle: (d: D) => void } {
  const [base, setBase] = useState<D | null>(() => (startEdited ? null : draft));
  const settle = useCallback((d: D) => setBase(() => d), []);
  return { edited: draft !== base, settle };
}

/**
 * A draft that runs is kept in History with its job (and opens from there again), so while it
 * runs, and from then on, it counts as saved: a preset opened after a run replaces it without asking.
 */
export function useSettledWhileRunning<D>(running: boolean, draft: D, settle: (d: D) => void): void {
  useEffect(() => {
    if (running) settle(draft);
  }, [running, draft, settle]);
}
