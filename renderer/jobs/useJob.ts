import type { ComparisonRerun } from '../../shared/comparison/rerun.ts';
import { useCallback, useEffect, useState, useSyncExternalStore } from 'react';
import type { TrebuchetApi } from '../../shared/contract/api.ts';
import type { ActiveJob, JobKind, JobStartInput, PlanOf } from '../../shared/contract/jobs.ts';
import type { ShardPlacement } from '../../shared/distributed/placement.ts';
import type { KubeConfirmation } from '../../shared/distributed/kube-confirmation.ts';
import { errorText } from '../lib/errors.ts';
import { createJobStore, isBusy, type JobState, type JobStore, type JobView } from './jobStore.ts';

/** A run on shards as jobs.start takes it: where, and on Kubernetes what the person confirmed. */
export interface PlacedShards {
  shards: ShardPlacement;
  kubernetesConfirmed?: KubeConfirmation;
}

/** A tab's job, whatever its kind: its state, its store (for the charts' feeds) and its controls. */
export interface Job<K extends JobKind, V> {
  state: JobState<K, V>;
  store: JobStore<K, V>;
  /**
   * Starts a job of the plan (a run: on shards when given; a comparison: only some of a saved
   * one's runs again, when a rerun is given); false (and nothing done) while one is going on.
   */
  start: (plan: PlanOf<K>, shards?: PlacedShards, rerun?: ComparisonRerun) => boolean;
  /** Stops the job (also when pressed before the host answered the start); false when none is going on. */
  stop: () => boolean;
  /** Back to the tab's empty state (after a job ended). */
  reset: () => void;
}

/**
 * The one way a tab runs a job, whatever its kind: starts it (jobs.start), follows its events
 * from the host's answer on (the host sends none before), stops it (jobs.stop, at once or as
 * soon as the host answered when Stop came first). On mount it takes up a job of this kind
 * the page started before a reload (jobs.active: its events so far, then the rest live);
 * onAdopt hears its plan. A refused start that onRefused shows at the form's fields (it says
 * true) leaves the tab empty; any other is the job's failure. `kind` must be a module constant.
 */
export function useJob<K extends JobKind, V>(
  api: TrebuchetApi,
  kind: JobView<K, V>,
  onAdopt: (plan: PlanOf<K>) => void,
  onRefused: (error: unknown) => boolean = () => false,
): Job<K, V> {
  const [store] = useState(() => createJobStore(kind, (jobId, listener) => api.onJobEvent(jobId, listener)));
  const state = useSyncExternalStore(store.subscribe, store.getState);
  useEffect(() => () => store.close(), [store]);

  useEffect(() => {
    let live = true;
    api.jobs.active({ kind: kind.kind }).then(
      ({ jobs }) => {
        // Asked for this kind only: the host's answer holds jobs of it.
        const job = jobs.at(-1) as ActiveJob<K> | undefined;
        if (live && job && store.adopt(job)) onAdopt(job.plan);
      },
      (e: unknown) => console.warn(`trebuchet: could not ask the host for a ${kind.kind} in progress:`, e),
    );
    return () => {
      live = false;
    };
  }, [api, kind, store, onAdopt]);

  const sendStop = useCallback(
    (jobId: string) => {
      api.jobs.stop({ jobId }).catch((e: unknown) => store.addError(errorText(e)));
    },
    [api, store],
  );

  const start = useCallback(
    (plan: PlanOf<K>, shards?: PlacedShards, rerun?: ComparisonRerun): boolean => {
      if (isBusy(store.getState().phase)) return false;
      store.begin(plan);
      // A plan of kind K is what jobs.start takes for K; TypeScript cannot pair the two through K.
      const extras = { ...shards, ...(rerun ? { rerun } : {}) };
      api.jobs.start({ kind: kind.kind, plan, ...extras } as JobStartInput).then(
        ({ jobId }) => {
          store.attach(jobId);
          // Stop was pressed while the host was still starting it.
          if (store.getState().stopRequested) sendStop(jobId);
        },
        (e: unknown) => {
          if (onRefused(e)) store.reset();
          else store.startFailed(errorText(e));
        },
      );
      return true;
    },
    [api, kind, store, sendStop, onRefused],
  );

  const stop = useCallback((): boolean => {
    const { phase, jobId } = store.getState();
    if (phase !== 'starting' && phase !== 'running') return false;
    store.requestStop();
    if (jobId !== null) sendStop(jobId);
    return true;
  }, [store, sendStop]);

  const reset = useCallback(() => store.reset(), [store]);
  return { state, store, start, stop, reset };
}
