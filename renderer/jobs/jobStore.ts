import {
  partStarted,
  withSamples,
  type ActiveJob,
  type JobEnvelope,
  type JobEvent,
  type JobKind,
  type PartResultOf,
  type PlanOf,
  type ProgressOf,
} from '../../shared/contract/jobs.ts';
import { SampleSeries, type SeriesChange } from '../../shared/figures/sample-series.ts';
import type { RunStatus, Sample } from '../../shared/model/result.ts';
import { foldReadings } from '../../shared/resources/charts.ts';
import type { ResourceSample } from '../../shared/model/server-resources.ts';
import type { MachineSample } from '../../shared/model/machine-facts.ts';
import { foldMachineReadings } from '../../shared/machine/summary.ts';
import type { JobFeeds, LiveFeed } from './liveSeries.ts';
import { emptyLive, liveAfterSample, serverAfterReading, type PartLive } from './partLive.ts';

export type JobPhase = 'idle' | 'starting' | 'running' | 'stopping' | 'done';

/** From Start until the end: starting, running or stopping. */
export function isBusy(phase: JobPhase): boolean {
  return phase === 'starting' || phase === 'running' || phase === 'stopping';
}

/**
 * How one kind's tab reads its job: its own slice of state, reduced from the kind's progress
 * events. Everything else (phase, parts, samples, results, errors, the save) the store keeps
 * alike for every kind. Keep it a module constant: hooks depend on it.
 */
export interface JobView<K extends JobKind, V> {
  kind: K;
  idle: V;
  /** The slice of a job about to start. */
  begin(plan: PlanOf<K>): V;
  progress(view: V, progress: ProgressOf<K>): V;
  /** Parts known from the plan (a run's targets, a matrix's cells); 0 when they come as it goes. */
  parts(plan: PlanOf<K>): number;
}

export interface JobError {
  /** The part it concerns; null: the job as a whole (a refused start, a failed stop, a breakdown). */
  part: number | null;
  message: string;
}

/** One job of a kind as a tab follows it. A new object on every change, at most one per event. */
export interface JobState<K extends JobKind, V> {
  phase: JobPhase;
  jobId: string | null;
  plan: PlanOf<K> | null;
  /** The kind's own slice (JobView). */
  view: V;
  /** Bumped by every begin(): views that draw samples start over when it changes. */
  generation: number;
  /** The number (n) of the last event applied; -1 before the first. */
  lastEvent: number;
  /** The part whose load began last; null before the first and after the end. */
  current: number | null;
  /** Clock reading (ms) when the current part began its load. */
  partStartedAt: number | null;
  /** Per part: its last sample, errors and server (samples themselves are in the feeds). */
  live: PartLive[];
  /** Per part: its result, samples joined back from its series; null until it ends. */
  results: (PartResultOf<K> | null)[];
  status: RunStatus | null;
  errors: JobError[];
  /** Stop was pressed (maybe before the host had answered with the job's id). */
  stopRequested: boolean;
  /** Where the host saved the finished job in history (or why it could not); null before the end. */
  saved: { historyId: string | null; error: string | null } | null;
}

/** Subscribes to one job's events (the bridge's onJobEvent); returns the unsubscribe function. */
export type FollowJob = (jobId: string, listener: (envelope: JobEnvelope) => void) => () => void;

export interface JobStore<K extends JobKind, V> {
  getState: () => JobState<K, V>;
  /** For useSyncExternalStore: called after every state change. */
  subscribe: (listener: () => void) => () => void;
  /** Each part's engine samples, server and machine readings, as chart feeds (stable objects). */
  feeds: JobFeeds;
  /** A job is being started: clears the previous one and waits for its id. */
  begin: (plan: PlanOf<K>) => void;
  /** The host answered with the job's id: the store follows its events from now on. */
  attach: (jobId: string) => void;
  /** The host refused to start the job. */
  startFailed: (message: string) => void;
  /** Stop was pressed. */
  requestStop: () => void;
  /** Something the page tried for the job failed (the stop). */
  addError: (message: string) => void;
  /**
   * Takes up a job this page started before it was reloaded (the host's jobs.active): its
   * events so far are applied and later ones as they come. Only while idle; true when taken up.
   */
  adopt: (active: ActiveJob<K>) => boolean;
  /** Back to idle (the tab shows its editor's empty state). */
  reset: () => void;
  /** Stops following the job (the page goes away). */
  close: () => void;
}

