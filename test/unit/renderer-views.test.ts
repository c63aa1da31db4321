import { describe, expect, it } from 'vitest';
import { builtInPresets } from '../../electron/stores/built-in-presets.ts';
import type { CellOutcome } from '../../shared/comparison/cells.ts';
import { JobEvents } from '../../shared/contract/client.ts';
import type { JobEvent } from '../../shared/contract/jobs.ts';
import { aggregateComparison } from '../../shared/comparison/table.ts';
import { comparisonPlanSchema } from '../../shared/comparison/plan.ts';
import { scenarioSchema } from '../../shared/model/scenario.ts';
import { checkDraft } from '../../renderer/editor/draft.ts';
import { paletteFor } from '../../renderer/charts/palette.ts';
import { percentileToX, MAX_X } from '../../renderer/charts/percentileScale.ts';
import { percentileCurvesChart, rpsBarChart, scalingChart } from '../../renderer/views/Compare/chartData.ts';
import { createJobStore } from '../../renderer/jobs/jobStore.ts';
import { cellsFinished, COMPARISON_VIEW, comparisonRun } from '../../renderer/views/Compare/comparisonRun.ts';
import {
  checkPlanDraft,
  defaultPlanDraft,
  draftFromPlan,
  parseLevels,
} from '../../renderer/views/Compare/planDraft.ts';
import { isOpaque } from '../../renderer/charts/chartImage.ts';
import { fileSlug } from '../../shared/model/file-name.ts';
import { comparisonExport } from '../../shared/export/comparison.ts';
import { labelResults } from '../../shared/format/labels.ts';
import { draftFromScenario } from '../../renderer/views/Presets/scenarioDraft.ts';
import { resultWith } from '../helpers/comparison-results.ts';
import { sampleFixture } from '../helpers/run-result.ts';

const plan = comparisonPlanSchema.parse({
  name: 'nginx vs apache',
  targets: [
    { name: 'nginx', urls: { http: 'http://127.0.0.1:8081/' } },
    { name: 'apache', urls: { http: 'http://127.0.0.1:8082/' } },
  ],
  load: { model: 'closed', connections: 10, limit: { kind: 'duration', seconds: 1 } },
  levels: [10, 100, 1000],
  repetitions: 2,
});

function outcome(targetIndex: number, level: number, repetition: number, rps: number): CellOutcome {
  return {
    cellIndex: 0,
    coordinates: { targetIndex, protocol: 'http', level, repetition },
    result: resultWith({ rps, p99: rps / 1000 }),
  };
}

