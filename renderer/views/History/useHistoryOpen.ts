import { useCallback, useState } from 'react';
import type { View } from '../../components/ViewTabs.tsx';
import type { HistoryOpen } from './HistoryView.tsx';

/**
 * What another view asks History to open (a run just saved, or its diff against its
 * baseline): open() shows History with it, History calls clear() once it is shown.
 */
export function useHistoryOpen(setView: (view: View) => void): {
  toOpen: HistoryOpen | null;
  open: (id: string, base?: string) => void;
  clear: () => void;
} {
  const [toOpen, setToOpen] = useState<HistoryOpen | null>(null);
  const open = useCallback(
    (id: string, base?: string) => {
      setToOpen({ id, base });
      setView('history');
    },
    [setView],
  );
  const clear = useCallback(() => setToOpen(null), []);
  return { toOpen, open, clear };
}
