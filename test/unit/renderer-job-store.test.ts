import { describe, expect, it } from 'vitest';
import { JobEvents } from '../../shared/contract/client.ts';
import type { ActiveJob, JobEnvelope, JobEvent } from '../../shared/contract/jobs.ts';
import { scenarioSchema } from '../../shared/model/scenario.ts';
import type { ResourceSample } from '../../shared/model/server-resources.ts';
import type { Sample } from '../../shared/model/result.ts';
import { createJobStore } from '../../renderer/jobs/jobStore.ts';
import { RUN_VIEW } from '../../renderer/views/Run/runJob.ts';
import { shownTarget, targetStatus } from '../../renderer/views/Run/targetStatus.ts';
import { runResultFixture, sampleFixture } from '../helpers/run-result.ts';

const twoTargets = scenarioSchema.parse({
  targets: [{ url: 'http://127.0.0.1:1/' }, { url: 'http://127.0.0.1:2/' }],
});

function setup() {
  let clock = 1000;
  // The bridge's per-job subscriptions, as the preload and the WebSocket client hold them.
  const jobs = new JobEvents();
  const store = createJobStore(
    RUN_VIEW,
    (jobId, listener) => jobs.subscribe(jobId, listener),
    () => clock,
  );
  const changes: number[] = [];
  store.subscribe(() => changes.push(store.getState().generation));
  const seen: [number, number, string][] = [];
  store.feeds.engine.subscribe((i, s, change) => seen.push([i, s.seq, change]));
  const numbers = new Map<string, number>();
  /** Plays the host: the job's next event, numbered. */
  const emit = (jobId: string, event: JobEvent<'run'>): void => {
    const n = numbers.get(jobId) ?? 0;
    numbers.set(jobId, n + 1);
    jobs.deliver({ jobId, kind: 'run', n, event });
  };
  return { store, changes, seen, jobs, emit, tick: (ms: number) => (clock += ms) };
}

const sample = (part: number, over: Partial<Sample>): JobEvent<'run'> => ({
  type: 'sample',
  part,
  source: 'engine',
  sample: sampleFixture(over),
});
const partStarted = (part: number): JobEvent<'run'> => ({
  type: 'progress',
  progress: { type: 'part-started', part },
});

