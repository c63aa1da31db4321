// @vitest-environment jsdom
import { act, cleanup, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { capacityPlanSchema } from '../../shared/capacity/plan.ts';
import { comparisonPlanSchema } from '../../shared/comparison/plan.ts';
import { createTrebuchetApi, JobEvents, type SendCommand } from '../../shared/contract/client.ts';
import type {
  ActiveJob,
  JobEnvelope,
  JobEvent,
  JobKind,
  JobStart,
  PartResultOf,
  PlanOf,
} from '../../shared/contract/jobs.ts';
import { scenarioSchema } from '../../shared/model/scenario.ts';
import type { JobView } from '../../renderer/jobs/jobStore.ts';
import { useJob } from '../../renderer/jobs/useJob.ts';
import { RUN_VIEW } from '../../renderer/views/Run/runJob.ts';
import { capacityRun, CAPACITY_VIEW } from '../../renderer/views/Capacity/capacityRun.ts';
import { comparisonRun, COMPARISON_VIEW } from '../../renderer/views/Compare/comparisonRun.ts';
import { stepResult } from '../helpers/capacity-results.ts';
import { resultWith } from '../helpers/comparison-results.ts';
import { sampleFixture } from '../helpers/run-result.ts';

/*
 * One hook (renderer/jobs/useJob.ts) and one store for every kind: a run, a comparison and a
 * capacity search start, stream, stop and come back after a reload through the same code,
 * on a stubbed bridge built with the hosts' own createTrebuchetApi.
 */

afterEach(cleanup);

/** A host stand-in: answers jobs.* (each start with `${kind}-1`), lets the test play each job's events. */
function stubHost(opts: { active?: ActiveJob[]; answer?: () => Promise<void> } = {}) {
  const jobs = new JobEvents();
  const sent: { command: string; input: unknown }[] = [];
  const send: SendCommand = async (command, input) => {
    sent.push({ command, input });
    switch (command) {
      case 'jobs.start':
        await opts.answer?.();
        return { ok: true, value: { jobId: `${(input as JobStart).kind}-1` } };
      case 'jobs.stop':
        return { ok: true, value: { stopped: true } };
      case 'jobs.active': {
        const kind = (input as { kind?: JobKind }).kind;
        return { ok: true, value: { jobs: (opts.active ?? []).filter((j) => j.kind === kind) } };
      }
      default:
        return { ok: false, error: `${command} is not used here` };
    }
  };
  const api = createTrebuchetApi(send, { onJobEvent: (jobId, l) => jobs.subscribe(jobId, l) });
  const numbers = new Map<string, number>();
  const emit = <K extends JobKind>(jobId: string, kind: K, event: JobEvent<K>) => {
    const n = numbers.get(jobId) ?? 0;
    numbers.set(jobId, n + 1);
    act(() => jobs.deliver({ jobId, kind, n, event } as JobEnvelope));
  };
  return { api, sent, emit, followed: () => jobs.size };
}

const scenario = scenarioSchema.parse({ name: 'one', targets: [{ url: 'http://127.0.0.1:1/' }] });
const plan = comparisonPlanSchema.parse({
  name: 'two',
  targets: [{ name: 'a', urls: { http: 'http://127.0.0.1:1/' } }],
  load: { model: 'closed', limit: { kind: 'duration', seconds: 1 } },
  levels: [1, 2],
  repetitions: 1,
});
const search = capacityPlanSchema.parse({
  name: 'three',
  targets: [{ name: 'a', url: 'http://127.0.0.1:1/' }],
  search: { goal: { p99Ms: 10 }, startRate: 100 },
});

/** What each kind plays: its first part's start, and that part's result as it travels (no samples). */
const KINDS = [
  {
    view: RUN_VIEW as JobView<JobKind, unknown>,
    plan: scenario as PlanOf<JobKind>,
    partStarted: { type: 'part-started', part: 0 },
    result: { ...resultWith({ rps: 11 }), samples: [] } as PartResultOf<JobKind>,
  },
  {
    view: COMPARISON_VIEW as JobView<JobKind, unknown>,
    plan: plan as PlanOf<JobKind>,
    partStarted: {
      type: 'part-started',
      part: 0,
      coordinates: { targetIndex: 0, protocol: 'http', level: 1, repetition: 0 },
    },
    result: {
      cellIndex: 0,
      coordinates: { targetIndex: 0, protocol: 'http', level: 1, repetition: 0 },
      result: { ...resultWith({ rps: 22 }), samples: [] },
    } as PartResultOf<JobKind>,
  },
  {
    view: CAPACITY_VIEW as JobView<JobKind, unknown>,
    plan: search as PlanOf<JobKind>,
    partStarted: {
      type: 'part-started',
      part: 0,
      searchIndex: 0,
      stepIndex: 0,
      rate: 100,
      phase: 'doubling',
    },
    result: {
      searchIndex: 0,
      stepIndex: 0,
      rate: 100,
      phase: 'doubling',
      result: { ...stepResult(100, {}), samples: [] },
    } as PartResultOf<JobKind>,
  },
] as const;

const runOf = (kind: JobKind, result: unknown) =>
  (kind === 'run' ? result : (result as { result: unknown }).result) as { samples: { seq: number }[] };

describe('useJob: a run, a comparison and a capacity search through one hook and one store', () => {
  for (const k of KINDS) {
    const kind = k.view.kind;

    it(`streams a ${kind}: started from the reply on, its samples per part, its result joined to them, its end`, async () => {
      const host = stubHost();
      const { result } = renderHook(() => useJob(host.api, k.view, () => undefined));
      await act(async () => {
        expect(result.current.start(k.plan)).toBe(true);
        await Promise.resolve();
      });
      expect(host.sent.find((s) => s.command === 'jobs.start')?.input).toEqual({ kind, plan: k.plan });
      expect(result.current.state).toMatchObject({ phase: 'running', jobId: `${kind}-1` });
      expect(host.followed()).toBe(1);
      // A second start while one goes on does nothing.
      expect(result.current.start(k.plan)).toBe(false);

      const jobId = `${kind}-1`;
      host.emit(jobId, kind, { type: 'progress', progress: k.partStarted as never });
      expect(result.current.state.current).toBe(0);
      const drawn: [number, string][] = [];
      result.current.store.feeds.engine.subscribe((_part, s, change) => drawn.push([s.seq, change]));
      for (const seq of [1, 2, 2])
        host.emit(jobId, kind, { type: 'sample', part: 0, source: 'engine', sample: sampleFixture({ seq }) });
      expect(drawn).toEqual([
        [1, 'appended'],
        [2, 'appended'],
        [2, 'replaced'],
      ]);
      expect(result.current.state.live[0]!.last?.seq).toBe(2);
      host.emit(jobId, kind, { type: 'result', part: 0, result: k.result });
      // The result travelled without its samples; the store joined the part's series back.
      expect(runOf(kind, result.current.state.results[0]).samples.map((s) => s.seq)).toEqual([1, 2]);
      host.emit(jobId, kind, { type: 'done', status: 'completed', historyId: 'h-1' });
      expect(result.current.state).toMatchObject({
        phase: 'done',
        status: 'completed',
        saved: { historyId: 'h-1', error: null },
      });
      expect(host.followed()).toBe(0);
      // Each tab reads the same state its own way.
      if (kind === 'comparison') {
        const shown = comparisonRun(result.current.state as never);
        expect(shown.outcomes.map((o) => o.result.throughput.requestsPerSecond)).toEqual([22]);
      }
      if (kind === 'capacity') {
        const shown = capacityRun(result.current.state as never);
        expect(shown.steps.map((s) => s.rate)).toEqual([100]);
      }
    });

    it(`stops a ${kind} pressed while the host was still starting it, as soon as it answers`, async () => {
      let answer: () => void = () => undefined;
      const answered = new Promise<void>((resolve) => (answer = resolve));
      const host = stubHost({ answer: () => answered });
      const { result } = renderHook(() => useJob(host.api, k.view, () => undefined));
      act(() => {
        result.current.start(k.plan);
      });
      expect(result.current.state.phase).toBe('starting');
      act(() => {
        expect(result.current.stop()).toBe(true);
      });
      expect(result.current.state).toMatchObject({ phase: 'stopping', stopRequested: true });
      expect(host.sent.filter((s) => s.command === 'jobs.stop')).toEqual([]);
      await act(async () => {
        answer();
        await answered;
        await Promise.resolve();
      });
      expect(host.sent.filter((s) => s.command === 'jobs.stop').map((s) => s.input)).toEqual([
        { jobId: `${kind}-1` },
      ]);
      expect(result.current.state).toMatchObject({ phase: 'stopping', jobId: `${kind}-1` });
    });

    it(`takes a ${kind} up again after a reload: its events so far, then the live ones, each once`, async () => {
      const jobId = `${kind}-7`;
      const replay: JobEvent[] = [
        { type: 'progress', progress: k.partStarted as never },
        { type: 'sample', part: 0, source: 'engine', sample: sampleFixture({ seq: 1 }) },
      ];
      const active = {
        jobId,
        kind,
        plan: k.plan,
        events: replay.map((event, n) => ({ jobId, kind, n, event })),
        partElapsedSeconds: 3,
      } as ActiveJob;
      const host = stubHost({ active: [active] });
      const adopted: unknown[] = [];
      const { result } = renderHook(() => useJob(host.api, k.view, (p) => adopted.push(p)));
      await act(async () => {
        await Promise.resolve();
        await Promise.resolve();
      });
      expect(host.sent.find((s) => s.command === 'jobs.active')?.input).toEqual({ kind });
      expect(adopted).toEqual([k.plan]);
      expect(result.current.state).toMatchObject({ phase: 'running', jobId, current: 0, lastEvent: 1 });
      expect(result.current.store.feeds.engine.all(0).map((s) => s.seq)).toEqual([1]);
      // The sample sent both in the answer and live is applied once.
      host.emit(jobId, kind, replay[0]!);
      host.emit(jobId, kind, replay[1]!);
      host.emit(jobId, kind, {
        type: 'sample',
        part: 0,
        source: 'engine',
        sample: sampleFixture({ seq: 2 }),
      });
      expect(result.current.store.feeds.engine.all(0).map((s) => s.seq)).toEqual([1, 2]);
    });
  }
});
