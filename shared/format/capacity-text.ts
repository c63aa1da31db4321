/** Capacity searches as text: a line per step as it ends, and the report of every search. */
import {
  capacitySentence,
  goalText,
  JUDGEMENT_LABELS,
  judgementDetail,
  msText,
  rateText,
} from '../capacity/search.ts';
import { curveOf, stepLabel, type ReportedStep, type SearchReport } from '../capacity/report.ts';
import type { CapacityProgress } from '../capacity/job.ts';
import { otherProcessesText } from '../machine/readings.ts';
import { alignColumns } from './table.ts';
import { fixed, formatGrouped } from '../figures/units.ts';

const ms = (v: number | null): string => (v === null ? '-' : msText(v));
const pct = (v: number): string => `${fixed(v, v > 0 && v < 0.1 ? 2 : 1)}%`;

/** A step's figures as every table of steps shows them: the app's, the text report's, the HTML's. */
export interface StepTexts {
  rate: string;
  phase: string;
  achieved: string;
  p50: string;
  p99: string;
  errors: string;
  non2xx: string;
  judgement: string;
  /** Why it was judged so, when there is more to say than its label. */
  why: string | null;
}

export function stepTexts(step: ReportedStep): StepTexts {
  const f = step.figures;
  return {
    rate: rateText(step.rate),
    phase: step.phase,
    achieved: `${formatGrouped(f.achievedRps, 1)} req/s`,
    p50: ms(f.p50),
    p99: ms(f.p99),
    errors: pct(f.errorPercent),
    non2xx: pct(f.non2xxPercent),
    judgement: JUDGEMENT_LABELS[step.judgement.kind],
    why: judgementDetail(step.judgement),
  };
}

/**
 * "nginx · step 3 · 400 req/s (doubling): held · 399.9 req/s, p50 5.21 ms, p99 6.10 ms,
 * errors 0.0%", and why on the next line when it did not hold.
 */
export function formatStepLine(label: string, stepIndex: number, step: ReportedStep): string {
  const t = stepTexts(step);
  const head = `${stepLabel(label, stepIndex, step.rate)} (${t.phase}): ${t.judgement}`;
  const figures = `${t.achieved}, p50 ${t.p50}, p99 ${t.p99}, errors ${t.errors}, non-2xx ${t.non2xx}`;
  return `${head} · ${figures}${t.why ? `\n    ${t.why}` : ''}`;
}

/** The heading of a steps table, in its columns' order. */
export const STEP_COLUMNS = ['rate', 'phase', 'achieved', 'p50', 'p99', 'errors', 'non-2xx', 'step'] as const;

/** One search's steps in rising rate: the curve as a table. */
function curveTable(report: SearchReport): string[] {
  const rows = curveOf(report).map((s) => {
    const t = stepTexts(s);
    return [t.rate, t.phase, t.achieved, t.p50, t.p99, t.errors, t.non2xx, t.judgement];
  });
  return alignColumns([[...STEP_COLUMNS], ...rows], (i) => i === 1 || i === 7).map((line) => `  ${line}`);
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

/**
 * A capacity search's wait for a busy machine, as the CLI and the Capacity tab say it: "the
 * machine was busy at 1,600 req/s: waiting up to 24 s for it to calm", then "the machine
 * calmed after 6 s" or "the machine stayed busy for 24 s (other processes 96% of its cores:
 * yes (pid 4242) 97.0%)".
 */
export function machineWaitText(
  p: Extract<CapacityProgress, { type: 'machine-wait' | 'machine-calm' }>,
): string {
  if (p.type === 'machine-wait') {
    return `the machine was busy at ${rateText(p.rate)}: waiting up to ${fixed(p.maxSeconds, 0)} s for it to calm before measuring it again`;
  }
  const waited = fixed(p.waitedSeconds, 0);
  if (p.calm) return `the machine calmed after ${waited} s: measuring again`;
  const who = p.busiest.length > 0 ? `: ${otherProcessesText(p.busiest)}` : '';
  return `the machine stayed busy for ${waited} s (other processes ${fixed(p.otherPercent, 0)}% of its cores${who}): measuring again anyway`;
}
