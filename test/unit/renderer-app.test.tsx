// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTrebuchetApi, JobEvents, type SendCommand } from '../../shared/contract/client.ts';
import type { ActiveJob, JobEvent, JobKind, JobStart } from '../../shared/contract/jobs.ts';
import type { Sample } from '../../shared/model/result.ts';
import { scenarioSchema } from '../../shared/model/scenario.ts';
import { App } from '../../renderer/App.tsx';
import { runResultFixture, sampleFixture } from '../helpers/run-result.ts';

/** A sample event of part 0; `over` replaces any field of the sample. */
function sampleEvent(over: Partial<Sample> = {}): JobEvent {
  return { type: 'sample', part: 0, source: 'engine', sample: sampleFixture(over) };
}

/**
 * A bridge that records commands and lets the test play the host's events. Built with the
 * same createTrebuchetApi as the real hosts, so it has exactly the contract's shape. Each
 * kind's job gets the id `${kind}-1` (then -2...).
 */
function stubBridge(opts: { refuseStart?: string; active?: ActiveJob[] } = {}) {
  const jobs = new JobEvents();
  const started: JobStart[] = [];
  const stopped: string[] = [];
  const asked: (JobKind | undefined)[] = [];
  const send: SendCommand = (command, input) => {
    switch (command) {
      case 'jobs.start': {
        if (opts.refuseStart) return Promise.resolve({ ok: false, error: opts.refuseStart });
        const start = input as JobStart;
        started.push(start);
        const n = started.filter((s) => s.kind === start.kind).length;
        return Promise.resolve({ ok: true, value: { jobId: `${start.kind}-${n}` } });
      }
      case 'jobs.stop':
        stopped.push((input as { jobId: string }).jobId);
        return Promise.resolve({ ok: true, value: { stopped: true } });
      case 'jobs.active': {
        const kind = (input as { kind?: JobKind } | undefined)?.kind;
        asked.push(kind);
        const all = opts.active ?? [];
        return Promise.resolve({
          ok: true,
          value: { jobs: all.filter((j) => kind === undefined || j.kind === kind) },
        });
      }
      default:
        return Promise.resolve({ ok: false, error: `${command} is not used by this test` });
    }
  };
  const api = createTrebuchetApi(send, { onJobEvent: (jobId, l) => jobs.subscribe(jobId, l) });
  const numbers = new Map<string, number>();
  /** The host's next event of a job (numbered as the host numbers them). */
  const emit = (jobId: string, event: JobEvent) => {
    const n = numbers.get(jobId) ?? opts.active?.find((j) => j.jobId === jobId)?.events.length ?? 0;
    numbers.set(jobId, n + 1);
    const kind = jobId.split('-')[0] as JobKind;
    act(() => jobs.deliver({ jobId, kind, n, event }));
  };
  return { api, started, stopped, asked, emit, followed: () => jobs.size };
}

// jsdom has no 2D canvas: charts are a stand-in that keeps the data and counts redraws.
const charts = vi.hoisted(() => ({
  live: [] as { data: { datasets: { data: unknown[] }[] }; updates: number }[],
}));
vi.mock('../../renderer/charts/setup.ts', () => ({
  Chart: class {
    data: { datasets: { data: unknown[] }[] };
    updates = 0;
    constructor(_canvas: unknown, config: { data: { datasets: { data: unknown[] }[] } }) {
      this.data = config.data;
      charts.live.push(this);
    }
    update() {
      this.updates++;
    }
    destroy() {
      charts.live.splice(charts.live.indexOf(this), 1);
    }
  },
}));

beforeAll(() => {
  // jsdom has no media queries: the OS theme is light.
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
    }) as unknown as MediaQueryList;
});
afterEach(cleanup);

