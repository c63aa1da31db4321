import { z } from 'zod';
import { LIMITS } from './defaults.ts';
import {
  byteCountsSchema,
  errorEntrySchema,
  errorKindSchema,
  PHASES,
  requestCountsSchema,
  tlsFactsSchema,
  warningSchema,
} from './result-parts.ts';
import { loadSchema } from './scenario.ts';
import { urlRowCounts } from './url-table.ts';

/**
 * What a shard (one engine worker, or one machine) reports: plain, serializable counts that
 * add up (shared/shards/merge.ts adds them). A histogram travels as its used buckets in
 * HdrHistogram's layout (BucketCounts) for a tick's window, or HdrHistogram-encoded for the
 * whole run. And what a result says of the shards across machines it belongs to or was merged
 * from (`trebuchet run --shard i/N --start-at T`, `trebuchet merge`). Pure.
 */

const count = z.number().int().nonnegative();

/**
 * An array of whole numbers from `min`, checked in one loop: a window's histograms run to
 * thousands of buckets, checked on the thread that sends, and z.array's check per element took
 * 0.13-0.17 ms per 2,000 buckets where this takes 0.02.
 */
function wholeNumbers(min: 0 | 1) {
  return z.custom<number[]>((v) => Array.isArray(v) && v.every((x) => Number.isSafeInteger(x) && x >= min), {
    error: `must be an array of whole numbers from ${min}`,
  });
}

/**
 * Histogram counts in HdrHistogram's bucket layout (3 significant digits, microseconds), the
 * used buckets only, ascending: what the engine's ValueRecorder holds. Adding two is adding
 * the counts of equal indexes, which is exact (the histogram of all the values).
 */
export const bucketCountsSchema = z
  .strictObject({
    indexes: wholeNumbers(0),
    counts: wholeNumbers(1),
    /** Smallest value above 0 recorded, and the largest, as given (an engine may record fractions); null when nothing was. */
    minNonZero: z.number().nonnegative().nullable(),
    max: z.number().nonnegative().nullable(),
  })
  .refine((b) => b.indexes.length === b.counts.length, { message: 'indexes and counts differ in length' });
export type BucketCounts = z.infer<typeof bucketCountsSchema>;

const statusCodesSchema = z.record(z.string(), count);
const errorCountsSchema = z.partialRecord(errorKindSchema, count);

/** One tick's window of one shard: the counts a Sample is made of, before percentiles. */
export const shardWindowSchema = z.strictObject({
  /** Requests finished in the window (responses and errors), and bytes received. */
  requests: count,
  bytesIn: count,
  statusCodes: statusCodesSchema,
  errors: errorCountsSchema,
  /** Scheduled requests that missed their send time in the window. */
  late: count,
  /** Requests in flight at the window's end. */
  inFlight: count,
  /** The shard's CPU over the window, percent of one core. */
  cpuPercent: z.number().nonnegative(),
  /** The window's latencies, and how late its scheduled sends went out (us). */
  latency: bucketCountsSchema,
  lateness: bucketCountsSchema,
  /** Closed model with stages: connections carrying load at the window's end. */
  connections: count.optional(),
});
export type ShardWindow = z.infer<typeof shardWindowSchema>;

/** A shard's whole-run counts (warm-up excluded), the part of a result that adds up. */
export const shardCountsSchema = z.strictObject({
  /** As in a result, with lateness counted whatever the model (a result shows it for open runs only). */
  requests: requestCountsSchema
    .omit({ late: true, dropped: true })
    .extend({ lengthMismatch: count, unsolicited: count, late: count }),
  /** Requests written, and scheduled ones never sent (open model). */
  sent: count,
  dropped: count,
  bytes: byteCountsSchema,
  statusCodes: statusCodesSchema,
  errors: z.array(errorEntrySchema),
  /** ab's Server Software and Document Length, from the shard's first measured response. */
  serverSoftware: z.string().nullable(),
  documentLength: count.nullable(),
});
export type ShardCounts = z.infer<typeof shardCountsSchema>;

/** A shard's per-request timing phases (see the engine's PhaseRecorder), as buckets. */
export const phaseBucketsSchema = z.strictObject({
  buckets: z.partialRecord(z.enum(PHASES), bucketCountsSchema),
  /** Requests on reused connections: 0 in the dns, connect, tls and setup rows. */
  reused: count,
  tlsUsed: z.boolean(),
});
export type PhaseBuckets = z.infer<typeof phaseBucketsSchema>;

/** One stage's row of a staged shard: its counts and its latencies (us) as buckets, null before a response. */
export const stageCountsSchema = z.strictObject({
  requests: count,
  errors: count,
  non2xx: count,
  latency: bucketCountsSchema.nullable(),
});
export type StageCounts = z.infer<typeof stageCountsSchema>;

