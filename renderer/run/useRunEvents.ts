import { useEffect, useSyncExternalStore } from 'react';
import type { TrebuchetApi } from '../../shared/contract/api.ts';
import type { Scenario } from '../../shared/model/scenario.ts';
import type { RunState, RunStore } from './runStore.ts';

/**
 * The store's link to the host: the run it follows is subscribed to by the store itself
 * (follow, when run.start answers); this hook lets go of it on unmount. Then, once, it asks
 * the host for a run this page started before a reload (run.active) and takes it up, so the
 * page shows the run going on instead of idling until it ends; onAdopt hears its scenario.
 * Events the host sent before the answer are in it; the run is followed from the answer on.
 */
export function useRunEvents(
  api: TrebuchetApi,
  store: RunStore,
  onAdopt: (scenario: Scenario) => void,
): void {
  useEffect(() => () => store.close(), [store]);
  useEffect(() => {
    let live = true;
    api.run.active().then(
      ({ runs }) => {
        const run = runs.at(-1);
        if (live && run && store.adopt(run)) onAdopt(run.scenario);
      },
      (e: unknown) => console.warn('trebuchet: could not ask the host for runs in progress:', e),
    );
    return () => {
      live = false;
    };
  }, [api, store, onAdopt]);
}

/** The store's state; re-renders on every change (at most once per run event). */
export function useRunState(store: RunStore): RunState {
  return useSyncExternalStore(store.subscribe, store.getState);
}
