import { matrixCells } from './matrix.ts';
import type { CellOutcome } from './cells.ts';
import type { ComparisonTable } from './table.ts';
import { levelLabel, type ProtocolVariant } from './plan.ts';
import { numberFormat, textFormat, type ColumnValue } from './column-format.ts';
import type { RunResult } from '../model/result.ts';
import { timePerRequestAcrossMs, timePerRequestMs } from '../verdict/run-figures.ts';
import { runVerdict, verdictSummary, type Verdict } from '../verdict/verdict.ts';

/* The per-repetition table (seed 002's Résumé): each run's time taken, req/s and time per request. Pure. */

export interface RepetitionRow {
  key: string;
  targetIndex: number;
  target: string;
  protocol: ProtocolVariant;
  level: number;
  /** "c=30", "1000 req/s". */
  levelText: string;
  /** 1-based. */
  repetition: number;
  result: RunResult;
  verdict: Verdict;
}

export interface RepetitionColumn {
  id: 'status' | 'timeTaken' | 'rps' | 'timePerRequest' | 'timePerRequestAcross' | 'p99' | 'verdict';
  label: string;
  unit: string;
  value(row: RepetitionRow): ColumnValue;
  format(value: ColumnValue): string;
}

/** Each run's time taken, req/s and ab's two times per request, with its verdict. */
export const REPETITION_COLUMNS: readonly RepetitionColumn[] = [
  { id: 'status', label: 'status', unit: '', value: (r) => r.result.status, format: textFormat },
  {
    id: 'timeTaken',
    label: 'time taken s',
    unit: 's',
    value: (r) => r.result.durationSeconds,
    format: numberFormat(3),
  },
  {
    id: 'rps',
    label: 'req/s',
    unit: 'req/s',
    value: (r) => r.result.throughput.requestsPerSecond,
    format: numberFormat(2),
  },
  {
    id: 'timePerRequest',
    label: 'time/req ms',
    unit: 'ms',
    value: (r) => timePerRequestMs(r.result),
    format: numberFormat(3),
  },
  {
    id: 'timePerRequestAcross',
    label: 'time/req all ms',
    unit: 'ms',
    value: (r) => timePerRequestAcrossMs(r.result),
    format: numberFormat(3),
  },
  {
    id: 'p99',
    label: 'p99 ms',
    unit: 'ms',
    value: (r) => r.result.latency?.percentiles['99'] ?? null,
    format: numberFormat(3),
  },
  { id: 'verdict', label: 'verdict', unit: '', value: (r) => verdictSummary(r.verdict), format: textFormat },
];

/** One row per run, grouped by cell (plan order), repetitions in order. */
export function repetitionRows(table: ComparisonTable, outcomes: readonly CellOutcome[]): RepetitionRow[] {
  return matrixCells(table, outcomes).flatMap((cell) =>
    cell.outcomes.map(({ coordinates, result }) => ({
      key: `${cell.key}|${coordinates.repetition}`,
      targetIndex: cell.targetIndex,
      target: cell.target,
      protocol: cell.protocol,
      level: cell.level,
      levelText: levelLabel(table.levelKind, cell.level),
      repetition: coordinates.repetition + 1,
      result,
      verdict: runVerdict(result),
    })),
  );
}
