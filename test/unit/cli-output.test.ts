import { describe, expect, it } from 'vitest';
import { fixed } from '../../shared/figures/units.ts';
import { withoutSecrets } from '../../shared/model/secret-headers.ts';
import { cellSummaryLine, ProgressLine, plannedSeconds, progressLine } from '../../electron/cli/progress.ts';
import { formatPresetList } from '../../electron/cli/presets/command.ts';
import { exitCodeFor, renderComparisonReport, renderReport } from '../../electron/cli/report.ts';
import { comparisonExport } from '../../shared/export/comparison.ts';
import { runJson } from '../../shared/export/run.ts';
import { labelResults } from '../../shared/format/labels.ts';
import type { ComparisonOutcome } from '../../electron/jobs/comparison.ts';
import { builtInPresets } from '../../electron/stores/built-in-presets.ts';
import type { CellOutcome } from '../../shared/comparison/cells.ts';
import { aggregateComparison } from '../../shared/comparison/table.ts';
import { summarizePreset } from '../../shared/records/preset-summary.ts';
import { runResultSchema, type RunResult, type Sample } from '../../shared/model/result.ts';
import { scenarioSchema } from '../../shared/model/scenario.ts';
import { twoServerPlan } from '../helpers/comparison-results.ts';
import { abStyleResult, seed000Result } from '../helpers/run-result.ts';

const scenario = (load: unknown, warmupSeconds = 0) =>
  scenarioSchema.parse({ targets: [{ url: 'http://127.0.0.1/' }], load, options: { warmupSeconds } });

function sink(isTTY: boolean): { text: () => string; stream: { isTTY: boolean; write(t: string): boolean } } {
  let out = '';
  return {
    text: () => out,
    stream: {
      isTTY,
      write: (t: string) => {
        out += t;
        return true;
      },
    },
  };
}

const sample = (elapsedSeconds: number): Sample => ({ ...seed000Result().samples[1]!, elapsedSeconds });

describe('progress on stderr', () => {
  it('knows how long a run is planned to last', () => {
    expect(plannedSeconds(scenario({ model: 'closed', limit: { kind: 'duration', seconds: 10 } }, 2))).toBe(
      12,
    );
    expect(plannedSeconds(scenario({ model: 'open', rate: 10, durationSeconds: 5 }))).toBe(5);
    expect(plannedSeconds(scenario({ model: 'closed', limit: { kind: 'requests', count: 10 } }))).toBeNull();
  });

  it('prints one line per sample off a terminal, nothing for runs of 2 s or less', () => {
    const long = sink(false);
    const p = new ProgressLine(
      long.stream,
      scenario({ model: 'closed', limit: { kind: 'duration', seconds: 3 } }),
    );
    p.sample(0, sample(1));
    p.sample(0, sample(2));
    p.finish();
    expect(long.text().split('\n')).toEqual([progressLine(sample(1), ''), progressLine(sample(2), ''), '']);
    expect(progressLine(sample(2), '')).toBe(
      '2.0s  100.00 req/s  p50 225µs  p99 500µs  total 200  errors 2  in flight 1',
    );

    const short = sink(false);
    const q = new ProgressLine(
      short.stream,
      scenario({ model: 'closed', limit: { kind: 'duration', seconds: 2 } }),
    );
    q.sample(0, sample(1));
    expect(short.text()).toBe('');

    // A request-count run's length is unknown: lines start once 2 s have passed.
    const counted = sink(false);
    const c = new ProgressLine(
      counted.stream,
      scenario({ model: 'closed', limit: { kind: 'requests', count: 10 } }),
    );
    c.sample(0, sample(1));
    c.sample(0, sample(2));
    expect(counted.text().split('\n')).toHaveLength(2);
  });

  it('redraws one line on a terminal and ends it before the report', () => {
    const tty = sink(true);
    const p = new ProgressLine(tty.stream, scenario({ model: 'open', rate: 10, durationSeconds: 5 }));
    p.sample(0, sample(1));
    p.sample(0, sample(2));
    p.finish();
    expect(tty.text()).toBe(`\r\x1b[K${progressLine(sample(1), '')}\r\x1b[K${progressLine(sample(2), '')}\n`);
  });
});

