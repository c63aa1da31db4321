import { cellKey, type CellOutcome } from './cells.ts';
import { summarizeRepetitions, type RepetitionSummary } from './stats.ts';
import {
  comparisonTargetLabel,
  levelKindOf,
  type ComparisonPlan,
  type LevelKind,
  type ProtocolVariant,
} from './plan.ts';
import { REPORT_PERCENTILES } from '../model/defaults.ts';
import type { RunResult } from '../model/result.ts';

/* What a comparison's report draws: the table of cells, percentile tables, scaling series. */

/** One cell of the table: a target at a protocol and a level, over its repetitions. */
export interface CellAggregate extends RepetitionSummary {
  key: string;
  targetIndex: number;
  target: string;
  protocol: ProtocolVariant;
  level: number;
  /** Repetitions the plan asked for. */
  planned: number;
}

export interface ComparisonTable {
  name: string;
  levelKind: LevelKind;
  targets: string[];
  protocols: ProtocolVariant[];
  levels: number[];
  repetitions: number;
  /**
   * Every cell of the plan in level, protocol, target order (plan order within each),
   * including cells without results yet (runs 0, figures null) so a stopped or running
   * comparison shows its whole matrix.
   */
  cells: CellAggregate[];
}

/** Groups cell runs by target, protocol and level and summarises each group across repetitions. */
export function aggregateComparison(plan: ComparisonPlan, outcomes: readonly CellOutcome[]): ComparisonTable {
  const byKey = new Map<string, RunResult[]>();
  for (const o of outcomes) {
    const k = cellKey(o.coordinates);
    const list = byKey.get(k);
    if (list) list.push(o.result);
    else byKey.set(k, [o.result]);
  }
  const targets = plan.targets.map(comparisonTargetLabel);
  const cells: CellAggregate[] = [];
  for (const level of plan.levels) {
    for (const protocol of plan.protocols) {
      targets.forEach((target, targetIndex) => {
        const key = cellKey({ targetIndex, protocol, level });
        cells.push({
          key,
          targetIndex,
          target,
          protocol,
          level,
          planned: plan.repetitions,
          ...summarizeRepetitions(byKey.get(key) ?? []),
        });
      });
    }
  }
  return {
    name: plan.name,
    levelKind: levelKindOf(plan.load),
    targets,
    protocols: [...plan.protocols],
    levels: [...plan.levels],
    repetitions: plan.repetitions,
    cells,
  };
}

/** The cell at a target, protocol and level; undefined when the table has none. */
export function cellAt(
  table: ComparisonTable,
  c: { targetIndex: number; protocol: ProtocolVariant; level: number },
): CellAggregate | undefined {
  const key = cellKey(c);
  return table.cells.find((cell) => cell.key === key);
}

// ---------------------------------------------------------------------------------------
// Percentile table (seed 001: one column per server, ab's percentiles as rows)

export interface PercentileTable {
  /** Column headings: one per server. */
  columns: string[];
  /** One row per percentile; values in ms, null where a column has no latency. */
  rows: { percentile: number; label: string; values: (number | null)[] }[];
}

function buildPercentileTable(
  columns: { label: string; percentiles: Record<string, number> }[],
  percentiles: readonly number[],
): PercentileTable {
  return {
    columns: columns.map((c) => c.label),
    rows: percentiles.map((p) => ({
      percentile: p,
      label: `${p}%`,
      values: columns.map((c) => c.percentiles[String(p)] ?? null),
    })),
  };
}

/**
 * A percentile table from runs: one column per entry, each the mean over its runs (e.g.
 * one plain run with three targets gives three columns of one run each).
 */
export function percentileTable(
  columns: readonly { label: string; results: readonly RunResult[] }[],
  percentiles: readonly number[] = REPORT_PERCENTILES,
): PercentileTable {
  return buildPercentileTable(
    columns.map((c) => ({ label: c.label, percentiles: summarizeRepetitions(c.results).percentiles })),
    percentiles,
  );
}

/** The comparison's percentile table at one protocol and level: one column per target. */
export function comparisonPercentileTable(
  table: ComparisonTable,
  at: { protocol: ProtocolVariant; level: number },
  percentiles: readonly number[] = REPORT_PERCENTILES,
): PercentileTable {
  const columns = table.targets.map((label, targetIndex) => ({
    label,
    percentiles: cellAt(table, { targetIndex, ...at })?.percentiles ?? {},
  }));
  return buildPercentileTable(columns, percentiles);
}

// ---------------------------------------------------------------------------------------
// Scaling series (req/s and p99 against the level), also the data of the grouped bar chart

export interface ScalingPoint {
  level: number;
  /** Mean req/s across repetitions and its spread; null before the cell has results. */
  rps: number | null;
  rpsStdev: number | null;
  /** Mean p99 latency in ms. */
  p99: number | null;
}

export interface ScalingSeries {
  targetIndex: number;
  protocol: ProtocolVariant;
  /** "nginx" with one protocol, "nginx · https" with several. */
  label: string;
  /** Ascending level. */
  points: ScalingPoint[];
}

/** One series per target and protocol, points in ascending level order. */
export function scalingSeries(table: ComparisonTable): ScalingSeries[] {
  const levels = [...table.levels].sort((a, b) => a - b);
  const series: ScalingSeries[] = [];
  for (const protocol of table.protocols) {
    table.targets.forEach((target, targetIndex) => {
      series.push({
        targetIndex,
        protocol,
        label: table.protocols.length > 1 ? `${target} · ${protocol}` : target,
        points: levels.map((level) => {
          const cell = cellAt(table, { targetIndex, protocol, level });
          return {
            level,
            rps: cell?.figures.rps?.mean ?? null,
            rpsStdev: cell?.figures.rps?.stdev ?? null,
            p99: cell?.figures.p99?.mean ?? null,
          };
        }),
      });
    });
  }
  return series;
}