describe('job store (a run)', () => {
  it('follows its own job from the start reply on, and only that job', () => {
    const { store, seen, jobs, emit } = setup();
    store.begin(twoTargets);
    expect(store.getState()).toMatchObject({ phase: 'starting', jobId: null });
    expect(store.getState().results).toEqual([null, null]);
    // Nothing is followed before the host answers (it sends no event of the job before).
    expect(jobs.size).toBe(0);
    store.attach('r1');
    expect(jobs.size).toBe(1);
    emit('other', { type: 'progress', progress: { type: 'started', targetCount: 5 } });
    emit('r1', { type: 'progress', progress: { type: 'started', targetCount: 2 } });
    emit('r1', partStarted(0));
    emit('r1', sample(0, { seq: 1 }));
    emit('other', sample(0, { seq: 99 }));
    expect(store.getState()).toMatchObject({ phase: 'running', jobId: 'r1', current: 0, lastEvent: 2 });
    expect(seen).toEqual([[0, 1, 'appended']]);
    expect(store.feeds.engine.all(0).map((s) => s.seq)).toEqual([1]);
    // A new job lets go of the old one.
    store.begin(twoTargets);
    expect(jobs.size).toBe(0);
  });

  it('keeps samples out of React state and counts measured errors per part', () => {
    const { store, changes, seen, tick, emit } = setup();
    store.begin(twoTargets);
    store.attach('r1');
    emit('r1', partStarted(0));
    tick(2500);
    expect(store.getState().partStartedAt).toBe(1000);
    emit('r1', sample(0, { seq: 1, warmup: true, errors: { refused: 7 } }));
    emit('r1', sample(0, { seq: 2, errors: { refused: 3, timeout: 2 } }));
    emit('r1', sample(0, { seq: 3, errors: { reset: 1 }, totalRequests: 2000 }));
    const live = store.getState().live[0]!;
    expect(live.errors).toBe(6);
    expect(live.last?.totalRequests).toBe(2000);
    expect(store.feeds.engine.all(0)).toHaveLength(3);
    expect(seen).toEqual([
      [0, 1, 'appended'],
      [0, 2, 'appended'],
      [0, 3, 'appended'],
    ]);
    // One state change per event: begin, attach, part-started, 3 samples.
    expect(changes).toHaveLength(6);
  });

  it("replaces the last sample with the engine's folded last window, its errors counted once", () => {
    const { store, seen, emit } = setup();
    store.begin(twoTargets);
    store.attach('r1');
    emit('r1', sample(0, { seq: 1, errors: { refused: 2 } }));
    emit('r1', sample(0, { seq: 2, errors: { refused: 3 } }));
    emit('r1', sample(0, { seq: 2, final: true, errors: { refused: 4 }, totalRequests: 3000 }));
    expect(store.feeds.engine.all(0).map((s) => [s.seq, s.final === true])).toEqual([
      [1, false],
      [2, true],
    ]);
    expect(store.getState().live[0]).toMatchObject({ errors: 6, last: { totalRequests: 3000 } });
    // The charts are told the last point's place was taken.
    expect(seen).toEqual([
      [0, 1, 'appended'],
      [0, 2, 'appended'],
      [0, 2, 'replaced'],
    ]);
  });

  it("ends a stopped job with status cancelled and the partial result, its samples joined back from the part's series", () => {
    const { store, emit, jobs } = setup();
    store.begin(twoTargets);
    store.attach('r1');
    emit('r1', { type: 'progress', progress: { type: 'started', targetCount: 2 } });
    emit('r1', partStarted(0));
    emit('r1', sample(0, { seq: 4 }));
    store.requestStop();
    expect(store.getState()).toMatchObject({ phase: 'stopping', stopRequested: true });
    // As it travels: no samples (they went live, once).
    const partial = runResultFixture({ runId: 'r1', status: 'cancelled', samples: [] });
    emit('r1', { type: 'result', part: 0, result: partial });
    emit('r1', { type: 'done', status: 'cancelled', historyId: 'h-1' });
    const s = store.getState();
    expect(s).toMatchObject({ phase: 'done', status: 'cancelled', current: null });
    expect(s.saved).toEqual({ historyId: 'h-1', error: null });
    expect(s.results[0]!.samples.map((x) => x.seq)).toEqual([4]);
    expect(s.results[0]).toEqual({ ...partial, samples: store.feeds.engine.all(0) });
    expect(s.results[1]).toBeNull();
    expect(targetStatus(s, 0)).toBe('cancelled');
    expect(targetStatus(s, 1)).toBe('skipped');
    expect(shownTarget(s, null)).toBe(0);
    // Over: the job is no longer followed.
    expect(jobs.size).toBe(0);
    emit('r1', sample(0, { seq: 9 }));
    expect(store.feeds.engine.all(0)).toHaveLength(1);
  });

  it('reports a refused start and a host error', () => {
    const { store, emit } = setup();
    store.begin(twoTargets);
    store.startFailed('jobs.start input is invalid: plan.targets.0.url: URL is not valid');
    expect(store.getState()).toMatchObject({ phase: 'done', status: 'failed' });
    expect(store.getState().errors).toEqual([
      { part: null, message: 'jobs.start input is invalid: plan.targets.0.url: URL is not valid' },
    ]);

    store.begin(twoTargets);
    expect(store.getState()).toMatchObject({ phase: 'starting', errors: [], generation: 2 });
    store.attach('r2');
    emit('r2', { type: 'error', part: 0, message: 'engine worker exited' });
    emit('r2', { type: 'done', status: 'failed' });
    expect(store.getState()).toMatchObject({
      phase: 'done',
      status: 'failed',
      errors: [{ part: 0, message: 'engine worker exited' }],
    });
  });

  it('follows the running target unless one is picked', () => {
    const { store, emit } = setup();
    store.begin(twoTargets);
    store.attach('r1');
    emit('r1', partStarted(0));
    emit('r1', { type: 'result', part: 0, result: runResultFixture({ samples: [] }) });
    emit('r1', partStarted(1));
    const s = store.getState();
    expect(shownTarget(s, null)).toBe(1);
    expect(shownTarget(s, 0)).toBe(0);
    expect(targetStatus(s, 0)).toBe('completed');
    expect(targetStatus(s, 1)).toBe('running');
  });

  it('draws the run’s last server reading, at the last tick’s seq, into that tick’s point', () => {
    const { store, emit } = setup();
    const drawn: [number, number | undefined, string][] = [];
    store.feeds.server.subscribe((_, r, change) => drawn.push([r.seq, r.cpuPercent, change]));
    store.begin(twoTargets);
    store.attach('r1');
    emit('r1', partStarted(0));
    const server = (seq: number, over: Partial<ResourceSample>): JobEvent<'run'> => ({
      type: 'sample',
      part: 0,
      source: 'server',
      sample: { seq, elapsedSeconds: seq, intervalSeconds: 1, warmup: false, ...over },
    });
    emit('r1', server(1, { cpuPercent: 40 }));
    emit('r1', server(2, { cpuPercent: 60 }));
    emit('r1', server(2, { elapsedSeconds: 2.5, intervalSeconds: 0.5, cpuPercent: 0 }));
    expect(store.feeds.server.all(0).map((r) => [r.seq, r.cpuPercent])).toEqual([
      [1, 40],
      [2, 40],
    ]);
    // The listeners (the charts) get the folded point, which replaces the tick's.
    expect(drawn).toEqual([
      [1, 40, 'appended'],
      [2, 60, 'appended'],
      [2, 40, 'replaced'],
    ]);
    expect(store.getState().live[0]!.server.last?.cpuPercent).toBe(40);
  });

  it('takes up a job in progress after a reload, only while idle, applies each event once and follows it from there', () => {
    const { store, seen, tick, jobs } = setup();
    const envelope = (n: number, event: JobEvent<'run'>): JobEnvelope<'run'> => ({
      jobId: 'r7',
      kind: 'run',
      n,
      event,
    });
    const active: ActiveJob<'run'> = {
      jobId: 'r7',
      kind: 'run',
      plan: twoTargets,
      events: [
        envelope(0, { type: 'progress', progress: { type: 'started', targetCount: 2 } }),
        envelope(1, partStarted(0)),
        envelope(2, sample(0, { seq: 1 })),
        envelope(3, { type: 'result', part: 0, result: runResultFixture({ samples: [] }) }),
        envelope(4, partStarted(1)),
        envelope(5, sample(1, { seq: 1, totalRequests: 500 })),
        envelope(6, sample(1, { seq: 2, totalRequests: 900 })),
      ],
      partElapsedSeconds: 2.5,
    };
    // Before the answer came, the job's live events reached no one (they are in the answer).
    jobs.deliver(active.events[6]!);
    expect(store.feeds.engine.all(1)).toEqual([]);
    tick(9000);
    expect(store.adopt(active)).toBe(true);
    expect(store.getState()).toMatchObject({
      phase: 'running',
      jobId: 'r7',
      current: 1,
      lastEvent: 6,
      // The host's 2.5 s before the clock's 10 000 ms now.
      partStartedAt: 7500,
    });
    // The finished target's samples came in the replay and are joined to its result.
    expect(store.getState().results[0]!.samples.map((s) => s.seq)).toEqual([1]);
    expect(store.feeds.engine.all(1).map((x) => x.seq)).toEqual([1, 2]);
    expect(store.getState().live[1]!.last?.totalRequests).toBe(900);
    // An event sent both in the answer and live is applied once; a new one goes on.
    jobs.deliver(active.events[6]!);
    jobs.deliver(envelope(7, sample(1, { seq: 3 })));
    expect(store.feeds.engine.all(1).map((x) => x.seq)).toEqual([1, 2, 3]);
    expect(seen.at(-1)).toEqual([1, 3, 'appended']);
    // Only an idle store takes a job up: not twice, not over a job of its own.
    expect(store.adopt({ ...active, jobId: 'r8' })).toBe(false);
    expect(store.getState().jobId).toBe('r7');
  });
});
