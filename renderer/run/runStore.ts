import type { ActiveRun, RunEvent } from '../../shared/api.ts';
import { addSample, type RunResult, type RunStatus, type Sample } from '../../shared/result.ts';
import type { Scenario } from '../../shared/scenario.ts';

export type RunPhase = 'idle' | 'starting' | 'running' | 'stopping' | 'done';

/** From Run until the end: starting, running or stopping (a comparison goes through the same phases). */
export function isBusy(phase: RunPhase): boolean {
  return phase === 'starting' || phase === 'running' || phase === 'stopping';
}

/** What the counters show for one target; changes once per sample. */
export interface TargetLive {
  last: Sample | null;
  /** Transport errors and SLO misses since measuring began (warm-up excluded). */
  errors: number;
}

/** The live run as React sees it. A new object on every change, at most one per event. */
export interface RunState {
  phase: RunPhase;
  runId: string | null;
  scenario: Scenario | null;
  /** Bumped by every begin(): views that draw samples start over when it changes. */
  generation: number;
  targetCount: number;
  /** The target being measured now; null before the first starts and after the last ends. */
  currentTarget: number | null;
  /** Clock reading (ms) when the current target started. */
  targetStartedAt: number | null;
  live: TargetLive[];
  results: (RunResult | null)[];
  status: RunStatus | null;
  /** Why the run could not start or broke down as a whole. */
  error: string | null;
  /** Stop was pressed before the host had answered with a run id. */
  stopRequested: boolean;
  /** Where the host saved the finished run in history (or why it could not); null before the end. */
  saved: { historyId: string | null; error: string | null } | null;
}

export type SampleListener = (targetIndex: number, sample: Sample) => void;

/** Subscribes to one run's events (the bridge's onRunEvent); returns the unsubscribe function. */
export type FollowRun = (runId: string, listener: (event: RunEvent) => void) => () => void;

export interface RunStore {
  getState: () => RunState;
  /** For useSyncExternalStore: called after every state change. */
  subscribe: (listener: () => void) => () => void;
  /** Every sample as it arrives, for charts that append through a ref. */
  onSample: (listener: SampleListener) => () => void;
  /** The samples of one target so far (shared array: read, never modify). */
  samples: (targetIndex: number) => readonly Sample[];
  /** A run is being started: clears the previous one and waits for its id. */
  begin: (scenario: Scenario) => void;
  /** The host answered with the run's id: the store follows that run's events from now on. */
  attach: (runId: string) => void;
  /** The host refused to start the run. */
  startFailed: (message: string) => void;
  /** Stop was pressed. */
  requestStop: () => void;
  /**
   * Takes up a run this page started before it was reloaded (the host's run.active): its
   * events so far are replayed and later ones apply as they come. Only while idle; true when
   * taken up.
   */
  adopt: (run: ActiveRun) => boolean;
  /** Stops following the run (the page goes away). */
  close: () => void;
}

const IDLE: RunState = {
  phase: 'idle',
  runId: null,
  scenario: null,
  generation: 0,
  targetCount: 0,
  currentTarget: null,
  targetStartedAt: null,
  live: [],
  results: [],
  status: null,
  error: null,
  stopRequested: false,
  saved: null,
};

/** Transport errors and SLO misses of a measured (not warm-up) window. */
function measuredErrors(s: Sample | null): number {
  if (s === null || s.warmup) return 0;
  let n = 0;
  for (const v of Object.values(s.errors)) n += v ?? 0;
  return n;
}

function resized<T>(list: readonly T[], length: number, fill: () => T): T[] {
  const out = list.slice(0, length);
  while (out.length < length) out.push(fill());
  return out;
}

const emptyLive = (): TargetLive => ({ last: null, errors: 0 });

/**
 * The one store of the live run, fed by that run's own event subscription (follow), taken
 * when the host answers with its id: the host sends no event of a run before that answer.
 * Samples go to chart listeners and a per-target array (not React state); React state
 * changes once per event, so at a 1 s tick the UI re-renders once a second whatever the
 * request rate.
 */