/*
 * A shard's per-URL counts (shared/model/url-table.ts gives the rows): counts and each row's
 * latency as buckets, so the rows of several workers or machines add up exactly, histograms
 * merged rather than percentiles averaged.
 */
export const urlCountsRowSchema = z.strictObject({
  ...urlRowCounts,
  /** The row's response latencies (us) in HdrHistogram's buckets. */
  latency: bucketCountsSchema,
});
export type UrlCountsRow = z.infer<typeof urlCountsRowSchema>;

export const urlCountsSchema = z.strictObject({
  rows: z.array(urlCountsRowSchema).max(LIMITS.urlRows.max),
  folded: count,
});
export type UrlCounts = z.infer<typeof urlCountsSchema>;

/**
 * What a shard hands back at the end of its run: its counts, its latency histogram
 * (HdrHistogram, compressed and base64-encoded, as in a result; null without a measured
 * response), the other histograms as buckets, and what its runner learnt.
 */
export const shardReportSchema = z.strictObject({
  counts: shardCountsSchema,
  histogram: z.string().nullable(),
  /**
   * The exact smallest (above 0) and largest latency, us: the encoding keeps buckets, whose
   * range a decoded histogram reports instead. Null with the histogram.
   */
  latencyRange: z
    .strictObject({ minNonZero: z.number().nonnegative(), max: z.number().nonnegative() })
    .nullable(),
  /** How late scheduled sends went out, and latency from the intended time (rate-capped closed model). */
  lateness: bucketCountsSchema,
  corrected: bucketCountsSchema.nullable(),
  phases: phaseBucketsSchema.nullable(),
  /** A staged load's rows, one per stage; null for a fixed level. */
  stages: z.array(stageCountsSchema).max(LIMITS.stages.max).nullable(),
  tls: tlsFactsSchema.nullable(),
  /** A list over several origins: connections opened per origin (originGroups' order); absent for one. */
  originConnections: z.array(z.number().int().nonnegative()).max(LIMITS.listOrigins.max).optional(),
  httpVersion: z.string().nullable(),
  /** Open model: first to last send, and last send to last answer (s). */
  attackSeconds: z.number().nonnegative().nullable(),
  waitSeconds: z.number().nonnegative().nullable(),
  warnings: z.array(warningSchema),
  /** A target with a list: its per-URL counts (shared/shards/url-counts.ts); absent without a list. */
  urls: urlCountsSchema.optional(),
  /**
   * How long each tick held up its sending thread (us): closing the window and handing it
   * over. Absent from a shard that does not say it.
   */
  tickPause: bucketCountsSchema.optional(),
});
export type ShardReport = z.infer<typeof shardReportSchema>;

/**
 * A shard's report without what the reader of its window slots settled, window by window
 * (a thread's shard: electron/engine/shards/slot-reader.ts): the run's latency histogram and
 * its range, its send lateness, its status table. The reader adds them back.
 */
export const unsettledReportSchema = shardReportSchema
  .omit({ histogram: true, latencyRange: true, lateness: true })
  .extend({ counts: shardCountsSchema.omit({ statusCodes: true }) });
export type UnsettledReport = z.infer<typeof unsettledReportSchema>;

/** A shard's machine and how well it kept the common start. */
export const shardClockSchema = z.strictObject({
  /** The start it was told (--start-at), ISO 8601. */
  startAt: z.string(),
  /** How long after startAt its load began (the latest of its engine workers), ms. */
  startOffsetMs: z.number(),
  host: z.string(),
  /** Cores the generator could use on it. */
  cores: z.number().int().positive(),
});
export type ShardClock = z.infer<typeof shardClockSchema>;

/** A shard's result's own part: its place in the plan, its clock, and its figures in mergeable form. */
export const shardFactsSchema = z.strictObject({
  /** 0-based, of `count` shards. */
  index: count,
  count: z.number().int().positive(),
  /** A hash of the plan (target, load, options, shard count): shards of one plan share it. */
  planId: z.string().min(1),
  /** The whole plan's load (the result's `load` is this shard's share). */
  planLoad: loadSchema,
  clock: shardClockSchema,
  /** Epoch ms of the common start its sample grid counts from: samples of shards align on it. */
  gridStartAt: z.number().positive(),
  /** Its counts and histograms as the engine merges them (exact). */
  report: shardReportSchema,
});
export type ShardFacts = z.infer<typeof shardFactsSchema>;

/** One row of a merged result's Shards table. */
export const shardRowSchema = z.strictObject({
  index: count,
  host: z.string(),
  cores: z.number().int().positive(),
  requests: count,
  requestsPerSecond: z.number().nonnegative(),
  /** ms; null without a response. */
  p99: z.number().nonnegative().nullable(),
  /** Its generator's CPU over the measured part, percent of one core, and whether it ran flat out. */
  cpuPercentMean: z.number().nonnegative(),
  saturated: z.boolean(),
  startOffsetMs: z.number(),
});
export type ShardRow = z.infer<typeof shardRowSchema>;
