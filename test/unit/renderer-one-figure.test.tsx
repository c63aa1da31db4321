// @vitest-environment jsdom
/**
 * Issue 18's "one computation per figure": one result of each kind fed to every view (the
 * React report rendered in jsdom) and every export (the CLI's text, each CSV, the HTML
 * report), which must show the same req/s, durations, verdict word and marks. Each
 * contradiction seen on screen before is a test here; so is each word that names what
 * limited a run (issue 32), in every view that names a verdict.
 */
import { cleanup, render, screen, within } from '@testing-library/react';
import { parse } from 'csv-parse/sync';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { renderComparisonReport, renderReport } from '../../electron/cli/report.ts';
import { capacityReports } from '../../shared/capacity/report.ts';
import { capacityExport } from '../../shared/export/capacity.ts';
import { comparisonExport } from '../../shared/export/comparison.ts';
import { bundleFiles, type ExportBundle } from '../../shared/export/files.ts';
import { runExport } from '../../shared/export/run.ts';
import { formatMs, formatSeconds } from '../../shared/figures/units.ts';
import {
  cellVerdict,
  runVerdict,
  verdictSummary,
  VERDICT_STATE_LABELS,
  type VerdictState,
} from '../../shared/verdict/verdict.ts';
import { exitCodeFor } from '../../electron/cli/report.ts';
import { historyRecordSchema } from '../../shared/records/history.ts';
import { summarizeRecord } from '../../shared/records/history-summary.ts';
import { scenarioSchema } from '../../shared/model/scenario.ts';
import { LIVE_CHARTS } from '../../renderer/jobs/liveSeries.ts';
import { expandPlan } from '../../shared/comparison/cells.ts';
import { RunReport } from '../../renderer/report/RunReport.tsx';
import { CapacityResults } from '../../renderer/views/Capacity/CapacityResults.tsx';
import { ComparisonReport } from '../../renderer/views/Compare/ComparisonReport.tsx';
import { MatrixProgress } from '../../renderer/views/Compare/MatrixProgress.tsx';
import {
  capacitySearch,
  comparisonOfLimits,
  comparisonWithCaveats,
  limitedRuns,
  NGINX_RATES,
  openRun,
} from '../helpers/one-result.ts';

// jsdom has no 2D canvas: a chart is a stand-in (ChartCard still writes its points and marks).
vi.mock('../../renderer/charts/setup.ts', () => ({
  Chart: class {
    static getChart(): undefined {
      return undefined;
    }
    destroy(): void {}
    update(): void {}
  },
}));

beforeAll(() => {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      addEventListener: () => {},
      removeEventListener: () => {},
    }) as unknown as MediaQueryList;
});
afterEach(cleanup);

/** Every file of a bundle by its part ("summary.csv", "html", "vegeta.txt"). */
function filesOf(bundle: ExportBundle): Record<string, string> {
  return Object.fromEntries(
    bundleFiles(bundle).map((f) => [f.name.slice(bundle.base.length + 1), f.content]),
  );
}
const csv = (text: string | undefined) => parse<Record<string, string>>(text ?? '', { columns: true });
const htmlDoc = (text: string | undefined) => new DOMParser().parseFromString(text ?? '', 'text/html');
const txt = (el: Element | null | undefined): string => el?.textContent?.trim() ?? '';
/** A number as a report prints it ("1,005.00", "3.02 s", "999.0/sec") read back. */
const num = (text: string): number => Number(/-?[\d,]*\.?\d+/.exec(text)?.[0]?.replace(/,/g, '') ?? NaN);
/** The value after a label on a line of a text report ("Requests per second:    999.01 [#/sec]"). */
function after(text: string, label: string): string {
  const line = text.split('\n').find((l) => l.startsWith(label));
  if (!line) throw new Error(`no line "${label}" in:\n${text}`);
  return line.slice(label.length).trim();
}
/** Go's duration notation (vegeta) in seconds: "3.023s", "4ms", "880µs". */
function goSeconds(d: string): number {
  const m = /^([\d.]+)(s|ms|µs|ns)$/.exec(d.trim());
  if (!m) throw new Error(`not a Go duration: ${d}`);
  return Number(m[1]) / { s: 1, ms: 1e3, µs: 1e6, ns: 1e9 }[m[2] as 's' | 'ms' | 'µs' | 'ns'];
}
const wordOf = (state: string): string => VERDICT_STATE_LABELS[state as VerdictState];