describe('report output and exit codes', () => {
  const failedThreshold = (): RunResult => ({
    ...seed000Result(),
    thresholds: [{ threshold: { metric: 'p99', op: '<', value: 0.1 }, actual: 0.57, passed: false }],
  });

  it('exits 0, 1 or 130 as documented', () => {
    const ok = { interrupted: false, hostError: false };
    expect(exitCodeFor([seed000Result()], ok)).toBe(0);
    expect(exitCodeFor([seed000Result(), failedThreshold()], ok)).toBe(1);
    expect(exitCodeFor([{ ...seed000Result(), status: 'failed' }], ok)).toBe(1);
    expect(exitCodeFor([], ok)).toBe(1);
    expect(exitCodeFor([seed000Result()], { interrupted: false, hostError: true })).toBe(1);
    expect(exitCodeFor([failedThreshold()], { interrupted: true, hostError: false })).toBe(130);
  });

  it('json is one object for one target and an array for several', () => {
    expect(runResultSchema.parse(JSON.parse(runJson([seed000Result()]))).runId).toBe('run-1');
    const several = JSON.parse(renderReport([seed000Result(), abStyleResult()], 'json')) as unknown[];
    expect(several).toHaveLength(2);
  });

  it('numbers repeated target labels and separates targets in the text report', () => {
    expect(labelResults([seed000Result(), seed000Result(), abStyleResult()]).map((l) => l.label)).toEqual([
      '127.0.0.1:8082/test.html #1',
      '127.0.0.1:8082/test.html #2',
      '127.0.0.1:8080',
    ]);
    const text = renderReport([seed000Result(), abStyleResult()], 'text');
    expect(text).toContain('Target (1/2): 127.0.0.1:8082/test.html  GET http://127.0.0.1:8082/test.html\n');
    expect(text).toContain(
      `\n${'-'.repeat(78)}\n\nTarget (2/2): 127.0.0.1:8080  GET http://127.0.0.1:8080/\n`,
    );
    expect(
      renderReport([seed000Result()], 'vegeta').startsWith('Requests      [total, rate, throughput]'),
    ).toBe(true);
    expect(renderReport([seed000Result()], 'ab').startsWith('Server Software:        nginx/1.22.1\n')).toBe(
      true,
    );
  });
});

describe('the verdict in the text output', () => {
  it("adds a comparison run's caveats to its summary line on stderr", () => {
    expect(cellSummaryLine(seed000Result())).toBe(
      '  completed:  100.19 req/s  p99 574.479µs  total 500  failed 0',
    );
    const dropped: RunResult = {
      ...seed000Result(),
      requests: { ...seed000Result().requests, late: 300, dropped: 100 },
    };
    expect(cellSummaryLine(dropped)).toMatch(/ {2}failed 0 {2}! rate not reached$/);
  });

  it('says a clean run is clean, right under its heading', () => {
    const lines = renderReport([seed000Result()], 'text').split('\n');
    expect(lines.slice(0, 4)).toEqual([
      'Target: 127.0.0.1:8082/test.html  GET http://127.0.0.1:8082/test.html',
      'Status: completed  engine native 0.1.0, Node v24.21.0, 2 x Test CPU',
      'Verdict: clean: the figures are the server’s.',
      // The generator's own figures after the verdict: each worker's CPU.
      `Generator CPU: 1 worker: ${fixed(seed000Result().generator.cpuPercentMean, 0)}% of a core on average (max ${fixed(seed000Result().generator.cpuPercentMax, 0)}%)`,
    ]);
  });

  it('puts a run whose every response was a 404 first of all, and after a tool layout', () => {
    const all404: RunResult = {
      ...seed000Result(),
      requests: { ...seed000Result().requests, ok: 0, non2xx: 500 },
      statusCodes: { '404': 500 },
      successRatio: 0,
    };
    const text = renderReport([all404], 'text').split('\n');
    expect(text.slice(2, 4)).toEqual([
      'Verdict: ALL NON-2XX',
      '  ! Every response was 404 Not Found: check the path.',
    ]);
    const ab = renderReport([all404], 'ab');
    expect(ab.startsWith('Server Software:')).toBe(true);
    expect(
      ab.endsWith('\nVerdict: ALL NON-2XX\n  ! Every response was 404 Not Found: check the path.\n'),
    ).toBe(true);
  });
});