describe('App with a stubbed bridge', () => {
  it('validates the URL inline and keeps Run disabled until it is valid', () => {
    const { api } = stubBridge();
    render(<App api={api} />);
    const run = screen.getByTestId('run-button');
    expect(run).toHaveProperty('disabled', true);
    fireEvent.change(screen.getByTestId('target-url-0'), { target: { value: 'not a url' } });
    expect(screen.getByTestId('error-targets.0.url').textContent).toBe(
      'URL is not valid (expected e.g. http://127.0.0.1:8080/)',
    );
    expect(screen.getByTestId('target-url-0').getAttribute('aria-invalid')).toBe('true');
    expect(run).toHaveProperty('disabled', true);
    fireEvent.change(screen.getByTestId('target-url-0'), { target: { value: 'http://127.0.0.1:8080/' } });
    expect(screen.queryByTestId('error-targets.0.url')).toBeNull();
    expect(run).toHaveProperty('disabled', false);
    fireEvent.change(screen.getByTestId('load-connections'), { target: { value: '0' } });
    expect(screen.getByTestId('error-load.connections').textContent).toBe('connections must be at least 1');
    expect(run).toHaveProperty('disabled', true);
  });

  it('adds, duplicates and removes targets', () => {
    const { api } = stubBridge();
    render(<App api={api} />);
    fireEvent.change(screen.getByTestId('target-url-0'), { target: { value: 'http://127.0.0.1:1/' } });
    expect(screen.getByTestId('target-remove-0')).toHaveProperty('disabled', true);
    fireEvent.click(screen.getByTestId('target-duplicate-0'));
    expect(screen.getByTestId<HTMLInputElement>('target-url-1').value).toBe('http://127.0.0.1:1/');
    fireEvent.click(screen.getByTestId('target-add'));
    expect(screen.getByTestId<HTMLInputElement>('target-url-2').value).toBe('');
    fireEvent.click(screen.getByTestId('target-remove-0'));
    expect(screen.queryByTestId('target-url-2')).toBeNull();
    expect(screen.getByTestId<HTMLInputElement>('target-url-0').value).toBe('http://127.0.0.1:1/');
  });

  it('runs on Ctrl+Enter, shows live counters, stops on Escape and shows the partial result', async () => {
    const bridge = stubBridge();
    render(<App api={bridge.api} />);
    // No run, nothing followed.
    expect(bridge.followed()).toBe(0);
    fireEvent.change(screen.getByTestId('target-url-0'), { target: { value: 'http://127.0.0.1:8080/' } });
    fireEvent.change(screen.getByTestId('load-connections'), { target: { value: '50' } });
    fireEvent.change(screen.getByTestId('load-duration'), { target: { value: '3' } });
    await act(async () => {
      fireEvent.keyDown(window, { key: 'Enter', ctrlKey: true });
      await Promise.resolve();
    });
    expect(bridge.started).toHaveLength(1);
    expect(bridge.started[0]!.kind).toBe('run');
    expect(bridge.started[0]!.kind === 'run' && bridge.started[0]!.plan.load).toMatchObject({
      connections: 50,
      limit: { kind: 'duration', seconds: 3 },
    });
    expect(screen.getByTestId('stop-button')).toBeTruthy();
    // Followed from the start reply on.
    expect(bridge.followed()).toBe(1);

    bridge.emit('run-1', { type: 'progress', progress: { type: 'started', targetCount: 1 } });
    bridge.emit('run-1', { type: 'progress', progress: { type: 'part-started', part: 0 } });
    bridge.emit(
      'run-1',
      sampleEvent({ totalRequests: 15_321, requestsPerSecond: 15_321.4, errors: { reset: 2 } }),
    );
    expect(screen.getByTestId('counter-requests').textContent).toBe('15,321');
    expect(screen.getByTestId('chart-throughput').dataset.points).toBe('1');
    bridge.emit('run-1', sampleEvent({ seq: 2, elapsedSeconds: 2 }));
    expect(screen.getByTestId('chart-throughput').dataset.points).toBe('2');
    expect(screen.getByTestId('chart-latency').dataset.points).toBe('2');
    // Charts are appended to and redrawn, not rebuilt, per sample.
    expect(charts.live).toHaveLength(3);
    const throughputChart = charts.live[0]!;
    const updatesBefore = throughputChart.updates;
    bridge.emit(
      'run-1',
      sampleEvent({
        seq: 3,
        elapsedSeconds: 3,
        totalRequests: 15_321,
        requestsPerSecond: 15_321.4,
      }),
    );
    expect(charts.live[0]).toBe(throughputChart);
    expect(throughputChart.updates).toBe(updatesBefore + 1);
    expect(throughputChart.data.datasets[0]!.data).toHaveLength(3);
    expect(screen.getByTestId('counter-rps').textContent).toBe('15,321');
    expect(screen.getByTestId('counter-errors').textContent).toBe('2');
    expect(screen.getByTestId('run-status').dataset.status).toBe('running');

    fireEvent.keyDown(window, { key: 'Escape' });
    expect(bridge.stopped).toEqual(['run-1']);
    expect(screen.getByTestId('stop-button').textContent).toContain('Stopping');

    const partial = runResultFixture({ runId: 'run-1', status: 'cancelled', samples: [] });
    bridge.emit('run-1', { type: 'result', part: 0, result: partial });
    bridge.emit('run-1', { type: 'done', status: 'cancelled' });
    expect(screen.getByTestId('run-status').dataset.status).toBe('cancelled');
    expect(bridge.followed()).toBe(0);
    expect(screen.getByTestId('report').dataset.status).toBe('cancelled');
    expect(screen.getByTestId('summary-rps').textContent).toBe('12,000.46');
    expect(screen.getByTestId('summary-rps').dataset.value).toBe('12000.456');
    // The live counters give way to the result's summary cards.
    expect(screen.queryByTestId('counter-rps')).toBeNull();
    expect(screen.getAllByTestId('percentile-table')).toHaveLength(1);
    expect(screen.getByTestId('status-table').textContent).toContain('503');
    expect(screen.getByTestId('warnings').textContent).toContain('Closed-loop run');
    expect(screen.getByTestId('run-button')).toBeTruthy();
  });

  it("draws a run's short last window together with the one before, on the live charts", async () => {
    const bridge = stubBridge();
    render(<App api={bridge.api} />);
    fireEvent.change(screen.getByTestId('target-url-0'), { target: { value: 'http://127.0.0.1:8080/' } });
    await act(async () => {
      fireEvent.click(screen.getByTestId('run-button'));
      await Promise.resolve();
    });
    bridge.emit('run-1', { type: 'progress', progress: { type: 'part-started', part: 0 } });
    for (const seq of [1, 2]) {
      bridge.emit('run-1', sampleEvent({ seq, elapsedSeconds: seq }));
    }
    const throughput = charts.live[0]!;
    expect(throughput.data.datasets[0]!.data).toEqual([
      { x: 1, y: 1000 },
      { x: 2, y: 1000 },
    ]);
    // The wind-down, 3 answers in 30 ms, folded by the engine into the window before: the
    // sample replaces that one (same seq). Not a point of its own, but counted in the last.
    bridge.emit(
      'run-1',
      sampleEvent({
        seq: 2,
        elapsedSeconds: 2.03,
        intervalSeconds: 1.03,
        requests: 1003,
        requestsPerSecond: 1003 / 1.03,
        final: true,
      }),
    );
    expect(screen.getByTestId('chart-throughput').dataset.points).toBe('2');
    const last = throughput.data.datasets[0]!.data.at(-1) as { x: number; y: number };
    expect(last.x).toBe(2.03);
    expect(last.y).toBeCloseTo(1003 / 1.03, 6);
  });

  it('takes up a run started before a reload: its scenario, samples and clock, then its later events', async () => {
    const scenario = scenarioSchema.parse({
      name: 'reloaded run',
      targets: [{ url: 'http://127.0.0.1:8080/' }],
      load: { model: 'closed', connections: 7, limit: { kind: 'duration', seconds: 60 } },
    });
    const replay: JobEvent[] = [
      { type: 'progress', progress: { type: 'started', targetCount: 1 } },
      { type: 'progress', progress: { type: 'part-started', part: 0 } },
      sampleEvent({ seq: 1, elapsedSeconds: 1 }),
      sampleEvent({ seq: 2, elapsedSeconds: 2, totalRequests: 4321 }),
    ];
    const bridge = stubBridge({
      active: [
        {
          jobId: 'run-9',
          kind: 'run',
          plan: scenario,
          events: replay.map((event, n) => ({ jobId: 'run-9', kind: 'run', n, event })),
          partElapsedSeconds: 12.4,
        },
      ],
    });
    let view: ReturnType<typeof render> | null = null;
    // The page's clock held still: a busy machine's second between render and read would show 0:13.
    const clock = vi.spyOn(performance, 'now').mockReturnValue(50_000);
    await act(async () => {
      view = render(<App api={bridge.api} />);
      await Promise.resolve();
    });
    expect(screen.getByTestId('run-status').dataset.status).toBe('running');
    expect(screen.getByTestId('chart-throughput').dataset.points).toBe('2');
    expect(screen.getByTestId('counter-requests').textContent).toBe('4,321');
    // The clock goes on from the host's figure (12.4 s), not from the reload.
    expect(screen.getByTestId('progress-elapsed').textContent).toBe('0:12');
    clock.mockRestore();
    expect(screen.getByTestId('scenario-name')).toHaveProperty('value', 'reloaded run');
    expect(screen.getByTestId<HTMLInputElement>('load-connections').value).toBe('7');

    // Each kind's hook asked the host for its own kind's job.
    expect([...bridge.asked].sort()).toEqual(['capacity', 'comparison', 'run']);
    bridge.emit('run-9', sampleEvent({ seq: 3, elapsedSeconds: 3 }));
    expect(screen.getByTestId('chart-throughput').dataset.points).toBe('3');
    fireEvent.click(screen.getByTestId('stop-button'));
    expect(bridge.stopped).toEqual(['run-9']);
    // Leaving the page lets go of the run it followed.
    expect(bridge.followed()).toBe(1);
    view!.unmount();
    expect(bridge.followed()).toBe(0);
  });

  it('shows a clear error when the host refuses the run, and follows nothing', async () => {
    const bridge = stubBridge({ refuseStart: 'jobs.start input is invalid: plan.targets.0.url: nope' });
    render(<App api={bridge.api} />);
    fireEvent.change(screen.getByTestId('target-url-0'), { target: { value: 'http://127.0.0.1:8080/' } });
    await act(async () => {
      fireEvent.click(screen.getByTestId('run-button'));
      await Promise.resolve();
    });
    expect(screen.getByTestId('run-failed').textContent).toBe(
      'jobs.start input is invalid: plan.targets.0.url: nope',
    );
    expect(bridge.followed()).toBe(0);
  });
});