describe('one run in every view and export', () => {
  const run = openRun();

  it('shows one req/s and one duration that adds up, on the cards, in every text, the CSV and the HTML', () => {
    render(<RunReport results={[run]} name="open 1000" />);
    const card = (id: string) => txt(screen.getByTestId(`summary-${id}`));
    const detail = (id: string) => txt(screen.getByTestId(`summary-${id}-detail`));
    const files = filesOf(runExport({ name: 'open 1000', results: [run] }));
    const [summary] = csv(files['summary.csv']);
    const doc = htmlDoc(files.html);
    const htmlCard = (label: string, part: 'value' | 'detail') =>
      txt(doc.querySelector(`[data-figure="${label}"] .${part}`));

    // req/s: the card, ab's Requests per second, JMeter's Throughput, http_load, the CSV, the HTML.
    const rps = num(card('rps'));
    expect(rps).toBeCloseTo(3020 / 3.023, 2);
    const ab = renderReport([run], 'ab');
    expect(num(after(ab, 'Requests per second:'))).toBe(rps);
    expect(Number(summary!['rate (req/s)']).toFixed(2)).toBe(rps.toFixed(2));
    expect(htmlCard('Requests/s', 'value')).toBe(card('rps'));
    expect(htmlCard('Requests/s', 'detail')).toBe(detail('rps'));
    const jmeter = renderReport([run], 'jmeter')
      .split('\n')
      .find((l) => l.startsWith('nginx'))!;
    expect(num(/ ([\d.,]+)\/sec /.exec(jmeter)![1]!)).toBe(Number(rps.toFixed(1)));
    expect(num(after(renderReport([run], 'http_load'), '3020 fetches, ').split(' in ')[1]!)).toBe(3.023);
    // vegeta's rate is what was sent over the attack (the card's "sent"); its throughput, the
    // successes over the duration, is the card's req/s when every request succeeded.
    const vegeta = renderReport([run], 'vegeta');
    const [count, rate, throughput] = after(vegeta, 'Requests')
      .replace('[total, rate, throughput]', '')
      .split(',');
    expect(Number(count)).toBe(3020);
    expect(num(throughput!)).toBe(rps);
    expect(Number(rate)).toBe(num(detail('rps').split('sent ')[1]!));

    // Duration: the card, vegeta's [total, attack, wait], ab's Time taken, the CSV, the HTML.
    const [total, attack, wait] = after(vegeta, 'Duration')
      .replace('[total, attack, wait]', '')
      .split(',')
      .map(goSeconds);
    expect(total).toBeCloseTo(attack! + wait!, 9);
    expect(card('duration')).toBe(formatSeconds(total!));
    expect(detail('duration')).toBe(`attack ${formatMs(attack! * 1000)} · wait ${formatMs(wait! * 1000)}`);
    expect(num(after(ab, 'Time taken for tests:'))).toBe(Number(total!.toFixed(3)));
    expect(Number(summary!['duration (s)'])).toBeCloseTo(total!, 9);
    expect(htmlCard('Duration', 'value')).toBe(card('duration'));
    expect(htmlCard('Duration', 'detail')).toBe(detail('duration'));
  });

  it('says one verdict word, and draws the same latency percentiles live and in the HTML', () => {
    render(<RunReport results={[run]} name="open 1000" />);
    const word = txt(screen.getByTestId('verdict-state'));
    expect(word).toBe('clean');
    const files = filesOf(runExport({ name: 'open 1000', results: [run] }));
    expect(wordOf(csv(files['summary.csv'])[0]!.verdict!)).toBe(word);
    const doc = htmlDoc(files.html);
    expect(txt(doc.querySelector('[data-testid="run-1-verdict"] strong'))).toBe(`Verdict: ${word}`);
    for (const layout of ['text', 'ab', 'vegeta'] as const) {
      expect(renderReport([run], layout)).toMatch(new RegExp(`^Verdict: ${word}`, 'im'));
    }
    const live = LIVE_CHARTS.find((c) => c.id === 'latency')!.series.map((s) => s.label);
    const drawn = [...doc.querySelectorAll('[data-testid="run-1-chart-latency"] .legend-item text')].map(txt);
    expect(drawn).toEqual(live);
  });
});