describe('comparison editor draft', () => {
  it('gives back every built-in comparison plan unchanged after a round trip through the editor', () => {
    const plans = builtInPresets().flatMap((p) => (p.kind === 'comparison' ? [p.plan] : []));
    expect(plans).toHaveLength(5);
    for (const p of plans) {
      const check = checkPlanDraft(draftFromPlan(p));
      if (!check.ok)
        throw new Error(`${p.name}: ${check.list.map((i) => `${i.path}: ${i.message}`).join('; ')}`);
      expect(check.plan).toEqual(p);
    }
  });

  it('names the bad field: a level that is no number, a missing URL for a chosen protocol', () => {
    const d = defaultPlanDraft();
    const withHttp = d.targets.map((t, i) => ({
      ...t,
      urls: { ...t.urls, http: `http://127.0.0.1:80${i}/` },
    }));
    expect(checkPlanDraft({ ...d, targets: withHttp, levels: '10, ten' }).issues.get('levels')).toBe(
      'level must be a number',
    );
    const noHttps = checkPlanDraft({ ...d, targets: withHttp, protocols: ['http', 'https'] });
    expect(noHttps.ok).toBe(false);
    expect(noHttps.issues.get('targets.0.urls.https')).toBe(
      'the plan compares https, but this target has no https URL',
    );
    expect(noHttps.issues.get('targets.1.urls.https')).toBe(
      'the plan compares https, but this target has no https URL',
    );
    expect(checkPlanDraft({ ...d, targets: withHttp }).ok).toBe(true);
  });

  it('takes the durations of every cell as the CLI does (1m30s)', () => {
    const d = {
      ...draftFromPlan(plan),
      seconds: '1m30s',
      warmupSeconds: '2s',
      pauseSeconds: '500ms',
      sloMs: '0.3s',
    };
    const check = checkPlanDraft(d);
    expect(check.ok).toBe(true);
    if (!check.ok) return;
    expect(check.plan.load).toMatchObject({ limit: { kind: 'duration', seconds: 90 } });
    expect(check.plan.pauseSeconds).toBe(0.5);
    expect(check.plan.options).toMatchObject({ warmupSeconds: 2, sloMs: 300 });
  });

  it("keeps a preset's workers through load and save, and names the field when the text is bad", () => {
    const saved = (workers: number | 'auto') =>
      comparisonPlanSchema.parse({ ...plan, options: { ...plan.options, workers } });
    for (const workers of [2, 'auto'] as const) {
      const d = draftFromPlan(saved(workers));
      expect(d.workers).toBe(String(workers));
      expect(checkPlanDraft(d)).toMatchObject({ ok: true, plan: { options: { workers } } });
    }
    expect(defaultPlanDraft().workers).toBe('auto');
    const edited = (workers: string) => checkPlanDraft({ ...draftFromPlan(saved(2)), workers });
    expect(edited('4')).toMatchObject({ ok: true, plan: { options: { workers: 4 } } });
    expect(edited(' AUTO ')).toMatchObject({ ok: true, plan: { options: { workers: 'auto' } } });
    expect(edited('')).toMatchObject({ ok: true, plan: { options: { workers: 'auto' } } });
    expect(edited('0').issues.get('options.workers')).toBe('workers must be at least 1');
    expect(edited('two').issues.get('options.workers')).toMatch(/^workers must be 'auto' or a whole number/);
  });

  it('reads levels separated by commas, spaces or semicolons', () => {
    expect(parseLevels('10, 100 1000;5000')).toEqual([10, 100, 1000, 5000]);
    expect(parseLevels(' 1,2 , x ')).toEqual([1, 2, 'x']);
    expect(parseLevels('')).toEqual([]);
  });

  it('puts an open-model duration message under the duration field', () => {
    const d = { ...defaultPlanDraft(), model: 'open' as const, seconds: '0' };
    expect(checkPlanDraft(d).issues.get('load.limit.seconds')).toBe('duration must be at least 0.1');
  });
});

describe('scenario draft from a saved scenario', () => {
  it('gives back the scenario the editor would run, for both load models', () => {
    const closed = scenarioSchema.parse({
      name: 'with everything',
      targets: [
        {
          name: 'api',
          url: 'https://127.0.0.1:8443/v1',
          method: 'POST',
          headers: [{ name: 'Authorization', value: 'Bearer x' }],
          body: { kind: 'text', text: '{"a":1}' },
        },
        { url: 'http://127.0.0.1:8080/', body: { kind: 'file', path: '/tmp/body.bin' } },
      ],
      load: {
        model: 'closed',
        connections: 30,
        pipelining: 2,
        limit: { kind: 'requests', count: 30000 },
        rate: 500,
      },
      options: {
        keepAlive: false,
        protocol: 'h2',
        workers: 3,
        warmupSeconds: 2,
        sloMs: 300,
        thresholds: [{ metric: 'p99', op: '<', value: 50 }],
        tls: { verify: false, caFile: '/tmp/ca.pem', servername: 'example.test', minVersion: 'TLSv1.1' },
      },
    });
    const open = scenarioSchema.parse({
      targets: [{ url: 'http://127.0.0.1:8080/' }],
      load: { model: 'open', rate: 1000, durationSeconds: 5, maxInFlight: 200 },
    });
    for (const s of [closed, open]) {
      const check = checkDraft(draftFromScenario(s));
      expect(check.ok && check.scenario).toEqual(s);
    }
  });
});

