/**
 * A staged run's table, one row per stage: the same columns in the CLI's text report, the
 * CSV, the HTML report and the app's report.
 */
import type { RunResult, StageResult } from '../model/result.ts';
import { csvRows, type CsvValue } from './csv.ts';
import { type LabelledResult } from './labels.ts';
import { alignColumns } from './table.ts';
import { fixed, formatCount, formatGrouped } from '../figures/units.ts';

/** One column: its heading and text, and its CSV columns (plain numbers, units in the headings). */
interface StageColumn {
  head: string;
  text: (s: StageResult, unit: string) => string;
  csvHeads: readonly string[];
  csv: (s: StageResult) => CsvValue[];
}

const ms = (v: number | undefined): string => (v === undefined ? '–' : formatGrouped(v, 3));

const ramp = (s: StageResult, unit: string): string =>
  s.from === s.to ? `${formatCount(s.to)} ${unit}` : `${formatCount(s.from)} → ${formatCount(s.to)} ${unit}`;

export const STAGE_COLUMNS: readonly StageColumn[] = [
  { head: 'stage', text: (s) => String(s.index + 1), csvHeads: ['stage'], csv: (s) => [s.index + 1] },
  {
    head: 'time (s)',
    text: (s) => `${formatGrouped(s.startSeconds, 1)}-${formatGrouped(s.endSeconds, 1)}`,
    csvHeads: ['start (s)', 'end (s)'],
    csv: (s) => [s.startSeconds, s.endSeconds],
  },
  { head: 'target', text: ramp, csvHeads: ['target from', 'target to'], csv: (s) => [s.from, s.to] },
  {
    head: 'planned',
    text: (s) => (s.planned === null ? '–' : fixed(s.planned, 0)),
    csvHeads: ['planned'],
    csv: (s) => [s.planned],
  },
  {
    head: 'requests',
    text: (s) => formatCount(s.requests),
    csvHeads: ['requests'],
    csv: (s) => [s.requests],
  },
  {
    head: 'req/s',
    text: (s) => formatGrouped(s.requestsPerSecond, 1),
    csvHeads: ['rate (req/s)'],
    csv: (s) => [s.requestsPerSecond],
  },
  {
    head: 'p50 ms',
    text: (s) => ms(s.latency?.p50),
    csvHeads: ['latency p50 (ms)'],
    csv: (s) => [s.latency?.p50],
  },
  {
    head: 'p99 ms',
    text: (s) => ms(s.latency?.p99),
    csvHeads: ['latency p99 (ms)'],
    csv: (s) => [s.latency?.p99],
  },
  { head: 'errors', text: (s) => formatCount(s.errors), csvHeads: ['errors'], csv: (s) => [s.errors] },
  { head: 'non-2xx', text: (s) => formatCount(s.non2xx), csvHeads: ['non-2xx'], csv: (s) => [s.non2xx] },
];

/** What a staged run's targets count. */
export const stageUnit = (r: RunResult): string => (r.load.model === 'closed' ? 'conn.' : 'req/s');

/** The stage table's heading and rows as text; null for a run without stages. */
export function stageTable(r: RunResult): { head: string[]; rows: string[][] } | null {
  if (!r.stages || r.stages.length === 0) return null;
  const unit = stageUnit(r);
  return {
    head: STAGE_COLUMNS.map((c) => c.head),
    rows: r.stages.map((s) => STAGE_COLUMNS.map((c) => c.text(s, unit))),
  };
}

/** The text report's "Stages:" block; empty for a run without stages. */
export function stagesReportText(r: RunResult): string {
  const table = stageTable(r);
  if (!table) return '';
  const lines = alignColumns([table.head, ...table.rows], 1);
  return ['Stages:', ...lines.map((l) => `  ${l}`)].join('\n') + '\n';
}

/** One row per stage of every staged result (the heading only when none is staged). */
export function stagesCsv(results: readonly LabelledResult[]): string {
  const head = ['target', ...STAGE_COLUMNS.flatMap((c) => c.csvHeads)];
  const rows = results.flatMap(({ label, result }) =>
    (result.stages ?? []).map((s) => [label, ...STAGE_COLUMNS.flatMap((c) => c.csv(s))]),
  );
  return csvRows([head, ...rows]);
}