describe('one comparison with repetitions and caveats in every view and export', () => {
  const c = comparisonWithCaveats();

  it('names each cell with one verdict word in the matrix, its notes, the text, the CSV and the HTML', () => {
    render(
      <ComparisonReport
        shownColumns={null}
        onColumns={() => {}}
        plan={c.plan}
        outcomes={c.outcomes}
        status="completed"
        onOpenRun={() => {}}
      />,
    );
    const files = filesOf(comparisonExport(c));
    const doc = htmlDoc(files.html);
    const matrixCsv = csv(files['matrix.csv']);
    const text = renderComparisonReport(c, null);
    const htmlHead = [...doc.querySelectorAll('[data-testid="matrix"] thead th')].map(txt);
    const htmlRows = [...doc.querySelectorAll('[data-testid="matrix"] tbody tr')];
    const rows = screen.getAllByTestId('comparison-cell');
    expect(rows).toHaveLength(2);
    const expected = {
      nginx: ['clean', 'clean · some late'],
      apache: ['all non-2xx', 'all non-2xx · all 404'],
    };
    for (const row of rows) {
      const target = row.getAttribute('data-target') as 'nginx' | 'apache';
      const [word, summary] = expected[target];
      const ui = txt(within(row).getByTestId('cell-verdict'));
      expect(ui).toBe(summary);
      const html = htmlRows.find((r) => txt(r.children[1]) === target)!;
      expect(txt(html.children[htmlHead.indexOf('verdict')])).toBe(ui);
      expect(text).toMatch(new RegExp(`^.\\s+${target}\\s.*  ${summary}$`, 'm'));
      const csvRow = matrixCsv.find((r) => r.target === target)!;
      expect(wordOf(csvRow.verdict!)).toBe(word);
      // The notes under the matrix: the same word, on screen and in the HTML.
      const note = screen
        .getAllByTestId('matrix-caveat')
        .find((n) => n.getAttribute('data-key')?.startsWith(target === 'nginx' ? '0|' : '1|'))!;
      expect(txt(within(note).getByTestId('caveat-word'))).toBe(word);
      const htmlNote = [...doc.querySelectorAll('[data-testid="matrix-caveat"]')].find((n) =>
        txt(n.querySelector('strong')).startsWith(target),
      )!;
      expect(txt(htmlNote.querySelector('[data-testid="caveat-word"]'))).toBe(word);
      // req/s: the matrix's mean over the four repetitions, everywhere.
      const rps = txt(within(row).getByTestId('cell-rps'));
      expect(txt(html.children[htmlHead.indexOf('req/s')])).toBe(rps);
      expect(Number(csvRow['rate mean (req/s)']).toFixed(2)).toBe(rps.replace(/,/g, ''));
    }
  });

  it('shows each repetition and the cell mean the same in the grid, the run table, the CSV and the HTML', () => {
    const cells = expandPlan(c.plan).map(({ coordinates }, i) => ({
      coordinates,
      status: 'completed' as const,
      rps: c.outcomes[i]!.result.throughput.requestsPerSecond,
      cpu: null,
    }));
    render(
      <>
        <ComparisonReport
          shownColumns={null}
          onColumns={() => {}}
          plan={c.plan}
          outcomes={c.outcomes}
          status="completed"
          onOpenRun={() => {}}
        />
        <MatrixProgress
          state={{
            phase: 'done',
            comparisonId: null,
            plan: c.plan,
            cells,
            current: null,
            pausing: false,
            outcomes: [...c.outcomes],
            status: 'completed',
            historyId: null,
            errors: [],
            preflight: [],
          }}
          onOpenRun={() => {}}
        />
      </>,
    );
    const nginx = screen
      .getAllByTestId('comparison-cell')
      .find((r) => r.getAttribute('data-target') === 'nginx')!;
    const mean = txt(within(nginx).getByTestId('cell-rps'));
    expect(num(mean)).toBe(NGINX_RATES.reduce((a, b) => a + b, 0) / NGINX_RATES.length);
    // The grid shows the matrix's mean, not the last repetition's 1,020.
    expect(txt(screen.getAllByTestId('matrix-progress-rps')[0])).toBe(`${mean} req/s`);
    // Each run: the app's table, the HTML's and the summary CSV, row by row.
    const files = filesOf(comparisonExport(c));
    const ui = screen.getAllByTestId('repetition-row').map((r) => txt(within(r).getByTestId('rep-rps')));
    const doc = htmlDoc(files.html);
    const head = [...doc.querySelectorAll('[data-testid="repetitions"] thead th')].map(txt);
    const html = [...doc.querySelectorAll('[data-testid="repetitions"] tbody tr')].map((r) =>
      txt(r.children[head.indexOf('req/s')]),
    );
    expect(html).toEqual(ui);
    const summary = csv(files['summary.csv']);
    expect(ui.slice(0, 4).map(num)).toEqual(NGINX_RATES);
    expect(summary.filter((r) => r.label!.startsWith('nginx')).map((r) => Number(r['rate (req/s)']))).toEqual(
      NGINX_RATES,
    );
    // One name per run: the CSV's label is the text's heading and the HTML's.
    const labels = summary.map((r) => r.label!);
    expect(labels[0]).toBe('nginx · http · 1000 req/s · #1');
    for (const label of labels) expect(renderComparisonReport(c, 'vegeta')).toContain(`== ${label} ==\n`);
    const runs = [...doc.querySelectorAll('details.cell-run > summary')].map((s) => txt(s).split(' — ')[0]);
    expect(runs).toEqual(labels);
  });

  it('marks a chart where the matrix does, and says nothing of marks where no cell has one', () => {
    const { unmount } = render(
      <ComparisonReport
        shownColumns={null}
        onColumns={() => {}}
        plan={c.plan}
        outcomes={c.outcomes}
        status="completed"
        onOpenRun={() => {}}
      />,
    );
    const doc = htmlDoc(filesOf(comparisonExport(c)).html);
    const bars = doc.querySelector('[data-testid="chart-compare-bars"]')!;
    expect(screen.getByTestId('chart-compare-bars').getAttribute('data-caveats')).toBe(
      String(bars.querySelectorAll('.flag-mark').length),
    );
    expect(bars.querySelectorAll('.flag-mark')).toHaveLength(1);
    expect(txt(screen.getByTestId('chart-compare-bars-note'))).toBe(
      txt(bars.nextElementSibling).replace('Hatched bar (!)', 'Hatched bar'),
    );
    unmount();
    // nginx alone: its cells are clean (a note), so no chart speaks of a figure not the server's.
    const clean = { ...c, outcomes: c.outcomes.filter((o) => o.coordinates.targetIndex === 0) };
    render(
      <ComparisonReport
        shownColumns={null}
        onColumns={() => {}}
        plan={clean.plan}
        outcomes={clean.outcomes}
        status="completed"
        onOpenRun={() => {}}
      />,
    );
    expect(screen.queryByTestId('chart-compare-bars-note')).toBeNull();
    expect(screen.getByTestId('chart-compare-bars').getAttribute('data-caveats')).toBe('0');
    const cleanDoc = htmlDoc(filesOf(comparisonExport(clean)).html);
    expect(txt(cleanDoc.querySelector('[data-testid="comparison-verdicts"] p'))).toBe('Cells: 1 clean');
    expect(txt(cleanDoc.querySelector('.charts'))).not.toMatch(/not the server/);
  });
});

