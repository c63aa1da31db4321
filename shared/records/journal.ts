/**
 * A job's journal: what a host appends to the data folder as a job runs (electron/jobs/journal/),
 * so a host that dies mid-job (kill -9, a crash, power lost) loses seconds, never a part. One
 * JSON value per line: the plan first, then per part its start, its engine samples in batches,
 * its result (without the samples, which the lines before it hold), and the job's end. Read
 * back line by line, each line checked strictly against its kind's schemas. Pure.
 */
import { z } from 'zod';
import {
  JOB_SPECS,
  jobIdSchema,
  jobKindSchema,
  withSamples,
  type JobKind,
  type PartResultOf,
  type PlanOf,
} from '../contract/jobs.ts';
import { shardPlacementSchema, type ShardPlacement } from '../distributed/placement.ts';
import { partSchema, type PartStarted } from '../model/job-spec.ts';
import {
  runStatusSchema,
  sampleSchema,
  type RunResult,
  type RunStatus,
  type Sample,
} from '../model/result.ts';
import type { Scenario } from '../model/scenario.ts';
import { SampleSeries } from '../figures/sample-series.ts';
import { parseWith, type FieldIssue, type Parsed } from '../model/validation.ts';

export const JOURNAL_VERSION = 1;

/** Engine samples written in one line at most: a flush every second holds a handful. */
export const MAX_SAMPLES_PER_LINE = 10_000;

const isoSchema = z
  .string()
  .refine((s) => !Number.isNaN(Date.parse(s)), 'must be a date and time (ISO 8601)');

/** Who writes the journal: a host whose process is gone (by pid, and its start on Linux) left it. */
export const journalWriterSchema = z.strictObject({
  pid: z.number().int().positive(),
  /** The process's start in clock ticks since boot (/proc/PID/stat), so a pid used again is told apart; null elsewhere. */
  startTicks: z.number().int().nonnegative().nullable(),
  /** The machine's name: a journal of another machine (a shared folder) is judged by its age alone. */
  host: z.string().max(255),
});
export type JournalWriter = z.infer<typeof journalWriterSchema>;

export const journalPlanLineSchema = z.strictObject({
  type: z.literal('plan'),
  version: z.literal(JOURNAL_VERSION),
  jobId: jobIdSchema,
  kind: jobKindSchema,
  /** The kind's plan, checked against it when read (JOB_SPECS). */
  plan: z.unknown(),
  shards: shardPlacementSchema.nullable(),
  /** Who started the job: a window, a page's client id, the CLI. */
  owner: z.string().min(1).max(256),
  appVersion: z.string().max(100),
  startedAt: isoSchema,
  writer: journalWriterSchema,
});
export type JournalPlanLine = z.infer<typeof journalPlanLineSchema>;

const lineSchema = z.discriminatedUnion('type', [
  journalPlanLineSchema,
  /** A part began its load (the kind's part-started progress). */
  z.strictObject({ type: z.literal('part'), at: isoSchema, progress: z.unknown() }),
  /** Engine samples of a part, in order (one at the last one's seq replaces it, as live). */
  z.strictObject({
    type: z.literal('samples'),
    part: partSchema,
    samples: z.array(sampleSchema).min(1).max(MAX_SAMPLES_PER_LINE),
  }),
  /** A part's result, its engine samples left out (the samples lines before it hold them). */
  z.strictObject({ type: z.literal('result'), part: partSchema, result: z.unknown() }),
  /** The job ended with this status; its record is saved next, and the journal then removed. */
  z.strictObject({ type: z.literal('end'), status: runStatusSchema, at: isoSchema }),
]);
export type JournalLine = z.input<typeof lineSchema>;

/** A part whose result the journal never got: the host stopped during its load. */
export interface CutPart<K extends JobKind = JobKind> {
  started: PartStarted & Record<string, unknown>;
  /** When its load began. */
  at: string;
  /** The scenario it ran and which target (JobSpec.partScenario). */
  scenario: Scenario;
  targetIndex: number;
  samples: Sample[];
  /** Its result made of the run rebuilt from the samples. */
  resultOf(run: RunResult): PartResultOf<K>;
}