describe('tool formats and comparisons on stdout', () => {
  it('prints http_load and JMeter layouts per target', () => {
    const text = renderReport([seed000Result(), abStyleResult()], 'http_load');
    expect(text.split('\n')[0]).toBe('500 fetches, 1 max parallel, 2500 bytes, in 4.99034 seconds');
    expect(text).toContain('\n\nhttp://127.0.0.1:8080/: connect ECONNREFUSED 127.0.0.1:8080 (4 times)\n');
    expect(renderReport([abStyleResult()], 'jmeter').split('\n')[0]).toBe('Aggregate Report');
  });

  it('prints each comparison run in the chosen format under its place in the matrix, then the table', () => {
    const plan = twoServerPlan({ name: 'two', levels: [10, 20], repetitions: 1 });
    const outcomes: CellOutcome[] = [
      {
        cellIndex: 0,
        coordinates: { targetIndex: 0, protocol: 'http', level: 10, repetition: 0 },
        result: { ...abStyleResult(), target: { ...abStyleResult().target, name: 'nginx' } },
      },
    ];
    const outcome: ComparisonOutcome = {
      comparisonId: 'cmp-1',
      plan,
      status: 'cancelled',
      outcomes,
      table: aggregateComparison(plan, outcomes),
      preflightFailures: [],
    };
    const text = renderComparisonReport(outcome, 'http_load');
    expect(
      text.startsWith('== nginx · http · c=10 · #1 ==\nhttp://127.0.0.1:8080/: connect ECONNREFUSED'),
    ).toBe(true);
    // Each run's report ends with its verdict; the matrix follows under the comparison's status.
    expect(text).toContain('  code 503 -- 5\n\nVerdict: ');
    expect(text).toContain('\nStatus: cancelled\ntwo\n');
    // Without a format, the plan's own layout (ab for a closed plan).
    expect(renderComparisonReport(outcome, null)).toContain(
      '== nginx · http · c=10 · #1 ==\nServer Software:',
    );
    expect(renderComparisonReport(outcome, 'text')).toContain(
      '== nginx · http · c=10 · #1 ==\nTarget: nginx',
    );
    const json = JSON.parse(renderComparisonReport(outcome, 'json')) as {
      status: string;
      table: { cells: unknown[] };
    };
    expect(json.status).toBe('cancelled');
    expect(json.table.cells).toHaveLength(4);
    // --csv cmp.csv writes cmp.matrix.csv, cmp.summary.csv and the new parts beside them.
    expect(
      comparisonExport(outcome)
        .items.filter((p) => p.suffix.endsWith('.csv'))
        .map((p) => p.suffix),
    ).toEqual(['matrix.csv', 'summary.csv', 'timeseries.csv', 'percentiles-http-c-10.csv']);
  });

  it("clears a comparison's secret header values, in the plan and in every run, and leaves the original", () => {
    const auth = [{ name: 'Cookie', value: 'session=s3cret' }];
    const plan = twoServerPlan({
      targets: [
        { name: 'nginx', urls: { http: 'http://127.0.0.1:8081/' }, headers: auth },
        { name: 'apache', urls: { http: 'http://127.0.0.1:8082/' } },
      ],
    });
    const result = { ...abStyleResult(), target: { ...abStyleResult().target, headers: auth } };
    const outcomes: CellOutcome[] = [
      { cellIndex: 0, coordinates: { targetIndex: 0, protocol: 'http', level: 10, repetition: 0 }, result },
    ];
    const outcome: ComparisonOutcome = {
      comparisonId: 'cmp-2',
      plan,
      status: 'completed',
      outcomes,
      table: aggregateComparison(plan, outcomes),
      preflightFailures: [],
    };
    const shown = withoutSecrets(outcome);
    const json = renderComparisonReport(shown, 'json');
    expect(json).not.toContain('s3cret');
    expect(shown.plan.targets[0]!.headers).toEqual([{ name: 'Cookie', value: '' }]);
    expect(shown.outcomes[0]!.result.target.headers).toEqual([{ name: 'Cookie', value: '' }]);
    expect(outcome.plan.targets[0]!.headers).toEqual(auth);
    expect(renderComparisonReport(withoutSecrets(outcome, true), 'json')).toContain('session=s3cret');
  });

  it('lists presets with their targets under them', () => {
    const list = builtInPresets()
      .slice(0, 2)
      .map((p) => summarizePreset(p, 'built-in'));
    const lines = formatPresetList(list).split('\n');
    // The longest id (builtin-seed-001-ab-8kb-image, 29 characters) sets the first column.
    expect(lines[0]).toMatch(/^ID {29}KIND {8}SOURCE {4}NAME$/);
    expect(lines[1]).toBe(
      'builtin-seed-000-vegeta-rate   comparison  built-in  vegeta: 100/1000/10000 req/s for 5 s, http and https (Apache, nginx, H2O)',
    );
    expect(lines[2]).toBe(`${' '.repeat(31 + 12 + 10)}targets: Apache, nginx, H2O`);
  });
});
