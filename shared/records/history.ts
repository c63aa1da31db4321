import { z } from 'zod';
import { capacityPlanSchema, capacityStepSchema } from '../capacity/plan.ts';
import { whatRan } from './what-ran.ts';
import { capacityReports } from '../capacity/report.ts';
import { answerShort } from '../capacity/search.ts';
import { LIMITS } from '../model/defaults.ts';
import { cellOutcomeSchema } from '../comparison/cells.ts';
import { comparisonPlanSchema, comparisonTargetLabel } from '../comparison/plan.ts';
import {
  generatorFactsSchema,
  runResultSchema,
  runStatusSchema,
  type RunResult,
  type RunStatus,
} from '../model/result.ts';
import { scenarioSchema, targetLabel } from '../model/scenario.ts';
import { isRecord, newerVersionIssue, parseWith, type Parsed } from '../model/validation.ts';
import { verdictTone, verdictWord, worstVerdict } from '../verdict/verdict.ts';

/*
 * A run kept in history: one file per finished or cancelled run, holding what is needed to
 * show its report again (scenario, comparison plan or capacity search, every RunResult with
 * its encoded histogram and samples, generator facts, app version).
 */

export const RUN_RECORD_FORMAT = 'trebuchet-run';
/** Version 2 added the capacity search's record; version 1 files (runs, comparisons) read as they are. */
export const RUN_RECORD_VERSION = 2;

export const historyIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'history id is malformed');

export const historyNameSchema = z
  .string({ error: 'name must be text' })
  .trim()
  .min(1, 'name is empty')
  .max(LIMITS.nameChars.max, `name is longer than ${LIMITS.nameChars.max} characters`);

const commonOf = <V extends number>(version: V) => ({
  format: z.literal(RUN_RECORD_FORMAT),
  version: z.literal(version),
  id: historyIdSchema,
  name: historyNameSchema,
  createdAt: z.string().refine((s) => !Number.isNaN(Date.parse(s)), 'must be a date and time (ISO 8601)'),
  appVersion: z.string(),
  /** cancelled: stopped by the user; the results keep what was measured. */
  status: runStatusSchema,
  /** The load generator's facts (from the first result; every run of a record shares the machine). */
  generator: generatorFactsSchema.nullable(),
});

/** The kinds both versions have. */
const runKindsOf = <V extends number>(version: V) =>
  [
    /** A plain run: one RunResult per target of the scenario, in target order. */
    z.strictObject({
      ...commonOf(version),
      kind: z.literal('scenario'),
      scenario: scenarioSchema,
      results: z.array(runResultSchema),
    }),
    /** A comparison: one outcome per finished cell run, in run order. */
    z.strictObject({
      ...commonOf(version),
      kind: z.literal('comparison'),
      plan: comparisonPlanSchema,
      outcomes: z.array(cellOutcomeSchema),
    }),
  ] as const;

export const runRecordV1Schema = z.discriminatedUnion('kind', runKindsOf(1));

export const runRecordSchema = z.discriminatedUnion('kind', [
  ...runKindsOf(RUN_RECORD_VERSION),
  /** A capacity search: every step's run, in run order (the answers are judged again from them). */
  z.strictObject({
    ...commonOf(RUN_RECORD_VERSION),
    kind: z.literal('capacity'),
    plan: capacityPlanSchema,
    steps: z.array(capacityStepSchema),
  }),
]);
export type RunRecord = z.infer<typeof runRecordSchema>;

/**
 * A record as stored, of any version this app reads, brought up to the current one: a
 * version 1 file is a version 2 record as it is. Issues name the fields of its own version.
 */
export function readRunRecord(raw: unknown): Parsed<RunRecord> {
  const newer = newerVersionIssue(
    raw,
    'saved run',
    RUN_RECORD_VERSION,
    isRecord(raw) ? raw.appVersion : undefined,
  );
  if (newer) return { ok: false, issues: [newer] };
  const v1 = (raw as { version?: unknown } | null)?.version === 1;
  if (!v1) return parseWith(runRecordSchema, raw);
  const r = parseWith(runRecordV1Schema, raw);
  return r.ok ? { ok: true, value: { ...r.value, version: RUN_RECORD_VERSION } } : r;
}

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
    }
  | {
      kind: 'capacity';
      name?: string;
      status: RunStatus;
      appVersion: string;
      plan: RunRecordOf<'capacity'>['plan'];
      steps: RunRecordOf<'capacity'>['steps'];
    };

export type RunRecordOf<K extends RunRecord['kind']> = Extract<RunRecord, { kind: K }>;

/** The results of a record (or of a draft), whatever its kind. */
export function resultsOf(
  record:
    | { kind: 'scenario'; results: RunResult[] }
    | { kind: 'comparison'; outcomes: readonly { result: RunResult }[] }
    | { kind: 'capacity'; steps: readonly { result: RunResult }[] },
): RunResult[] {
  switch (record.kind) {
    case 'scenario':
      return record.results;
    case 'comparison':
      return record.outcomes.map((o) => o.result);
    case 'capacity':
      return record.steps.map((s) => s.result);
  }
}

