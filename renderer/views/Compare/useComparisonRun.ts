import { useCallback, useEffect, useRef, useState } from 'react';
import type { TrebuchetApi } from '../../../shared/api.ts';
import type { ComparisonPlan } from '../../../shared/comparison.ts';
import {
  adoptComparison,
  beginComparison,
  idleComparison,
  reduceComparison,
  type ComparisonRunState,
} from './comparisonRun.ts';
import { errorText } from '../../lib/errors.ts';

export interface ComparisonRun {
  state: ComparisonRunState;
  start: (plan: ComparisonPlan) => void;
  stop: () => void;
  /** Back to the editor's empty state (after a comparison ended). */
  reset: () => void;
}

/**
 * Starts, follows and stops one comparison at a time through the host's compare.* commands:
 * its events are subscribed to when the host answers with its id (the host sends none
 * before). On mount it takes up a comparison this page started before a reload
 * (compare.active); onAdopt hears its plan.
 */
export function useComparisonRun(api: TrebuchetApi, onAdopt: (plan: ComparisonPlan) => void): ComparisonRun {
  const [state, setState] = useState<ComparisonRunState>(idleComparison);
  // The latest state for callbacks, without re-subscribing on every event.
  const current = useRef(state);
  useEffect(() => {
    current.current = state;
  });

  // The comparison followed now: its unsubscribe function.
  const following = useRef<(() => void) | null>(null);
  const unfollow = useCallback(() => {
    following.current?.();
    following.current = null;
  }, []);
  const follow = useCallback(
    (comparisonId: string) => {
      unfollow();
      following.current = api.onComparisonEvent(comparisonId, (event) => {
        setState((s) => reduceComparison(s, event));
        if (event.type === 'done') unfollow();
      });
    },
    [api, unfollow],
  );
  useEffect(() => unfollow, [unfollow]);

  useEffect(() => {
    let live = true;
    api.compare.active().then(
      ({ comparisons }) => {
        const active = comparisons.at(-1);
        // Events the host sent before this answer are in it; later ones follow.
        if (!live || !active || current.current.phase !== 'idle') return;
        setState(adoptComparison(active));
        follow(active.comparisonId);
        onAdopt(active.plan);
      },
      (e: unknown) => console.warn('trebuchet: could not ask the host for comparisons in progress:', e),
    );
    return () => {
      live = false;
    };
  }, [api, follow, onAdopt]);

  const sendStop = useCallback(
    (comparisonId: string) => {
      api.compare
        .stop({ comparisonId })
        .catch((e: unknown) => setState((s) => ({ ...s, errors: [...s.errors, errorText(e)] })));
    },
    [api],
  );

  const start = useCallback(
    (plan: ComparisonPlan) => {
      setState(beginComparison(plan));
      api.compare.start({ plan }).then(
        ({ comparisonId }) => {
          // Stop was pressed while the host was still starting it.
          const stopRequested = current.current.phase === 'stopping';
          setState((s) => ({ ...s, comparisonId, phase: stopRequested ? 'stopping' : 'running' }));
          follow(comparisonId);
          if (stopRequested) sendStop(comparisonId);
        },
        (e: unknown) => setState((s) => ({ ...s, phase: 'done', status: 'failed', errors: [errorText(e)] })),
      );
    },
    [api, follow, sendStop],
  );

  const stop = useCallback(() => {
    const { phase, comparisonId } = current.current;
    if (phase !== 'starting' && phase !== 'running') return;
    setState((s) => ({ ...s, phase: 'stopping' }));
    if (comparisonId !== null) sendStop(comparisonId);
  }, [sendStop]);

  const reset = useCallback(() => {
    unfollow();
    setState(idleComparison);
  }, [unfollow]);
  return { state, start, stop, reset };
}