describe('one capacity search in every view and export', () => {
  const search = capacitySearch();
  const reports = capacityReports(search.plan, search.steps, null);

  it('shows each step and the answer the same in the app, the text report, the CSV and the HTML', () => {
    render(<CapacityResults result={search} reports={reports} running={null} name="capacity of two" />);
    const files = filesOf(capacityExport(search));
    const text = files['report.txt']!;
    const doc = htmlDoc(files.html);
    const sentence = txt(screen.getByTestId('capacity-answer'));
    expect(sentence).toBe(
      'nginx holds at least 1,200 req/s (stopped), apache: no rate (not even 400 req/s held) at p99 < 10 ms',
    );
    expect(text.trimEnd().split('\n').at(-1)).toBe(sentence);
    expect(txt(doc.querySelector('[data-testid="capacity-answer"]'))).toBe(sentence);
    const steps = csv(files['steps.csv']);
    for (const index of [0, 1]) {
      const ui = [...screen.getByTestId(`capacity-steps-${index}`).querySelectorAll('tbody tr')].map((r) =>
        [...r.children].slice(1, 8).map(txt),
      );
      const html = [...doc.querySelectorAll(`[data-testid="capacity-steps-${index}"] tbody tr`)].map((r) =>
        [...r.children].slice(1, 8).map(txt),
      );
      expect(html).toEqual(ui);
      for (const [rate, phase, achieved, p50, p99, errors, non2xx] of ui) {
        // The text report's curve lists the same step, figure by figure.
        expect(text).toContain(`${rate}  ${phase}`);
        expect(text).toMatch(
          new RegExp(`${rate}  ${phase} +${achieved} +${p50} +${p99} +${errors} +${non2xx}`),
        );
        const row = steps.find(
          (s) =>
            s.target === reports[index]!.label &&
            `${num(s['rate (req/s)']!).toLocaleString('en-US')} req/s` === rate,
        )!;
        expect(num(row['achieved (req/s)']!).toFixed(1)).toBe(num(achieved!).toFixed(1));
      }
    }
  });
});