/** What a journal holds, read back. */
export interface JournalContents<K extends JobKind = JobKind> {
  header: Omit<JournalPlanLine, 'plan' | 'kind' | 'shards'> & {
    kind: K;
    plan: PlanOf<K>;
    shards: ShardPlacement | null;
  };
  /** The parts that ended, in the order they did, each with its samples joined back. */
  finished: PartResultOf<K>[];
  /** The part running when the journal stops, when it had measured something. */
  cut: CutPart<K> | null;
  /** How the job ended, when it did (its record was then not saved: a full disk, a kill). */
  end: { status: RunStatus; at: string } | null;
}

// The one correlation TypeScript cannot make from a kind to its spec's functions.
const specOf = <K extends JobKind>(kind: K) =>
  JOB_SPECS[kind] as unknown as {
    plan: z.ZodType<PlanOf<K>>;
    progress: z.ZodType<{ type: string }>;
    result: z.ZodType<PartResultOf<K>>;
    partScenario(plan: PlanOf<K>, started: PartStarted): { scenario: Scenario; targetIndex: number };
    partResult(started: PartStarted, run: RunResult): PartResultOf<K>;
  };

const at = (line: number, issues: readonly FieldIssue[]): FieldIssue[] =>
  issues.map((i) => ({ path: `line ${line}${i.path ? `: ${i.path}` : ''}`, message: i.message }));

/**
 * A journal's lines (each already JSON-parsed, in order) as its contents. The lines are
 * checked one by one; the first that fails is named with its line number. A last line cut
 * short by the kill is the caller's to leave out (it is not JSON).
 */
export function readJournal(lines: readonly unknown[]): Parsed<JournalContents> {
  const head = parseWith(journalPlanLineSchema, lines[0]);
  if (!head.ok) return { ok: false, issues: at(1, head.issues) };
  const spec = specOf(head.value.kind);
  const plan = parseWith(spec.plan, head.value.plan);
  if (!plan.ok)
    return {
      ok: false,
      issues: at(
        1,
        plan.issues.map((i) => ({ ...i, path: `plan.${i.path}` })),
      ),
    };
  const series = new Map<number, SampleSeries<Sample>>();
  const started = new Map<number, { started: PartStarted & Record<string, unknown>; at: string }>();
  const finished: PartResultOf<JobKind>[] = [];
  const ended = new Set<number>();
  let last: number | null = null;
  let end: JournalContents['end'] = null;
  for (let i = 1; i < lines.length; i++) {
    const line = parseWith(lineSchema, lines[i]);
    if (!line.ok) return { ok: false, issues: at(i + 1, line.issues) };
    const value = line.value;
    switch (value.type) {
      case 'plan':
        return { ok: false, issues: at(i + 1, [{ path: 'type', message: 'a second plan line' }]) };
      case 'part': {
        const progress = parseWith(spec.progress, value.progress);
        if (!progress.ok) return { ok: false, issues: at(i + 1, progress.issues) };
        const p = progress.value as PartStarted & Record<string, unknown>;
        if (p.type !== 'part-started')
          return {
            ok: false,
            issues: at(i + 1, [{ path: 'progress.type', message: 'is not part-started' }]),
          };
        started.set(p.part, { started: p, at: value.at });
        last = p.part;
        break;
      }
      case 'samples': {
        let s = series.get(value.part);
        if (!s) series.set(value.part, (s = new SampleSeries()));
        for (const sample of value.samples) s.add(sample);
        break;
      }
      case 'result': {
        const result = parseWith(spec.result, value.result);
        if (!result.ok) return { ok: false, issues: at(i + 1, result.issues) };
        finished.push(withSamples(head.value.kind, result.value, series.get(value.part)?.items ?? []));
        ended.add(value.part);
        series.delete(value.part);
        break;
      }
      case 'end':
        end = { status: value.status, at: value.at };
        break;
    }
  }
  const running = last !== null && !ended.has(last) ? started.get(last) : undefined;
  const samples = running ? [...(series.get(running.started.part)?.items ?? [])] : [];
  const cut: CutPart | null =
    running && samples.length > 0
      ? {
          started: running.started,
          at: running.at,
          ...spec.partScenario(plan.value, running.started),
          samples,
          resultOf: (run) => spec.partResult(running.started, run),
        }
      : null;
  return {
    ok: true,
    value: {
      header: { ...head.value, plan: plan.value, shards: head.value.shards },
      finished,
      cut,
      end,
    },
  };
}
