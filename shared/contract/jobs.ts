import { z } from 'zod';
import { capacityJobSpec } from '../capacity/job.ts';
import { shardPlacementSchema, type ShardPlacement } from '../distributed/placement.ts';
import { kubeConfirmationSchema, type KubeConfirmation } from '../distributed/kube-confirmation.ts';
import { comparisonJobSpec } from '../comparison/job.ts';
import { comparisonRerunSchema, type ComparisonRerun } from '../comparison/rerun.ts';
import { partSchema, type PartStarted } from '../model/job-spec.ts';
import {
  runStatusSchema,
  sampleSchema,
  type RunResult,
  type RunStatus,
  type Sample,
} from '../model/result.ts';
import { runJobSpec } from '../model/run-job.ts';
import { resourceSampleSchema, type ResourceSample } from '../model/server-resources.ts';
import { machineSampleSchema, type MachineSample } from '../model/machine-facts.ts';

/*
 * One job model for every kind (DESIGN.md): a job is a plan of one kind, run in parts (a
 * run's targets, a comparison's cells, a capacity search's steps), that reports one event
 * stream: 'progress' (the kind's own), 'sample' (one per tick of the running part, the
 * engine's or the server's), 'result' (one part's final result), 'error' (something broke
 * down, not the target), and 'done' last. Every event of a job travels in one envelope
 * { jobId, kind, n, event }, n counting the job's events from 0, so a page that took a job up
 * again (a reload, a dropped connection) applies each event once.
 *
 * A sample travels once: live, in its 'sample' event. A part's result carries no engine
 * samples (the page joins them back from its series of that part) and 'done' carries no
 * results. Adding a kind: its spec (plan, progress and result schemas) in its own folder of
 * shared/, and one entry in JOB_SPECS and JOB_KINDS below.
 */

export const JOB_SPECS = {
  run: runJobSpec,
  comparison: comparisonJobSpec,
  capacity: capacityJobSpec,
} as const;

export const JOB_KINDS = [
  'run',
  'comparison',
  'capacity',
] as const satisfies readonly (keyof typeof JOB_SPECS)[];
export const jobKindSchema = z.enum(JOB_KINDS);
export type JobKind = z.infer<typeof jobKindSchema>;

type SpecOf<K extends JobKind> = (typeof JOB_SPECS)[K];
/** A kind's plan as a host runs it (defaults filled in). */
export type PlanOf<K extends JobKind> = z.output<SpecOf<K>['plan']>;
/** A kind's plan as a caller may write it (defaults may be left out). */
export type PlanInputOf<K extends JobKind> = z.input<SpecOf<K>['plan']>;
export type ProgressOf<K extends JobKind> = z.output<SpecOf<K>['progress']>;
/** One part's final result: a RunResult, a CellOutcome, a CapacityStep. */
export type PartResultOf<K extends JobKind> = z.output<SpecOf<K>['result']>;

export const jobIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'job id is malformed');

/**
 * One tick of the running part: the engine's sample, the server's reading (target.monitor) or
 * the machine's reading (the generator's machine) at that tick.
 */
export type SampleEvent =
  | { type: 'sample'; part: number; source: 'engine'; sample: Sample }
  | { type: 'sample'; part: number; source: 'server'; sample: ResourceSample }
  | { type: 'sample'; part: number; source: 'machine'; sample: MachineSample };

/** The job broke down (the host, never the target: a failing target gives a failed result); part null: outside any part. */
export interface ErrorEvent {
  type: 'error';
  part: number | null;
  message: string;
}

/**
 * The job ended: cancelled when stopped (what was measured is kept), failed when nothing
 * could run. historyId: where the host saved it in run history; historyError: why it could
 * not; neither when there was nothing to keep.
 */
export interface DoneEvent {
  type: 'done';
  status: RunStatus;
  historyId?: string;
  historyError?: string;
}

/** Where the job stands, in its kind's words (started, a part began, a pause...). */
export interface ProgressEvent<K extends JobKind = JobKind> {
  type: 'progress';
  progress: ProgressOf<K>;
}

/** One part's final result (a stopped part's keeps what it measured). */
export interface ResultEvent<K extends JobKind = JobKind> {
  type: 'result';
  part: number;
  result: PartResultOf<K>;
}

export type JobEvent<K extends JobKind = JobKind> =
  ProgressEvent<K> | SampleEvent | ResultEvent<K> | ErrorEvent | DoneEvent;

export type JobEnvelope<K extends JobKind = JobKind> = K extends JobKind
  ? { jobId: string; kind: K; n: number; event: JobEvent<K> }
  : never;

/** What an event schema needs of a kind's spec. */
interface EventSpec<R extends z.ZodType> {
  progress: z.ZodType<{ type: string }>;
  result: R;
  runOf(result: z.output<R>): RunResult;
}

