import { useSyncExternalStore } from 'react';
import type { ColorScheme } from './palette.ts';

const QUERY = '(prefers-color-scheme: dark)';

function subscribe(onChange: () => void): () => void {
  const mq = window.matchMedia(QUERY);
  mq.addEventListener('change', onChange);
  return () => mq.removeEventListener('change', onChange);
}

const current = (): ColorScheme => (window.matchMedia(QUERY).matches ? 'dark' : 'light');

/** The OS theme, live: charts redraw in the new colours when it changes. */
export function useColorScheme(): ColorScheme {
  return useSyncExternalStore(subscribe, current);
}
