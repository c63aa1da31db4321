import { z } from 'zod';
import { LIMITS } from './defaults.ts';
import { cellOutcomeSchema } from './comparison-cells.ts';
import { summarizeRepetitions, type RepetitionSummary } from './comparison-stats.ts';
import { aggregateComparison } from './comparison-table.ts';
import { comparisonPlanSchema, comparisonTargetLabel, levelLabel } from './comparison.ts';
import {
  generatorFactsSchema,
  runResultSchema,
  runStatusSchema,
  type RunResult,
  type RunStatus,
} from './result.ts';
import { scenarioSchema, targetLabel } from './scenario.ts';

/*
 * A run kept in history: one file per finished or cancelled run, holding what is needed to
 * show its report again (scenario or comparison plan, every RunResult with its encoded
 * histogram and samples, generator facts, app version).
 */

export const RUN_RECORD_FORMAT = 'trebuchet-run';
export const RUN_RECORD_VERSION = 1;

export const historyIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'history id is malformed');

export const historyNameSchema = z
  .string({ error: 'name must be text' })
  .trim()
  .min(1, 'name is empty')
  .max(LIMITS.nameChars.max, `name is longer than ${LIMITS.nameChars.max} characters`);

const common = {
  format: z.literal(RUN_RECORD_FORMAT),
  version: z.literal(RUN_RECORD_VERSION),
  id: historyIdSchema,
  name: historyNameSchema,
  createdAt: z.string().refine((s) => !Number.isNaN(Date.parse(s)), 'must be a date and time (ISO 8601)'),
  appVersion: z.string(),
  /** cancelled: stopped by the user; the results keep what was measured. */
  status: runStatusSchema,
  /** The load generator's facts (from the first result; every run of a record shares the machine). */
  generator: generatorFactsSchema.nullable(),
};

export const runRecordSchema = z.discriminatedUnion('kind', [
  /** A plain run: one RunResult per target of the scenario, in target order. */
  z.object({
    ...common,
    kind: z.literal('scenario'),
    scenario: scenarioSchema,
    results: z.array(runResultSchema),
  }),
  /** A comparison: one outcome per finished cell run, in run order. */
  z.object({
    ...common,
    kind: z.literal('comparison'),
    plan: comparisonPlanSchema,
    outcomes: z.array(cellOutcomeSchema),
  }),
]);
export type RunRecord = z.infer<typeof runRecordSchema>;

/** What a caller hands the history store; it adds the format, id, creation time and generator facts. */
export type RunRecordDraft =
  | {
      kind: 'scenario';
      name?: string;
      status: RunStatus;
      appVersion: string;
      scenario: RunRecordOf<'scenario'>['scenario'];
      results: RunResult[];
    }
  | {
      kind: 'comparison';
      name?: string;
      status: RunStatus;
      appVersion: string;
      plan: RunRecordOf<'comparison'>['plan'];
      outcomes: RunRecordOf<'comparison'>['outcomes'];
    };

export type RunRecordOf<K extends RunRecord['kind']> = Extract<RunRecord, { kind: K }>;

/** The results of a record (or of a draft), whatever its kind. */
export function resultsOf(
  record:
    | { kind: 'scenario'; results: RunResult[] }
    | { kind: 'comparison'; outcomes: readonly { result: RunResult }[] },
): RunResult[] {
  return record.kind === 'scenario' ? record.results : record.outcomes.map((o) => o.result);
}

/** One line of the history list: read from a small index, without loading samples. */
export const historySummarySchema = z.object({
  id: historyIdSchema,
  name: z.string(),
  createdAt: z.string(),
  status: runStatusSchema,
  kind: z.enum(['scenario', 'comparison']),
  appVersion: z.string(),
  /** Display names of the targets. */
  targets: z.array(z.string()),
  /** RunResults in the record (one per target, or one per cell run). */
  results: z.number().int().nonnegative(),
  /** Plain runs: req/s and p99 (ms) per target, for the list; empty for comparisons. */
  perTarget: z.array(
    z.object({ target: z.string(), rps: z.number().nullable(), p99: z.number().nullable() }),
  ),
  /** Size of the record's file in bytes. */
  bytes: z.number().int().nonnegative(),
});
export type HistorySummary = z.infer<typeof historySummarySchema>;

export function summarizeRecord(record: RunRecord, bytes: number): HistorySummary {
  const targets =
    record.kind === 'scenario'
      ? record.scenario.targets.map(targetLabel)
      : record.plan.targets.map(comparisonTargetLabel);
  return {
    id: record.id,
    name: record.name,
    createdAt: record.createdAt,
    status: record.status,
    kind: record.kind,
    appVersion: record.appVersion,
    targets,
    results: resultsOf(record).length,
    perTarget:
      record.kind === 'scenario'
        ? record.results.map((r) => ({
            target: targetLabel(r.target),
            rps: r.throughput.requestsPerSecond,
            p99: r.latency?.percentiles['99'] ?? null,
          }))
        : [],
    bytes,
  };
}

/** A part of a record that can be compared with a part of another one. */
export interface ComparablePart {
  /** "nginx" for a plain run's target, "nginx · https · c=100" for a comparison cell. */
  label: string;
  summary: RepetitionSummary;
}

/**
 * The parts of a record to pick from when comparing two saved runs: each target of a
 * plain run (one run each, cancelled runs included: they are what the user kept), or each
 * cell of a comparison that has results (its repetitions give the spread).
 */
export function comparableParts(record: RunRecord): ComparablePart[] {
  if (record.kind === 'scenario') {
    return record.results.map((r) => ({
      label: targetLabel(r.target),
      summary: summarizeRepetitions([r], { includeCancelled: true }),
    }));
  }
  const table = aggregateComparison(record.plan, record.outcomes);
  const several = table.protocols.length > 1;
  return table.cells
    .filter((c) => c.runs > 0 || c.failures.length > 0)
    .map((c) => ({
      label: [c.target, ...(several ? [c.protocol] : []), levelLabel(table.levelKind, c.level)].join(' · '),
      summary: c,
    }));
}
