import { z } from 'zod';
import { capacityPlanSchema, capacityStepSchema } from '../capacity/plan.ts';
import { LIMITS } from '../model/defaults.ts';
import { cellOutcomeSchema } from '../comparison/cells.ts';
import { comparisonPlanSchema } from '../comparison/plan.ts';
import { jobKindSchema, type JobKind } from '../contract/jobs.ts';
import { generatorFactsSchema, runResultSchema, runStatusSchema, type RunStatus } from '../model/result.ts';
import { scenarioSchema } from '../model/scenario.ts';
import { isRecord, newerVersionIssue, parseWith, type Parsed } from '../model/validation.ts';

/*
 * A History record: one file per finished, cancelled or interrupted job of any kind (a run, a
 * comparison, a capacity search), holding what is needed to show its report again (its
 * scenario or plan, every part's result with its encoded histogram and samples, generator
 * facts, app version). What each kind's record holds and means is its spec's (kinds.ts).
 */

/** The files' format name, as written since the first version (when every record was a run). */
export const HISTORY_RECORD_FORMAT = 'trebuchet-run';
/**
 * Version 2 added the capacity search's record; 3 calls a plain run's record 'run', the job
 * kind's name (1 and 2 said 'scenario'). Older files read as they are, their run renamed.
 */
export const HISTORY_RECORD_VERSION = 3;

export const historyIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'history id is malformed');

export const historyNameSchema = z
  .string({ error: 'name must be text' })
  .trim()
  .min(1, 'name is empty')
  .max(LIMITS.nameChars.max, `name is longer than ${LIMITS.nameChars.max} characters`);

const commonOf = <V extends number>(version: V) => ({
  format: z.literal(HISTORY_RECORD_FORMAT),
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

/** A run's and a comparison's records, which every version has; `run`: what a run's kind is called. */
const runAndComparisonOf = <V extends number, R extends string>(version: V, run: R) =>
  [
    /** A plain run: one RunResult per target of the scenario, in target order. */
    z.strictObject({
      ...commonOf(version),
      kind: z.literal(run),
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

/** A capacity search: every step's run, in run order (the answers are judged again from them). */
const capacityOf = <V extends number>(version: V) =>
  z.strictObject({
    ...commonOf(version),
    kind: z.literal('capacity'),
    plan: capacityPlanSchema,
    steps: z.array(capacityStepSchema),
  });

// The versions before 3 named a run's record 'scenario': read, then renamed (readHistoryRecord).
const LEGACY_RUN = 'scenario';
const recordV1Schema = z.discriminatedUnion('kind', runAndComparisonOf(1, LEGACY_RUN));
const recordV2Schema = z.discriminatedUnion('kind', [...runAndComparisonOf(2, LEGACY_RUN), capacityOf(2)]);

export const historyRecordSchema = z.discriminatedUnion('kind', [
  ...runAndComparisonOf(HISTORY_RECORD_VERSION, 'run'),
  capacityOf(HISTORY_RECORD_VERSION),
]);
export type HistoryRecord = z.infer<typeof historyRecordSchema>;
export type HistoryRecordOf<K extends JobKind> = Extract<HistoryRecord, { kind: K }>;

/**
 * A record as stored, of any version this app reads, brought up to the current one: a
 * version 1 or 2 file is a version 3 record with its 'scenario' kind read as 'run'. Issues
 * name the fields of its own version.
 */
export function readHistoryRecord(raw: unknown): Parsed<HistoryRecord> {
  const newer = newerVersionIssue(
    raw,
    'saved run',
    HISTORY_RECORD_VERSION,
    isRecord(raw) ? raw.appVersion : undefined,
  );
  if (newer) return { ok: false, issues: [newer] };
  const was = isRecord(raw) ? raw.version : undefined;
  if (was !== 1 && was !== 2) return parseWith(historyRecordSchema, raw);
  const r = parseWith(was === 1 ? recordV1Schema : recordV2Schema, raw);
  if (!r.ok) return r;
  const v = r.value;
  // Spread, the fields keep the file's order, the kind in its place.
  const version = HISTORY_RECORD_VERSION;
  return { ok: true, value: v.kind === LEGACY_RUN ? { ...v, kind: 'run', version } : { ...v, version } };
}

/** What a caller hands the history store; it adds the format, id, creation time and generator facts. */
export type HistoryRecordDraft = {
  [K in JobKind]: Omit<
    HistoryRecordOf<K>,
    'format' | 'version' | 'id' | 'name' | 'createdAt' | 'generator'
  > & {
    name?: string;
    status: RunStatus;
  };
}[JobKind];

/** One line of the history list: read from a small index, without loading samples. */
export const historySummarySchema = z.strictObject({
  id: historyIdSchema,
  name: z.string(),
  createdAt: z.string(),
  status: runStatusSchema,
  kind: jobKindSchema,
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
