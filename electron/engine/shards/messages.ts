import { z } from 'zod';
import { warmFactsSchema } from '../../../shared/model/result.ts';
import { shardReportSchema, shardWindowSchema } from '../../../shared/shards/merge.ts';
import { shardSchema, type Shard } from '../../../shared/shards/plan.ts';
import { runSpecSchema } from '../messages.ts';
import type { RunSpec } from '../types.ts';

/**
 * The boundary between a run's coordinator (coordinator.ts) and its shards (shard.ts), whatever
 * carries it (links.ts): plain JSON-serializable messages, parsed on arrival. A shard gets its
 * spec (the run's, with the shard's load) and its place in the plan; then the coordinator only
 * says when to start and, maybe, to stop. Everything else flows from the shard: it keeps its
 * own clock on the run's grid and sends each window as it closes, then its report, so a shard
 * that can only talk back (a log followed from another machine) is driven the same way. Times
 * cross as epoch ms (performance.timeOrigin + performance.now()), so they mean the same in
 * every thread, and in every process whose clock is synchronized.
 */
export const shardDataSchema = z.strictObject({
  spec: runSpecSchema,
  shard: shardSchema,
  /** The pre-flight request's round trip, ms (what the open model's warm pool is sized from); absent: not measured. */
  roundTripMs: z.number().nonnegative().optional(),
});
export interface ShardData {
  spec: RunSpec;
  shard: Shard;
  roundTripMs?: number;
}

const epochMs = z.number().positive();
/** A window's place on the run's grid (sample-clock.ts Tick.index): windows of one place merge into one Sample. */
const gridIndex = z.number().int().nonnegative();

export const toShardSchema = z.discriminatedUnion('type', [
  /** Every shard is ready: the load starts at `at` (warm-up first, when there is one). */
  z.strictObject({ type: z.literal('start'), at: epochMs }),
  /** The user stopped the run (or another shard failed): stop sending, abandon what is in flight, report. */
  z.strictObject({ type: z.literal('stop') }),
]);
export type ToShard = z.infer<typeof toShardSchema>;

export const fromShardSchema = z.discriminatedUnion('type', [
  /**
   * The runner is loaded and readied (the open model's connections opened and warmed: `warm`,
   * absent when there was no warm phase); waiting for `start`.
   */
  z.strictObject({ type: z.literal('ready'), warm: warmFactsSchema.optional() }),
  /** A window closed on a tick at `at`; endsWarmup: the warm-up ended with it. */
  z.strictObject({
    type: z.literal('window'),
    index: gridIndex,
    at: epochMs,
    endsWarmup: z.boolean(),
    window: shardWindowSchema,
  }),
  /**
   * The shard's load is over (its limit reached, its schedule done, or stopped): its last window,
   * closed where the load ended, in the grid slot it fell in, and its whole-run report. failure:
   * its runner broke down (what it measured until then is in the report).
   */
  z.strictObject({
    type: z.literal('report'),
    index: gridIndex,
    at: epochMs,
    window: shardWindowSchema,
    report: shardReportSchema,
    failure: z.string().nullable(),
    /** When its load began: the common start as its timer met it. */
    startedAt: epochMs,
  }),
  /** The runner could not be loaded. */
  z.strictObject({ type: z.literal('failed'), message: z.string() }),
]);
export type FromShard = z.infer<typeof fromShardSchema>;

/** performance.now() as epoch ms, and back: the clock every thread of the run agrees on. */
export const toEpoch = (now: number): number => performance.timeOrigin + now;
export const fromEpoch = (epoch: number): number => epoch - performance.timeOrigin;
