import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../shared/contract/api.ts';
import { scenarioSchema } from '../../shared/model/scenario.ts';
import type { ResourceSample } from '../../shared/resources/resources.ts';
import type { Sample } from '../../shared/model/result.ts';
import { JobEvents } from '../../shared/contract/client.ts';
import { createRunStore } from '../../renderer/run/runStore.ts';
import { shownTarget, targetStatus } from '../../renderer/run/targetStatus.ts';
import { runResultFixture, sampleFixture } from '../helpers/run-result.ts';

const twoTargets = scenarioSchema.parse({
  targets: [{ url: 'http://127.0.0.1:1/' }, { url: 'http://127.0.0.1:2/' }],
});

function setup() {
  let clock = 1000;
  // The bridge's per-run subscriptions, as the preload and the WebSocket client hold them.
  const runs = new JobEvents<RunEvent>((e) => e.runId, 'run');
  const store = createRunStore(
    (runId, listener) => runs.subscribe(runId, listener),
    () => clock,
  );
  const changes: number[] = [];
  store.subscribe(() => changes.push(store.getState().generation));
  const seen: [number, number][] = [];
  store.onSample((i, s) => seen.push([i, s.seq]));
  return {
    store,
    changes,
    seen,
    runs,
    emit: (e: RunEvent) => runs.deliver(e),
    tick: (ms: number) => (clock += ms),
  };
}

const sample = (runId: string, targetIndex: number, over: Partial<Sample>): RunEvent => ({
  type: 'sample',
  runId,
  targetIndex,
  sample: sampleFixture(over),
});

