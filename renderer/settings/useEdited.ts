import { useCallback, useState } from 'react';

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