function jobEventSchema<R extends z.ZodType>(spec: EventSpec<R>) {
  // A result that carries its samples would send each of them a second time.
  const result = spec.result.refine((r) => spec.runOf(r).samples.length === 0, {
    message: "a part's result travels without its samples (they went live, each once)",
  });
  return z.discriminatedUnion('type', [
    z.strictObject({ type: z.literal('progress'), progress: spec.progress }),
    z.discriminatedUnion('source', [
      z.strictObject({
        type: z.literal('sample'),
        part: partSchema,
        source: z.literal('engine'),
        sample: sampleSchema,
      }),
      z.strictObject({
        type: z.literal('sample'),
        part: partSchema,
        source: z.literal('server'),
        sample: resourceSampleSchema,
      }),
      z.strictObject({
        type: z.literal('sample'),
        part: partSchema,
        source: z.literal('machine'),
        sample: machineSampleSchema,
      }),
    ]),
    z.strictObject({ type: z.literal('result'), part: partSchema, result }),
    z.strictObject({ type: z.literal('error'), part: partSchema.nullable(), message: z.string() }),
    z.strictObject({
      type: z.literal('done'),
      status: runStatusSchema,
      historyId: z.string().optional(),
      historyError: z.string().optional(),
    }),
  ]);
}

const envelopes = JOB_KINDS.map((kind) =>
  z.strictObject({
    jobId: jobIdSchema,
    kind: z.literal(kind),
    n: z.number().int().nonnegative(),
    event: jobEventSchema(JOB_SPECS[kind] as EventSpec<z.ZodType>),
  }),
);

/**
 * Every job event as it crosses a process boundary. The schemas are built per kind from
 * JOB_SPECS; the one cast says their union is JobEnvelope (tests parse real ones).
 */
export const jobEnvelopeSchema = z.discriminatedUnion(
  'kind',
  envelopes as [(typeof envelopes)[number], ...(typeof envelopes)[number][]],
) as unknown as z.ZodType<JobEnvelope>;

/**
 * What jobs.start takes: a kind and its plan; a run may go to shards (local or Kubernetes); a
 * comparison may run only some of a saved comparison's runs again (the rest kept).
 */
type ExtrasOf<K extends JobKind> = K extends 'run'
  ? { shards?: ShardPlacement; kubernetesConfirmed?: KubeConfirmation }
  : K extends 'comparison'
    ? { rerun?: ComparisonRerun }
    : unknown;
export type JobStart = { [K in JobKind]: { kind: K; plan: PlanOf<K> } & ExtrasOf<K> }[JobKind];
export type JobStartInput = { [K in JobKind]: { kind: K; plan: PlanInputOf<K> } & ExtrasOf<K> }[JobKind];

const starts = JOB_KINDS.map((kind) =>
  z.strictObject({
    kind: z.literal(kind),
    plan: JOB_SPECS[kind].plan,
    ...(kind === 'run'
      ? {
          shards: shardPlacementSchema.optional(),
          // On Kubernetes, what the page confirmed (kube.preview's answer); the host checks it.
          kubernetesConfirmed: kubeConfirmationSchema.optional(),
        }
      : {}),
    ...(kind === 'comparison' ? { rerun: comparisonRerunSchema.optional() } : {}),
  }),
);
export const jobStartSchema = z.discriminatedUnion(
  'kind',
  starts as [(typeof starts)[number], ...(typeof starts)[number][]],
) as unknown as z.ZodType<JobStart, JobStartInput>;

/**
 * A job the caller (this window, this page across reloads) started and that has not ended,
 * so a reloaded page takes it up again where it stands.
 */
export interface ActiveJob<K extends JobKind = JobKind> {
  jobId: string;
  kind: K;
  plan: PlanOf<K>;
  /** Its events so far, in order (n), to apply as if they had just arrived. */
  events: JobEnvelope<K>[];
  /** Seconds since the part running now began its load; null between parts. */
  partElapsedSeconds: number | null;
}

/** The part a progress event says began, or null. */
export function partStarted(progress: { type: string }): number | null {
  return progress.type === 'part-started' ? (progress as PartStarted).part : null;
}

// The one correlation TypeScript cannot make from a kind to its spec's functions.
const specOf = <K extends JobKind>(kind: K) =>
  JOB_SPECS[kind] as unknown as {
    runOf(result: PartResultOf<K>): RunResult;
    withRun(result: PartResultOf<K>, run: RunResult): PartResultOf<K>;
  };

/** The engine run inside a part's result. */
export function runOfPart<K extends JobKind>(kind: K, result: PartResultOf<K>): RunResult {
  return specOf(kind).runOf(result);
}

/** A part's result as it travels: its engine samples left out (they went live, each once). */
export function withoutSamples<K extends JobKind>(kind: K, result: PartResultOf<K>): PartResultOf<K> {
  const spec = specOf(kind);
  return spec.withRun(result, { ...spec.runOf(result), samples: [] });
}

/** A part's result with its engine samples joined back (the page's series of that part). */
export function withSamples<K extends JobKind>(
  kind: K,
  result: PartResultOf<K>,
  samples: readonly Sample[],
): PartResultOf<K> {
  const spec = specOf(kind);
  return spec.withRun(result, { ...spec.runOf(result), samples: [...samples] });
}
