import { useCallback, useEffect, useRef, useState } from 'react';
import type { RunStatus } from '../../shared/model/result.ts';
import { errorText } from '../lib/errors.ts';
import type { RunPhase } from './runStore.ts';

/** What every followed job's state holds (a comparison's, a capacity search's). */
export interface JobState {
  phase: RunPhase;
  status: RunStatus | null;
  /** The host refused the start, part of the job could not run, or the save failed. */
  errors: string[];
}

/** How one kind of job reads and talks to the host. Keep it stable (useMemo): it is a dependency. */
export interface JobWiring<P, E, A, S extends JobState> {
  idle: S;
  /** The state of a job about to start. */
  begin(plan: P): S;
  reduce(state: S, event: E): S;
  /** The state once the host answered with the job's id (stopping: Stop was pressed meanwhile). */
  started(state: S, id: string, stopping: boolean): S;
  idOf(state: S): string | null;
  /** A job the host still runs for this page (after a reload): its state, id and plan. */
  adopt(active: A): { state: S; id: string; plan: P };
  isLast(event: E): boolean;
  host: {
    start(plan: P): Promise<string>;
    stop(id: string): Promise<unknown>;
    active(): Promise<readonly A[]>;
    subscribe(id: string, listener: (event: E) => void): () => void;
  };
  /** "comparison", "capacity search": for the console line when the host cannot be asked. */
  noun: string;
}

export interface JobRun<P, S> {
  state: S;
  start: (plan: P) => void;
  stop: () => void;
  /** Back to the editor's empty state (after a job ended). */
  reset: () => void;
}

/**
 * Starts, follows and stops one job of a kind at a time: its events are subscribed to when the
 * host answers with its id (the host sends none before). On mount it takes up a job this page
 * started before a reload; onAdopt hears its plan.
 */
export function useJobRun<P, E, A, S extends JobState>(
  kind: JobWiring<P, E, A, S>,
  onAdopt: (plan: P) => void,
): JobRun<P, S> {
  const [state, setState] = useState<S>(kind.idle);
  // The latest state for callbacks, without re-subscribing on every event.
  const current = useRef(state);
  useEffect(() => {
    current.current = state;
  });

  const following = useRef<(() => void) | null>(null);
  const unfollow = useCallback(() => {
    following.current?.();
    following.current = null;
  }, []);
  const follow = useCallback(
    (id: string) => {
      unfollow();
      following.current = kind.host.subscribe(id, (event) => {
        setState((s) => kind.reduce(s, event));
        if (kind.isLast(event)) unfollow();
      });
    },
    [kind, unfollow],
  );
  useEffect(() => unfollow, [unfollow]);

  useEffect(() => {
    let live = true;
    kind.host.active().then(
      (jobs) => {
        const active = jobs.at(-1);
        // Events the host sent before this answer are in it; later ones follow.
        if (!live || active === undefined || current.current.phase !== 'idle') return;
        const adopted = kind.adopt(active);
        setState(adopted.state);
        follow(adopted.id);
        onAdopt(adopted.plan);
      },
      (e: unknown) => console.warn(`trebuchet: could not ask the host for a ${kind.noun} in progress:`, e),
    );
    return () => {
      live = false;
    };
  }, [kind, follow, onAdopt]);

  const sendStop = useCallback(
    (id: string) => {
      kind.host
        .stop(id)
        .catch((e: unknown) => setState((s) => ({ ...s, errors: [...s.errors, errorText(e)] })));
    },
    [kind],
  );

  const start = useCallback(
    (plan: P) => {
      setState(kind.begin(plan));
      kind.host.start(plan).then(
        (id) => {
          // Stop was pressed while the host was still starting it.
          const stopRequested = current.current.phase === 'stopping';
          setState((s) => kind.started(s, id, stopRequested));
          follow(id);
          if (stopRequested) sendStop(id);
        },
        (e: unknown) => setState((s) => ({ ...s, phase: 'done', status: 'failed', errors: [errorText(e)] })),
      );
    },
    [kind, follow, sendStop],
  );

  const stop = useCallback(() => {
    const s = current.current;
    if (s.phase !== 'starting' && s.phase !== 'running') return;
    setState((prev) => ({ ...prev, phase: 'stopping' }));
    const id = kind.idOf(s);
    if (id !== null) sendStop(id);
  }, [kind, sendStop]);

  const reset = useCallback(() => {
    unfollow();
    setState(kind.idle);
  }, [kind, unfollow]);
  return { state, start, stop, reset };
}