/** One line of the history list: read from a small index, without loading samples. */
export const historySummarySchema = z.strictObject({
  id: historyIdSchema,
  name: z.string(),
  createdAt: z.string(),
  status: runStatusSchema,
  kind: z.enum(['scenario', 'comparison', 'capacity']),
  appVersion: z.string(),
  /** Display names of the targets. */
  targets: z.array(z.string()),
  /** What ran ("5,000 req/s for 3 s"), read from the record's scenario or plan (shared/records/what-ran.ts). */
  ran: z.string(),
  /** RunResults in the record (one per target, or one per cell run). */
  results: z.number().int().nonnegative(),
  /**
   * Plain runs: req/s and p99 (ms) per target; capacity searches: the highest rate that held
   * per target (rps), the p99 at it and the answer in words (shared/capacity/search.ts
   * answerShort: "at least 2,000 req/s (the top rate)", never a bare rate for a lower bound);
   * for the list. Empty for comparisons.
   */
  perTarget: z.array(
    z.strictObject({
      target: z.string(),
      rps: z.number().nullable(),
      p99: z.number().nullable(),
      answer: z.string().optional(),
    }),
  ),
  /** Size of the record's file in bytes. */
  bytes: z.number().int().nonnegative(),
  /**
   * A run's or a comparison's verdict, the worst of its results' (verdict.ts's word and tone),
   * so the list marks "all non-2xx" where it would say "completed"; null for a capacity search,
   * whose steps beyond the goal are meant to break it.
   */
  verdict: z.strictObject({ word: z.string(), tone: z.enum(['good', 'note', 'bad']) }).nullable(),
  /** What it ran, for baselines (shared/records/baselines.ts subjectOf). */
  subject: z.string(),
  /** When its first part began (its earliest result's start); null without a result. */
  startedAt: z.string().nullable(),
  /**
   * Requests of its finished parts (each result's total: responses and transport errors); an
   * interrupted record's part cut short by the host stopping is left out.
   */
  requests: z.number().int().nonnegative(),
});
export type HistorySummary = z.infer<typeof historySummarySchema>;

/** What the history list shows per target of a record. */
function perTargetOf(record: RunRecord): HistorySummary['perTarget'] {
  switch (record.kind) {
    case 'scenario':
      return record.results.map((r) => ({
        target: targetLabel(r.target),
        rps: r.throughput.requestsPerSecond,
        p99: r.latency?.percentiles['99'] ?? null,
      }));
    case 'comparison':
      return [];
    case 'capacity':
      return capacityReports(record.plan, record.steps, null).map((report) => {
        const held = report.answer?.heldRate ?? null;
        return {
          target: report.label,
          rps: held,
          p99: report.steps.find((s) => s.rate === held)?.figures.p99 ?? null,
          answer: report.answer === null ? 'not measured' : answerShort(report.answer),
        };
      });
  }
}

function verdictOf(record: RunRecord): HistorySummary['verdict'] {
  if (record.kind === 'capacity') return null;
  const v = worstVerdict(resultsOf(record));
  return { word: verdictWord(v), tone: verdictTone(v) };
}

/** What a record ran, for baselines (shared/records/baselines.ts): "scenario · nginx static". */
export function subjectOf(record: RunRecord): string {
  return `${record.kind} · ${(record.kind === 'scenario' ? record.scenario : record.plan).name.trim()}`;
}

export function summarizeRecord(record: RunRecord, bytes: number): HistorySummary {
  const results = resultsOf(record);
  const targets =
    record.kind === 'comparison'
      ? record.plan.targets.map(comparisonTargetLabel)
      : (record.kind === 'scenario' ? record.scenario : record.plan).targets.map(targetLabel);
  return {
    id: record.id,
    name: record.name,
    createdAt: record.createdAt,
    status: record.status,
    kind: record.kind,
    appVersion: record.appVersion,
    targets,
    ran: whatRan(record),
    results: results.length,
    perTarget: perTargetOf(record),
    bytes,
    verdict: verdictOf(record),
    subject: subjectOf(record),
    startedAt: startedAtOf(results),
    requests: results.filter((r) => r.status !== 'interrupted').reduce((n, r) => n + r.requests.total, 0),
  };
}

/** The earliest start among results, as written; null without any. */
function startedAtOf(results: readonly RunResult[]): string | null {
  let first: { at: number; text: string } | null = null;
  for (const r of results) {
    const at = Date.parse(r.startedAt);
    if (!Number.isNaN(at) && (first === null || at < first.at)) first = { at, text: r.startedAt };
  }
  return first?.text ?? null;
}
