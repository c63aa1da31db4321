import type { ActiveRun, RunEvent } from '../../shared/contract/api.ts';
import {
  addReading,
  chartReadings,
  chartsWithData,
  gapNotes,
  type ServerChartId,
} from '../../shared/resources/charts.ts';
import type { ResourceSample } from '../../shared/resources/resources.ts';
import { addSample, type RunResult, type RunStatus, type Sample } from '../../shared/model/result.ts';
import type { Scenario } from '../../shared/model/scenario.ts';
import type { LiveFeed } from '../live/liveSeries.ts';

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
  server: ServerLive;
}

/** The server panel's state of one target (its readings go to the charts, not here). */
export interface ServerLive {
  /** The last reading, for the panel's figures; null before the first. */
  last: ResourceSample | null;
  /** The charts that have a figure so far (a process tree has no load average). */
  charts: readonly ServerChartId[];
  /** Ticks without a reading, by reason, as the panel's note says them. */
  gaps: readonly string[];
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
export type ServerSampleListener = (targetIndex: number, sample: ResourceSample) => void;

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
  /**
   * Every server reading (target.monitor) as it arrives, for the server panel's charts; the
   * run's last one, at the last tick's seq, comes folded into that tick's (foldReadings).
   */
  onServerSample: (listener: ServerSampleListener) => () => void;
  /** The server readings of one target so far (shared array: read, never modify). */
  serverSamples: (targetIndex: number) => readonly ResourceSample[];
  /** The engine's samples and the server's readings as chart feeds (stable objects). */
  feeds: { engine: LiveFeed<Sample>; server: LiveFeed<ResourceSample> };
  /** A run is being started: clears the previous one and waits for its id. */
  begin: (scenario: Scenario) => void;
  /** The host answered with the run's id: the store follows that run's events from now on. */
  attach: (runId: string) => void;
  /** The host refused to start the run. */
  startFailed: (message: string) => void;
  /** The host refused the scenario's fields (the form says why at them): no run to show. */
  startRefused: () => void;
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

const noServer: ServerLive = { last: null, charts: [], gaps: [] };
const emptyLive = (): TargetLive => ({ last: null, errors: 0, server: noServer });

/** The panel's state after a reading was added to the target's readings. */
function serverLive(
  prev: ServerLive,
  readings: readonly ResourceSample[],
  added: ResourceSample,
): ServerLive {
  const charts = chartsWithData([added]).map((c) => c.id);
  const grown = charts.some((id) => !prev.charts.includes(id));
  return {
    last: added,
    charts: grown ? [...new Set([...prev.charts, ...charts])] : prev.charts,
    // Regrouped only when a gap came (or a replaced reading may have been one): rare, and bounded.
    gaps: added.gap !== undefined || prev.gaps.length > 0 ? gapNotes(readings) : prev.gaps,
  };
}

/** The panel's state of readings restored from a result (a host that sent none live). */
function serverLiveOf(readings: readonly ResourceSample[]): ServerLive {
  return {
    last: readings.at(-1) ?? null,
    charts: chartsWithData(readings).map((c) => c.id),
    gaps: gapNotes(readings),
  };
}

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
  let serverSamples: ResourceSample[][] = [];
  let unfollow: () => void = () => undefined;
  const listeners = new Set<() => void>();
  const sampleListeners = new Set<SampleListener>();
  const serverListeners = new Set<ServerSampleListener>();

  const set = (next: Partial<RunState>): void => {
    state = { ...state, ...next };
    for (const l of listeners) l();
  };

  const ensureTargets = (count: number): void => {
    if (count <= state.targetCount) return;
    while (samples.length < count) samples.push([]);
    while (serverSamples.length < count) serverSamples.push([]);
    set({
      targetCount: count,
      live: resized(state.live, count, emptyLive),
      results: resized(state.results, count, () => null),
    });
  };

  /** A target's series from its result when none came live. */
  const restoreSeries = (i: number, r: RunResult): void => {
    if (samples[i]!.length === 0) samples[i]!.push(...r.samples);
    const readings = chartReadings(r.serverResources?.samples ?? []);
    if (serverSamples[i]!.length === 0 && readings.length > 0) {
      serverSamples[i]!.push(...readings);
      const live = state.live.slice();
      live[i] = { ...live[i]!, server: serverLiveOf(readings) };
      set({ live });
    }
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
          ...prev,
          last: e.sample,
          errors: prev.errors - measuredErrors(replaced) + measuredErrors(e.sample),
        };
        set({ live });
        for (const l of sampleListeners) l(e.targetIndex, e.sample);
        return;
      }
      case 'server-sample': {
        ensureTargets(e.targetIndex + 1);
        const target = serverSamples[e.targetIndex]!;
        // The run's last reading comes at the last tick's seq: folded into that tick's point.
        addReading(target, e.sample);
        const reading = target.at(-1)!;
        const live = state.live.slice();
        const prev = live[e.targetIndex]!;
        live[e.targetIndex] = { ...prev, server: serverLive(prev.server, target, reading) };
        set({ live });
        for (const l of serverListeners) l(e.targetIndex, reading);
        return;
      }
      case 'target-done': {
        ensureTargets(e.targetIndex + 1);
        // A host that sends no samples (or a result restored later) still gets its timeline drawn.
        restoreSeries(e.targetIndex, e.result);
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
          restoreSeries(i, r);
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
    serverSamples = [];
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

  const feeds: RunStore['feeds'] = {
    engine: {
      all: (i) => samples[i] ?? [],
      subscribe(listener) {
        sampleListeners.add(listener);
        return () => sampleListeners.delete(listener);
      },
    },
    server: {
      all: (i) => serverSamples[i] ?? [],
      subscribe(listener) {
        serverListeners.add(listener);
        return () => serverListeners.delete(listener);
      },
    },
  };

  return {
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    onSample: feeds.engine.subscribe,
    samples: feeds.engine.all,
    onServerSample: feeds.server.subscribe,
    serverSamples: feeds.server.all,
    feeds,
    begin,
    attach,
    startFailed(message) {
      set({ phase: 'done', status: 'failed', error: message, currentTarget: null, targetStartedAt: null });
    },
    startRefused() {
      set({ ...IDLE, generation: state.generation });
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
