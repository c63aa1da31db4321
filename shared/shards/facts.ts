import { z } from 'zod';
import { loadSchema } from '../model/scenario.ts';
import { shardReportSchema } from './merge.ts';

/**
 * What a result says of the shards across machines it belongs to or was merged from
 * (`trebuchet run --shard i/N --start-at T`, `trebuchet merge`). Pure.
 */

const count = z.number().int().nonnegative();

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
