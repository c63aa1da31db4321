/** Capacity searches as text: a line per step as it ends, and the report of every search. */
import {
  capacitySentence,
  goalText,
  JUDGEMENT_LABELS,
  judgementDetail,
  msText,
  rateText,
} from '../capacity/search.ts';
import type { ReportedStep, SearchReport } from '../capacity/report.ts';
import { alignColumns } from './table.ts';
import { fixed, formatGrouped } from './units.ts';

const ms = (v: number | null): string => (v === null ? '-' : msText(v));
const pct = (v: number): string => `${fixed(v, v > 0 && v < 0.1 ? 2 : 1)}%`;

/**
 * "nginx · step 3 · 400 req/s (doubling): held · 399.9 req/s, p50 5.21 ms, p99 6.10 ms,
 * errors 0.0%", and why on the next line when it did not hold.
 */
export function formatStepLine(label: string, stepIndex: number, step: ReportedStep): string {
  const f = step.figures;
  const head = `${label} · step ${stepIndex + 1} · ${rateText(step.rate)} (${step.phase}): ${JUDGEMENT_LABELS[step.judgement.kind]}`;
  const figures = `${formatGrouped(f.achievedRps, 1)} req/s, p50 ${ms(f.p50)}, p99 ${ms(f.p99)}, errors ${pct(f.errorPercent)}, non-2xx ${pct(f.non2xxPercent)}`;
  const reason = judgementDetail(step.judgement);
  return `${head} · ${figures}${reason ? `\n    ${reason}` : ''}`;
}

/** One search's steps in rising rate: the curve as a table. */
function curveTable(report: SearchReport): string[] {
  const rows = [...report.steps]
    .sort((a, b) => a.rate - b.rate)
    .map((s) => [
      rateText(s.rate),
      s.phase,
      `${formatGrouped(s.figures.achievedRps, 1)} req/s`,
      ms(s.figures.p50),
      ms(s.figures.p99),
      pct(s.figures.errorPercent),
      pct(s.figures.non2xxPercent),
      JUDGEMENT_LABELS[s.judgement.kind],
    ]);
  const head = ['rate', 'phase', 'achieved', 'p50', 'p99', 'errors', 'non-2xx', 'step'];
  return alignColumns([head, ...rows], (i) => i === 1 || i === 7).map((line) => `  ${line}`);
}

/**
 * Every search's answer and curve, then one sentence for all: "nginx holds 1,950 req/s,
 * Apache 980 req/s at p99 < 10 ms".
 */
export function formatCapacityReport(reports: readonly SearchReport[]): string {
  const first = reports[0];
  if (!first) return '';
  const goal = first.search.goal;
  const lines = [
    `Capacity at ${goalText(goal)}, errors and non-2xx at most ${pct(goal.errorPercent)} each`,
    '',
  ];
  for (const r of reports) {
    lines.push(`${r.label}: ${r.answer?.message ?? 'not finished'}`);
    if (r.steps.length > 0) lines.push(...curveTable(r));
    lines.push('');
  }
  const answered = reports.flatMap((r) => (r.answer ? [{ label: r.label, answer: r.answer }] : []));
  if (answered.length > 0) lines.push(capacitySentence(goal, answered));
  return `${lines.join('\n')}\n`;
}