describe('comparison progress', () => {
  /** A comparison's store on a stubbed bridge; emit plays the host's next event. */
  function following() {
    const jobs = new JobEvents();
    const store = createJobStore(COMPARISON_VIEW, (id, l) => jobs.subscribe(id, l));
    let n = 0;
    const emit = (event: JobEvent<'comparison'>) =>
      jobs.deliver({ jobId: 'cmp-a', kind: 'comparison', n: n++, event });
    return { store, emit, shown: () => comparisonRun(store.getState()) };
  }
  const firstCell = (part: number, repetition = 0): JobEvent<'comparison'> => ({
    type: 'progress',
    progress: {
      type: 'part-started',
      part,
      coordinates: { targetIndex: 0, protocol: 'http', level: 10, repetition },
    },
  });
  const started: JobEvent<'comparison'> = { type: 'progress', progress: { type: 'started', cellCount: 12 } };

  it('follows the matrix cell by cell', () => {
    const { store, emit, shown } = following();
    store.begin(plan);
    store.attach('cmp-a');
    expect(shown().cells).toHaveLength(12);
    emit(started);
    emit(firstCell(0));
    expect(shown().current).toBe(0);
    expect(shown().cells[0]!.status).toBe('running');
    expect(shown().cells.filter((c) => c.status === 'running')).toHaveLength(1);
    emit({
      type: 'sample',
      part: 0,
      source: 'engine',
      sample: sampleFixture({ warmup: true, requestsPerSecond: 5 }),
    });
    // A warm-up window is not the cell's rate.
    expect(shown().cells[0]!.rps).toBeNull();
    emit({
      type: 'sample',
      part: 0,
      source: 'server',
      sample: { seq: 1, elapsedSeconds: 1, intervalSeconds: 1, warmup: false, cpuPercent: 35 },
    });
    emit({
      type: 'sample',
      part: 0,
      source: 'server',
      sample: { seq: 2, elapsedSeconds: 2, intervalSeconds: 1, warmup: false, gap: 'busy' },
    });
    // A gap keeps the last figure.
    expect(shown().cells[0]!.cpu).toBe(35);
    const first = outcome(0, 10, 0, 1234);
    emit({ type: 'result', part: 0, result: { ...first, result: { ...first.result, samples: [] } } });
    expect(shown().cells[0]).toMatchObject({ status: 'completed', rps: 1234 });
    emit({ type: 'progress', progress: { type: 'pause', next: 1, seconds: 2 } });
    expect(shown()).toMatchObject({ pausing: true, current: 1 });
    emit({ type: 'error', part: 1, message: 'worker died' });
    expect(shown().cells[1]!.status).toBe('error');
    expect(cellsFinished(shown())).toBe(2);
    emit({ type: 'done', status: 'cancelled', historyId: 'h-1' });
    expect(shown()).toMatchObject({ phase: 'done', status: 'cancelled', historyId: 'h-1', current: null });
    expect(shown().errors).toEqual(['Cell 2: worker died']);
    expect(shown().outcomes.map((o) => o.result.throughput.requestsPerSecond)).toEqual([1234]);
  });

  it('takes up a comparison in progress after a reload by applying its events', () => {
    const { store, emit, shown } = following();
    const first = outcome(0, 10, 0, 1234);
    const replay: JobEvent<'comparison'>[] = [
      started,
      firstCell(0),
      { type: 'result', part: 0, result: { ...first, result: { ...first.result, samples: [] } } },
      firstCell(1, 1),
      { type: 'sample', part: 1, source: 'engine', sample: sampleFixture({ requestsPerSecond: 900 }) },
    ];
    expect(
      store.adopt({
        jobId: 'cmp-a',
        kind: 'comparison',
        plan,
        events: replay.map((event, n) => ({ jobId: 'cmp-a', kind: 'comparison', n, event })),
        partElapsedSeconds: 1,
      }),
    ).toBe(true);
    expect(shown()).toMatchObject({ phase: 'running', comparisonId: 'cmp-a', current: 1 });
    expect(shown().outcomes.map((o) => o.cellIndex)).toEqual([first.cellIndex]);
    expect(shown().cells[0]).toMatchObject({ status: 'completed', rps: 1234 });
    expect(shown().cells[1]).toMatchObject({ status: 'running', rps: 900 });
    expect(cellsFinished(shown())).toBe(1);
    // Later events apply as they come (numbered after the replay's).
    for (const event of replay) emit(event);
    emit({ type: 'done', status: 'completed' });
    expect(shown().phase).toBe('done');
  });
});

