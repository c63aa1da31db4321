/**
 * Capacity searches in the HTML report: the answers in one sentence and one line each, the
 * knee (p99 against the throughput answered) and the highest rate each held as inline SVG,
 * every search's steps as the app's table shows them, the plan, and every step's run in full.
 */
import { curveOf, notTheServers, stepLabel, type SearchReport } from '../../capacity/report.ts';
import { capacitySentence, goalText } from '../../capacity/search.ts';
import type { CapacityPlan } from '../../capacity/plan.ts';
import type { ReportLayout } from '../../comparison/report-settings.ts';
import { targetLabel } from '../../model/scenario.ts';
import { runVerdict, verdictWord } from '../../verdict/verdict.ts';
import { STEP_COLUMNS, stepTexts } from '../capacity-text.ts';
import { formatGrouped } from '../../figures/units.ts';
import { esc } from './escape.ts';
import { optionFacts, runSection } from './run-section.ts';
import { barChart, lineChart } from './svg.ts';
import { factList, htmlTable } from './table.ts';

function answers(reports: readonly SearchReport[]): string {
  const goal = reports[0]?.search.goal;
  const answered = reports.flatMap((r) => (r.answer ? [{ label: r.label, answer: r.answer }] : []));
  if (!goal || answered.length === 0) return '<p class="muted">No search has an answer yet.</p>';
  const items = reports.map(
    (r) =>
      `<li class="${r.answer?.exact === false ? 'warn' : 'good'}"><strong>${esc(r.label)}</strong>: ${esc(r.answer?.message ?? 'not finished')}</li>`,
  );
  return (
    `<div class="verdict good"><p data-testid="capacity-answer"><strong>${esc(capacitySentence(goal, answered))}</strong></p>` +
    `<ul>${items.join('')}</ul></div>`
  );
}

/** What a chart's marks mean, only under a chart that has one. */
const note = (marked: boolean, text: string): string =>
  marked ? `<p class="muted chart-note">${esc(text)}</p>` : '';

function charts(reports: readonly SearchReport[]): string {
  const limited = reports.some((r) => r.steps.some(notTheServers));
  const knee = lineChart({
    title: 'Latency against throughput (the knee): p99',
    xLabel: 'throughput answered (req/s)',
    yLabel: 'ms',
    series: reports.map((r) => ({
      label: r.steps.some(notTheServers) ? `${r.label} (!)` : r.label,
      points: curveOf(r).map((s) => [s.figures.achievedRps, s.figures.p99] as const),
      dashed: r.steps.some(notTheServers),
    })),
    testId: 'chart-capacity-knee',
    yFormat: (v) => `${formatGrouped(v, 3)} ms`,
  });
  const bounds = reports.filter((r) => r.answer?.exact === false).length;
  const held = barChart({
    title: 'Highest rate held within the goal',
    yLabel: 'req/s',
    xLabel: reports[0] ? goalText(reports[0].search.goal) : '',
    seriesLabels: reports.map((r) => r.label),
    groups: [
      {
        label: 'held',
        bars: reports.map((r) => ({
          value: r.answer?.heldRate ?? null,
          flagged: r.answer?.exact === false,
          ...(r.answer ? { note: r.answer.message } : {}),
        })),
      },
    ],
    testId: 'chart-capacity-held',
    yFormat: (v) => `${formatGrouped(v, 0)} req/s`,
  });
  return (
    knee +
    note(
      limited,
      'Dashed line (!): a step the client or a busy machine limited; its figures are not the server’s.',
    ) +
    held +
    note(
      bounds > 0,
      'Hatched bar (!): a lower bound (the client was the limit, the top rate held, or the search was stopped).',
    )
  );
}

/** One search's steps in the order they ran, as the app's table shows them. */
function steps(report: SearchReport, index: number): string {
  if (report.steps.length === 0) return '';
  return (
    `<h4>${esc(report.label)}: ${report.steps.length} step${report.steps.length === 1 ? '' : 's'}</h4>` +
    htmlTable({
      head: ['#', ...STEP_COLUMNS],
      rows: report.steps.map((s, k) => {
        const t = stepTexts(s);
        const judgement = t.why ? `${t.judgement}: ${t.why}` : t.judgement;
        return [String(k + 1), t.rate, t.phase, t.achieved, t.p50, t.p99, t.errors, t.non2xx, judgement];
      }),
      numeric: (i) => i >= 3 && i <= 7,
      rowHeaders: 1,
      testId: `capacity-steps-${index}`,
    })
  );
}

function planFacts(plan: CapacityPlan): string {
  const s = plan.search;
  return (
    `<h3>Plan</h3>` +
    factList([
      ...plan.targets.map((t): [string, string] => [targetLabel(t), `${t.method} ${t.url}`]),
      ['Goal', `${goalText(s.goal)}, errors and non-2xx at most ${s.goal.errorPercent}% each`],
      ['Rates', `from ${formatGrouped(s.startRate, 0)} up to ${formatGrouped(s.maxRate, 0)} req/s`],
      ['Each step', `${s.stepSeconds} s measured after ${s.warmupSeconds} s warm-up`],
      ['Max in flight', formatGrouped(plan.maxInFlight, 0)],
      ...optionFacts({ ...plan.options, warmupSeconds: s.warmupSeconds }),
    ])
  );
}

/** The capacity section: answers, charts, steps, the plan, every step's run (in `layout`'s text too). */
export function capacitySection(input: {
  plan: CapacityPlan;
  status: string | null;
  reports: readonly SearchReport[];
  layout: ReportLayout;
}): string {
  const { reports } = input;
  let n = 0;
  const runs = reports.flatMap((r) =>
    r.steps.map((s, k) => {
      n++;
      const label = stepLabel(r.label, k, s.rate);
      return (
        `<details class="cell-run"><summary>${esc(label)} — ${esc(verdictWord(runVerdict(s.result)))}</summary>` +
        runSection(s.result, { id: `run-${n}`, heading: label, layout: input.layout }) +
        `</details>`
      );
    }),
  );
  const count = reports.reduce((k, r) => k + r.steps.length, 0);
  return (
    `<section class="capacity" data-testid="capacity">` +
    `<p class="muted">${esc(`${reports.length} search(es), ${count} step(s)${input.status ? ` · ${input.status}` : ''}`)}</p>` +
    answers(reports) +
    `<div class="charts">${charts(reports)}</div>` +
    reports.map(steps).join('') +
    planFacts(input.plan) +
    (runs.length > 0 ? `<h3>Every step</h3>${runs.join('\n')}` : '') +
    `</section>`
  );
}