const listenersOf = <L>() => new Set<L>();

/**
 * The one store of a tab's job, whatever its kind, fed by that job's own event subscription
 * (follow), taken when the host answers with its id: the host sends no event of a job before
 * that answer. Each part's samples go to its SampleSeries and to the charts' listeners (not
 * React state); a part's result gets its samples back from that series. React state changes
 * once per event, so at a 1 s tick the tab re-renders once a second whatever the request rate.
 */
export function createJobStore<K extends JobKind, V>(
  kind: JobView<K, V>,
  follow: FollowJob,
  now: () => number = () => performance.now(),
): JobStore<K, V> {
  const idle: JobState<K, V> = {
    phase: 'idle',
    jobId: null,
    plan: null,
    view: kind.idle,
    generation: 0,
    lastEvent: -1,
    current: null,
    partStartedAt: null,
    live: [],
    results: [],
    status: null,
    errors: [],
    stopRequested: false,
    saved: null,
  };
  let state = idle;
  let engine: SampleSeries<Sample>[] = [];
  // The server's last reading comes at the last tick's seq: folded into that tick's point.
  let server: SampleSeries<ResourceSample>[] = [];
  // The machine's too: its last reading is folded into the last tick's point.
  let machine: SampleSeries<MachineSample>[] = [];
  let unfollow: () => void = () => undefined;
  const listeners = listenersOf<() => void>();
  const engineListeners = listenersOf<(part: number, s: Sample, change: SeriesChange) => void>();
  const serverListeners = listenersOf<(part: number, r: ResourceSample, change: SeriesChange) => void>();
  const machineListeners = listenersOf<(part: number, r: MachineSample, change: SeriesChange) => void>();

  const set = (next: Partial<JobState<K, V>>): void => {
    state = { ...state, ...next };
    for (const l of listeners) l();
  };

  /** The state's per-part lists grown to `count` parts (the same lists when long enough). */
  const withParts = (count: number): Pick<JobState<K, V>, 'live' | 'results'> => {
    while (engine.length < count) engine.push(new SampleSeries());
    while (server.length < count) server.push(new SampleSeries({ sameTick: foldReadings }));
    while (machine.length < count) machine.push(new SampleSeries({ sameTick: foldMachineReadings }));
    if (state.live.length >= count) return { live: state.live, results: state.results };
    const live = state.live.slice();
    const results = state.results.slice();
    while (live.length < count) live.push(emptyLive());
    while (results.length < count) results.push(null);
    return { live, results };
  };

  const withLive = (part: number, update: (prev: PartLive) => PartLive): PartLive[] => {
    const { live } = withParts(part + 1);
    const next = live.slice();
    next[part] = update(next[part]!);
    return next;
  };

  const apply = (e: JobEvent<K>, n: number): void => {
    switch (e.type) {
      case 'progress': {
        const part = partStarted(e.progress);
        const view = kind.progress(state.view, e.progress);
        if (part === null) return set({ view, lastEvent: n });
        return set({ view, lastEvent: n, ...withParts(part + 1), current: part, partStartedAt: now() });
      }
      case 'sample': {
        const part = e.part;
        withParts(part + 1);
        if (e.source === 'engine') {
          const series = engine[part]!;
          const before = series.last ?? null;
          const change = series.add(e.sample);
          const replaced = change === 'replaced' ? before : null;
          set({ lastEvent: n, live: withLive(part, (p) => liveAfterSample(p, e.sample, replaced)) });
          for (const l of engineListeners) l(part, e.sample, change);
          return;
        }
        if (e.source === 'machine') {
          const series = machine[part]!;
          const change = series.add(e.sample);
          const reading = series.last!;
          set({ lastEvent: n, live: withLive(part, (p) => ({ ...p, machine: reading })) });
          for (const l of machineListeners) l(part, reading, change);
          return;
        }
        const series = server[part]!;
        const change = series.add(e.sample);
        const reading = series.last!;
        set({
          lastEvent: n,
          live: withLive(part, (p) => ({
            ...p,
            server: serverAfterReading(p.server, series.items, reading),
          })),
        });
        for (const l of serverListeners) l(part, reading, change);
        return;
      }
      case 'result': {
        const { live, results } = withParts(e.part + 1);
        const next = results.slice();
        // The samples went live, each once: the result gets them back from the part's series.
        next[e.part] = withSamples(kind.kind, e.result, engine[e.part]!.items);
        return set({ lastEvent: n, live, results: next });
      }
      case 'error':
        return set({ lastEvent: n, errors: [...state.errors, { part: e.part, message: e.message }] });
      case 'done':
        return set({
          lastEvent: n,
          phase: 'done',
          status: e.status,
          current: null,
          partStartedAt: null,
          saved: { historyId: e.historyId ?? null, error: e.historyError ?? null },
        });
    }
  };

  const stopFollowing = (): void => {
    unfollow();
    unfollow = () => undefined;
  };

  /** An event of the followed job, applied once (n); once it is over the rest is not needed. */
  const receive = (envelope: JobEnvelope): void => {
    if (!isBusy(state.phase) || envelope.jobId !== state.jobId || envelope.n <= state.lastEvent) return;
    apply(envelope.event as JobEvent<K>, envelope.n);
    if (!isBusy(state.phase)) stopFollowing();
  };

  const begin = (plan: PlanOf<K>): void => {
    stopFollowing();
    engine = [];
    server = [];
    machine = [];
    state = { ...idle, generation: state.generation };
    set({
      phase: 'starting',
      plan,
      view: kind.begin(plan),
      generation: state.generation + 1,
      ...withParts(kind.parts(plan)),
    });
  };

  const attach = (jobId: string): void => {
    if (state.phase !== 'starting' && state.phase !== 'stopping') return;
    if (state.jobId !== null) return;
    set({ jobId, phase: state.phase === 'starting' ? 'running' : state.phase });
    unfollow = follow(jobId, receive);
  };

  const feed = <S extends { seq: number }>(
    all: () => SampleSeries<S>[],
    subscribers: Set<(part: number, s: S, change: SeriesChange) => void>,
  ): LiveFeed<S> => ({
    all: (part) => all()[part]?.items ?? [],
    subscribe(listener) {
      subscribers.add(listener);
      return () => subscribers.delete(listener);
    },
  });

  return {
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    feeds: {
      engine: feed(() => engine, engineListeners),
      server: feed(() => server, serverListeners),
      machine: feed(() => machine, machineListeners),
    },
    begin,
    attach,
    startFailed(message) {
      set({
        phase: 'done',
        status: 'failed',
        errors: [...state.errors, { part: null, message }],
        current: null,
        partStartedAt: null,
      });
    },
    requestStop() {
      if (state.phase === 'starting' || state.phase === 'running')
        set({ phase: 'stopping', stopRequested: true });
    },
    addError(message) {
      set({ errors: [...state.errors, { part: null, message }] });
    },
    adopt(active) {
      if (state.phase !== 'idle') return false;
      begin(active.plan);
      attach(active.jobId);
      for (const envelope of active.events) receive(envelope);
      // The part's clock goes on from where the host says it is, not from the reload.
      if (state.current !== null && active.partElapsedSeconds !== null) {
        set({ partStartedAt: now() - active.partElapsedSeconds * 1000 });
      }
      return true;
    },
    reset() {
      stopFollowing();
      engine = [];
      server = [];
      machine = [];
      state = { ...idle, generation: state.generation };
      set({});
    },
    close: stopFollowing,
  };
}