describe('comparison charts', () => {
  const table = aggregateComparison(plan, [
    outcome(0, 10, 0, 1000),
    outcome(0, 10, 1, 3000),
    outcome(1, 10, 0, 500),
    outcome(0, 1000, 0, 9000),
  ]);
  const palette = paletteFor('light');

  it('draws one bar per target and level at the mean req/s, gaps where a cell has no result yet', () => {
    const chart = rpsBarChart(table, palette);
    expect(chart.data.labels).toEqual(['c=10', 'c=100', 'c=1000']);
    expect(chart.data.datasets.map((d) => [d.label, d.data])).toEqual([
      ['nginx', [2000, null, 9000]],
      ['apache', [500, null, null]],
    ]);
  });

  it('plots scaling against the level on a log axis when the levels span decades', () => {
    const chart = scalingChart(table, 'p99', palette);
    expect(chart.options?.scales?.x?.type).toBe('logarithmic');
    expect(chart.data.datasets[0]!.data).toEqual([
      { x: 10, y: 2 },
      { x: 1000, y: 9 },
    ]);
  });

  it('overlays the distributions on the run report percentile axis', () => {
    const chart = percentileCurvesChart(table, { protocol: 'http', level: 10 }, palette);
    const nginx = chart.data.datasets[0]!.data;
    expect(chart.data.datasets.map((d) => d.label)).toEqual(['nginx', 'apache']);
    // p50 is 1 ms in both repetitions; the maximum is 2 and 6 ms, so 4 on average.
    expect(nginx[0]).toEqual({ x: percentileToX(50), y: 1 });
    expect(nginx.at(-1)).toEqual({ x: MAX_X, y: 4 });
    expect(nginx.map((p) => p.x)).toEqual([...nginx.map((p) => p.x)].sort((a, b) => a - b));
  });
});

describe('export helpers', () => {
  it('tells opaque colours from transparent ones', () => {
    expect(isOpaque('rgb(255, 255, 255)')).toBe(true);
    expect(isOpaque('rgba(18, 24, 41, 1)')).toBe(true);
    expect(isOpaque('rgba(0, 0, 0, 0)')).toBe(false);
    expect(isOpaque('rgba(255, 255, 255, 0.5)')).toBe(false);
    expect(isOpaque('transparent')).toBe(false);
  });

  it('makes file names from any text', () => {
    expect(fileSlug('nginx vs Apache · c=100')).toBe('nginx-vs-apache-c-100');
    expect(fileSlug('../../etc/passwd')).toBe('etc-passwd');
    expect(fileSlug('···', 'chart')).toBe('chart');
    // Cut to 80 characters without a dash left hanging at the end.
    expect(fileSlug(`${'a'.repeat(79)} b`)).toBe('a'.repeat(79));
  });

  it('labels results by target, numbering repeated names, and cell runs by their coordinates', () => {
    const a = resultWith({ rps: 1, url: 'http://127.0.0.1:1/' });
    const b = resultWith({ rps: 2, url: 'http://127.0.0.1:2/' });
    expect(labelResults([a, a, b]).map((r) => r.label)).toEqual([
      '127.0.0.1:1 #1',
      '127.0.0.1:1 #2',
      '127.0.0.1:2',
    ]);
    const summary = comparisonExport({ plan, status: 'completed', outcomes: [outcome(1, 100, 1, 5)] })
      .items.find((p) => p.suffix === 'summary.csv')!
      .render();
    expect(summary.split('\r\n')[1]!.startsWith('apache · http · c=100 · #2,')).toBe(true);
  });
});
