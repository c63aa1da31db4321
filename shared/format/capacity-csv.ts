/**
 * Capacity searches as CSV: one row per step (in the order they ran) and one row per search's
 * answer. Numbers plain, text neutralised (shared/format/csv.ts). Pure.
 */
import type { SearchReport } from '../capacity/report.ts';
import { JUDGEMENT_LABELS, judgementDetail } from '../capacity/search.ts';
import { runVerdict } from '../verdict/verdict.ts';
import { csvRows } from './csv.ts';

/** Every step of every search: its rate, phase, figures, judgement and why, and its run's verdict. */
export function capacityStepsCsv(reports: readonly SearchReport[]): string {
  const header = [
    'target',
    'step',
    'rate (req/s)',
    'phase',
    'achieved (req/s)',
    'latency p50 (ms)',
    'latency p99 (ms)',
    'errors (%)',
    'non-2xx (%)',
    'judgement',
    'why',
    'verdict',
  ];
  const rows = reports.flatMap((r) =>
    r.steps.map((s, i) => [
      r.label,
      i + 1,
      s.rate,
      s.phase,
      s.figures.achievedRps,
      s.figures.p50,
      s.figures.p99,
      s.figures.errorPercent,
      s.figures.non2xxPercent,
      JUDGEMENT_LABELS[s.judgement.kind],
      judgementDetail(s.judgement),
      runVerdict(s.result).state,
    ]),
  );
  return csvRows([header, ...rows]);
}

/** Each search's answer against its goal: the rate that held, whether it is exact, why it stopped. */
export function capacityAnswersCsv(reports: readonly SearchReport[]): string {
  const header = [
    'target',
    'goal p99 (ms)',
    'error limit (%)',
    'held rate (req/s)',
    'exact',
    'stop',
    'limit rate (req/s)',
    'steps',
    'answer',
  ];
  const rows = reports.map((r) => [
    r.label,
    r.search.goal.p99Ms,
    r.search.goal.errorPercent,
    r.answer?.heldRate,
    r.answer?.exact,
    r.answer?.stop ?? 'not finished',
    r.answer?.limitRate,
    r.steps.length,
    r.answer?.message ?? 'not finished',
  ]);
  return csvRows([header, ...rows]);
}
