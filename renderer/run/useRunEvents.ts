import { useEffect, useSyncExternalStore } from 'react';
import type { TrebuchetApi } from '../../shared/api.ts';
import type { RunState, RunStore } from './runStore.ts';

/**
 * The one subscription to the host's run events: feeds the store, which keeps the current
 * run's events (by run id) and drops the rest. Unsubscribes on unmount.
 */
export function useRunEvents(api: TrebuchetApi, store: RunStore): void {
  useEffect(() => api.onRunEvent((event) => store.receive(event)), [api, store]);
}

/** The store's state; re-renders on every change (at most once per run event). */
export function useRunState(store: RunStore): RunState {
  return useSyncExternalStore(store.subscribe, store.getState);
}