export function createRunStore(follow: FollowRun, now: () => number = () => performance.now()): RunStore {
  let state: RunState = IDLE;
  let samples: Sample[][] = [];
  let unfollow: () => void = () => undefined;
  const listeners = new Set<() => void>();
  const sampleListeners = new Set<SampleListener>();

  const set = (next: Partial<RunState>): void => {
    state = { ...state, ...next };
    for (const l of listeners) l();
  };

  const ensureTargets = (count: number): void => {
    if (count <= state.targetCount) return;
    while (samples.length < count) samples.push([]);
    set({
      targetCount: count,
      live: resized(state.live, count, emptyLive),
      results: resized(state.results, count, () => null),
    });
  };

  const apply = (e: RunEvent): void => {
    switch (e.type) {
      case 'started':
        ensureTargets(e.targetCount);
        if (state.phase === 'starting') set({ phase: 'running' });
        return;
      case 'target-started':
        ensureTargets(e.targetIndex + 1);
        set({ currentTarget: e.targetIndex, targetStartedAt: now() });
        return;
      case 'sample': {
        ensureTargets(e.targetIndex + 1);
        const target = samples[e.targetIndex]!;
        // A sample that replaces the last one (the engine's final fold) holds that one's errors too.
        const replaced = target.at(-1)?.seq === e.sample.seq ? target.at(-1)! : null;
        addSample(target, e.sample);
        const prev = state.live[e.targetIndex]!;
        const live = state.live.slice();
        live[e.targetIndex] = {
          last: e.sample,
          errors: prev.errors - measuredErrors(replaced) + measuredErrors(e.sample),
        };
        set({ live });
        for (const l of sampleListeners) l(e.targetIndex, e.sample);
        return;
      }
      case 'target-done': {
        ensureTargets(e.targetIndex + 1);
        // A host that sends no samples (or a result restored later) still gets its timeline drawn.
        if (samples[e.targetIndex]!.length === 0) samples[e.targetIndex]!.push(...e.result.samples);
        const results = state.results.slice();
        results[e.targetIndex] = e.result;
        set({ results });
        return;
      }
      case 'done': {
        ensureTargets(e.results.length);
        const results = state.results.slice();
        e.results.forEach((r, i) => {
          results[i] ??= r;
          if (samples[i]!.length === 0) samples[i]!.push(...r.samples);
        });
        set({
          phase: 'done',
          status: e.status,
          results,
          currentTarget: null,
          targetStartedAt: null,
          saved: { historyId: e.historyId ?? null, error: e.historyError ?? null },
        });
        return;
      }
      case 'error':
        set({
          phase: 'done',
          status: 'failed',
          error: e.message,
          currentTarget: null,
          targetStartedAt: null,
        });
        return;
      case 'server-sample':
        // The server panel (issue 11) is not drawn yet; the target's result carries the series.
        return;
      default: {
        const unknown: never = e;
        void unknown;
      }
    }
  };

  const stopFollowing = (): void => {
    unfollow();
    unfollow = () => undefined;
  };

  /** An event of the followed run; once it is over (done, or a host error) the rest is not needed. */
  const receive = (e: RunEvent): void => {
    if (!isBusy(state.phase)) return;
    apply(e);
    if (!isBusy(state.phase)) stopFollowing();
  };

  const begin = (scenario: Scenario): void => {
    stopFollowing();
    samples = [];
    state = { ...IDLE, generation: state.generation };
    set({ phase: 'starting', scenario, generation: state.generation + 1 });
    ensureTargets(scenario.targets.length);
  };

  const attach = (runId: string): void => {
    if (state.phase !== 'starting' && state.phase !== 'stopping') return;
    if (state.runId !== null) return;
    set({ runId, phase: state.phase === 'starting' ? 'running' : state.phase });
    unfollow = follow(runId, receive);
  };

  return {
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    onSample(listener) {
      sampleListeners.add(listener);
      return () => sampleListeners.delete(listener);
    },
    samples: (i) => samples[i] ?? [],
    begin,
    attach,
    startFailed(message) {
      set({ phase: 'done', status: 'failed', error: message, currentTarget: null, targetStartedAt: null });
    },
    requestStop() {
      if (state.phase === 'starting' || state.phase === 'running') {
        set({ phase: 'stopping', stopRequested: true });
      }
    },
    adopt(run) {
      if (state.phase !== 'idle') return false;
      begin(run.scenario);
      attach(run.runId);
      for (const e of run.events) receive(e);
      // The target's clock goes on from where the host says it is, not from the reload.
      if (state.currentTarget !== null && run.targetElapsedSeconds !== null) {
        set({ targetStartedAt: now() - run.targetElapsedSeconds * 1000 });
      }
      return true;
    },
    close: stopFollowing,
  };
}