describe('each word that names what limited a run, in every view and export (issue 32)', () => {
  const cases = limitedRuns();

  it.each(cases.map((c) => [c.label, c] as const))(
    '%s: the report, every text layout, the JSON, the CSV, the HTML, History and --fail-unless-clean',
    (_label, { state, result, label }) => {
      const word = wordOf(state);
      const v = runVerdict(result);
      expect(v.state).toBe(state);
      const { unmount } = render(<RunReport results={[result]} name="limited" />);
      expect(txt(screen.getByTestId('verdict-state'))).toBe(word);
      // The reason is on screen (the closed model's note too).
      expect(txt(screen.getByTestId('verdict'))).toContain(v.caveats[0]!.message);
      unmount();
      const files = filesOf(runExport({ name: 'limited', results: [result] }));
      const json = JSON.parse(files.json!) as {
        verdict: { word: string; reasons: { code: string; message: string }[] };
      };
      expect(json.verdict.word).toBe(word);
      expect(json.verdict.reasons.map((r) => r.message)).toContain(v.caveats[0]!.message);
      const [row] = csv(files['summary.csv']);
      expect(wordOf(row!.verdict!)).toBe(word);
      expect(row!.caveats).toContain(label);
      const doc = htmlDoc(files.html);
      expect(txt(doc.querySelector('[data-testid="run-1-verdict"] strong'))).toBe(`Verdict: ${word}`);
      expect(txt(doc.querySelector('[data-testid="run-1-verdict"]'))).toContain(v.caveats[0]!.message);
      const heading = v.clean ? 'Verdict: clean, with notes' : `Verdict: ${word.toUpperCase()}`;
      for (const layout of ['text', 'ab', 'vegeta', 'jmeter', 'http_load'] as const) {
        const text = renderReport([result], layout);
        expect(text, layout).toContain(`${heading}\n`);
        expect(text, layout).toContain(v.caveats[0]!.message);
      }
      const record = historyRecordSchema.parse({
        format: 'trebuchet-run',
        version: 3,
        id: 'limited',
        name: 'limited',
        createdAt: '2026-01-05T10:00:00.000Z',
        appVersion: '9.9.9',
        status: 'completed',
        generator: result.generator,
        kind: 'run',
        scenario: scenarioSchema.parse({ targets: [{ url: result.target.url }] }),
        results: [result],
      });
      expect(summarizeRecord(record, 1).verdict?.word).toBe(word);
      const gate = { interrupted: false, hostError: false, failUnlessClean: true };
      expect(exitCodeFor([result], gate)).toBe(v.clean ? 0 : 1);
    },
  );

  it('names each in the matrix, its notes, the text matrix, the matrix CSV and the HTML matrix', () => {
    const c = comparisonOfLimits();
    render(
      <ComparisonReport
        shownColumns={null}
        onColumns={() => {}}
        plan={c.plan}
        outcomes={c.outcomes}
        status="completed"
        onOpenRun={() => {}}
      />,
    );
    const files = filesOf(comparisonExport(c));
    const doc = htmlDoc(files.html);
    const head = [...doc.querySelectorAll('[data-testid="matrix"] thead th')].map(txt);
    const htmlRows = [...doc.querySelectorAll('[data-testid="matrix"] tbody tr')];
    const matrixCsv = csv(files['matrix.csv']);
    const text = renderComparisonReport(c, null);
    for (const [i, { state }] of cases.entries()) {
      const target = c.plan.targets[i]!.name;
      const summary = verdictSummary(cellVerdict([c.outcomes[i]!.result]));
      expect(summary.startsWith(wordOf(state))).toBe(true);
      const row = screen
        .getAllByTestId('comparison-cell')
        .find((r) => r.getAttribute('data-target') === target)!;
      expect(txt(within(row).getByTestId('cell-verdict'))).toBe(summary);
      const html = htmlRows.find((r) => txt(r.children[1]) === target)!;
      expect(txt(html.children[head.indexOf('verdict')])).toBe(summary);
      // The text matrix marks a figure that is not the server's with '!'.
      expect(text).toMatch(
        new RegExp(`^${state === 'clean' ? ' ' : '!'}\\s+${target}\\s.*  ${summary}$`, 'm'),
      );
      expect(wordOf(matrixCsv.find((r) => r.target === target)!.verdict!)).toBe(wordOf(state));
    }
  });
});