describe('run store', () => {
  it('follows its own run from the start reply on, and only that run', () => {
    const { store, seen, runs, emit } = setup();
    store.begin(twoTargets);
    expect(store.getState()).toMatchObject({ phase: 'starting', targetCount: 2, runId: null });
    // Nothing is followed before the host answers (it sends no event of the run before).
    expect(runs.size).toBe(0);
    store.attach('r1');
    expect(runs.size).toBe(1);
    emit({ type: 'started', runId: 'other', targetCount: 5 });
    emit({ type: 'started', runId: 'r1', targetCount: 2 });
    emit({ type: 'target-started', runId: 'r1', targetIndex: 0 });
    emit(sample('r1', 0, { seq: 1 }));
    emit(sample('other', 0, { seq: 99 }));
    expect(store.getState()).toMatchObject({
      phase: 'running',
      runId: 'r1',
      targetCount: 2,
      currentTarget: 0,
    });
    expect(seen).toEqual([[0, 1]]);
    expect(store.samples(0).map((s) => s.seq)).toEqual([1]);
    // A new run lets go of the old one.
    store.begin(twoTargets);
    expect(runs.size).toBe(0);
  });

  it('keeps samples out of React state and counts measured errors per target', () => {
    const { store, changes, seen, tick, emit } = setup();
    store.begin(twoTargets);
    store.attach('r1');
    emit({ type: 'target-started', runId: 'r1', targetIndex: 0 });
    tick(2500);
    expect(store.getState().targetStartedAt).toBe(1000);
    emit(sample('r1', 0, { seq: 1, warmup: true, errors: { refused: 7 } }));
    emit(sample('r1', 0, { seq: 2, errors: { refused: 3, timeout: 2 } }));
    emit(sample('r1', 0, { seq: 3, errors: { reset: 1 }, totalRequests: 2000 }));
    const live = store.getState().live[0]!;
    expect(live.errors).toBe(6);
    expect(live.last?.totalRequests).toBe(2000);
    expect(store.samples(0)).toHaveLength(3);
    expect(seen).toEqual([
      [0, 1],
      [0, 2],
      [0, 3],
    ]);
    // One state change per event: begin (2: reset, then sized for 2 targets), attach, target-started, 3 samples.
    expect(changes).toHaveLength(7);
  });

  it("replaces the last sample with the engine's folded last window, its errors counted once", () => {
    const { store, seen, emit } = setup();
    store.begin(twoTargets);
    store.attach('r1');
    emit(sample('r1', 0, { seq: 1, errors: { refused: 2 } }));
    emit(sample('r1', 0, { seq: 2, errors: { refused: 3 } }));
    emit(sample('r1', 0, { seq: 2, final: true, errors: { refused: 4 }, totalRequests: 3000 }));
    expect(store.samples(0).map((s) => [s.seq, s.final === true])).toEqual([
      [1, false],
      [2, true],
    ]);
    expect(store.getState().live[0]).toMatchObject({ errors: 6, last: { totalRequests: 3000 } });
    expect(seen).toEqual([
      [0, 1],
      [0, 2],
      [0, 2],
    ]);
  });

  it('ends a stopped run with status cancelled and the partial result', () => {
    const { store, emit, runs } = setup();
    store.begin(twoTargets);
    store.attach('r1');
    emit({ type: 'started', runId: 'r1', targetCount: 2 });
    emit({ type: 'target-started', runId: 'r1', targetIndex: 0 });
    store.requestStop();
    expect(store.getState()).toMatchObject({ phase: 'stopping', stopRequested: true });
    const partial = runResultFixture({
      runId: 'r1',
      status: 'cancelled',
      samples: [sampleFixture({ seq: 4 })],
    });
    emit({ type: 'target-done', runId: 'r1', targetIndex: 0, result: partial });
    emit({ type: 'done', runId: 'r1', status: 'cancelled', results: [partial] });
    const s = store.getState();
    expect(s).toMatchObject({ phase: 'done', status: 'cancelled', currentTarget: null });
    expect(s.results).toEqual([partial, null]);
    // No sample event came: the timeline is drawn from the result's samples.
    expect(store.samples(0).map((x) => x.seq)).toEqual([4]);
    expect(targetStatus(s, 0)).toBe('cancelled');
    expect(targetStatus(s, 1)).toBe('skipped');
    expect(shownTarget(s, null)).toBe(0);
    // Over: the run is no longer followed.
    expect(runs.size).toBe(0);
    emit(sample('r1', 0, { seq: 9 }));
    expect(store.samples(0)).toHaveLength(1);
  });

  it('reports a refused start and a host error', () => {
    const { store, emit } = setup();
    store.begin(twoTargets);
    store.startFailed('run.start input is invalid: scenario.targets.0.url: URL is not valid');
    expect(store.getState()).toMatchObject({ phase: 'done', status: 'failed' });
    expect(store.getState().error).toContain('targets.0.url');

    store.begin(twoTargets);
    expect(store.getState()).toMatchObject({ phase: 'starting', error: null, generation: 2 });
    store.attach('r2');
    emit({ type: 'error', runId: 'r2', message: 'engine worker exited' });
    expect(store.getState()).toMatchObject({
      phase: 'done',
      status: 'failed',
      error: 'engine worker exited',
    });
  });

  it('follows the running target unless one is picked', () => {
    const { store, emit } = setup();
    store.begin(twoTargets);
    store.attach('r1');
    emit({ type: 'target-started', runId: 'r1', targetIndex: 0 });
    emit({ type: 'target-done', runId: 'r1', targetIndex: 0, result: runResultFixture() });
    emit({ type: 'target-started', runId: 'r1', targetIndex: 1 });
    const s = store.getState();
    expect(shownTarget(s, null)).toBe(1);
    expect(shownTarget(s, 0)).toBe(0);
    expect(targetStatus(s, 0)).toBe('completed');
    expect(targetStatus(s, 1)).toBe('running');
  });

  it('draws the run’s last server reading, at the last tick’s seq, into that tick’s point', () => {
    const { store, emit } = setup();
    const drawn: [number, number | undefined][] = [];
    store.onServerSample((_, r) => drawn.push([r.seq, r.cpuPercent]));
    store.begin(twoTargets);
    store.attach('r1');
    emit({ type: 'target-started', runId: 'r1', targetIndex: 0 });
    const server = (seq: number, over: Partial<ResourceSample>): RunEvent => ({
      type: 'server-sample',
      runId: 'r1',
      targetIndex: 0,
      sample: { seq, elapsedSeconds: seq, intervalSeconds: 1, warmup: false, ...over },
    });
    emit(server(1, { cpuPercent: 40 }));
    emit(server(2, { cpuPercent: 60 }));
    emit(server(2, { elapsedSeconds: 2.5, intervalSeconds: 0.5, cpuPercent: 0 }));
    expect(store.serverSamples(0).map((r) => [r.seq, r.cpuPercent])).toEqual([
      [1, 40],
      [2, 40],
    ]);
    // The listeners (the charts) get the folded point, which replaces the tick's.
    expect(drawn).toEqual([
      [1, 40],
      [2, 60],
      [2, 40],
    ]);
    expect(store.getState().live[0]!.server?.last?.cpuPercent).toBe(40);
  });

  it('takes up a run in progress after a reload, only while idle, and follows it from there', () => {
    const { store, seen, tick, emit } = setup();
    const active = {
      runId: 'r7',
      scenario: twoTargets,
      events: [
        { type: 'started', runId: 'r7', targetCount: 2 },
        { type: 'target-started', runId: 'r7', targetIndex: 0 },
        { type: 'target-done', runId: 'r7', targetIndex: 0, result: runResultFixture({ samples: [] }) },
        { type: 'target-started', runId: 'r7', targetIndex: 1 },
        sample('r7', 1, { seq: 1, totalRequests: 500 }),
        sample('r7', 1, { seq: 2, totalRequests: 900 }),
      ] satisfies RunEvent[],
      targetElapsedSeconds: 2.5,
    };
    // Before the answer came, the run's live events reached no one (they are in the answer).
    emit(sample('r7', 1, { seq: 2 }));
    expect(store.samples(1)).toEqual([]);
    tick(9000);
    expect(store.adopt(active)).toBe(true);
    expect(store.getState()).toMatchObject({
      phase: 'running',
      runId: 'r7',
      currentTarget: 1,
      // The host's 2.5 s before the clock's 10 000 ms now.
      targetStartedAt: 7500,
    });
    expect(store.getState().results[0]).not.toBeNull();
    expect(store.samples(1).map((x) => x.seq)).toEqual([1, 2]);
    expect(store.getState().live[1]!.last?.totalRequests).toBe(900);
    emit(sample('r7', 1, { seq: 3 }));
    expect(seen.at(-1)).toEqual([1, 3]);
    // Only an idle store takes a run up: not twice, not over a run of its own.
    expect(store.adopt({ ...active, runId: 'r8' })).toBe(false);
    expect(store.getState().runId).toBe('r7');
  });
});
