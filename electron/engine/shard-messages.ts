import { z } from 'zod';
import { shardReportSchema, shardWindowSchema } from '../../shared/shards/merge.ts';
import { shardSchema, type Shard } from '../../shared/shards/plan.ts';
import { runSpecSchema } from './messages.ts';
import type { RunSpec } from './types.ts';

/**
 * The boundary between a run's coordinator (the engine worker, see worker-pool.ts) and its
 * shard workers (shard-worker.ts). A shard gets its spec (the run's, with the shard's load)
 * and its place in the plan as workerData; times cross as epoch ms (performance.timeOrigin +
 * performance.now()), so they mean the same in every thread. Both sides parse what they get.
 */
export const shardDataSchema = z.object({ spec: runSpecSchema, shard: shardSchema });
export interface ShardData {
  spec: RunSpec;
  shard: Shard;
}

const epochMs = z.number().positive();

export const toShardSchema = z.discriminatedUnion('type', [
  /** Every shard is ready: the load starts at `at` (warm-up first, when there is one). */
  z.object({ type: z.literal('start'), at: epochMs }),
  /** Close the window and send it; `measure`: the warm-up ends with this window, at `at`. */
  z.object({ type: z.literal('tick'), measure: z.boolean(), at: epochMs }),
  /** The run is over: send the last window and the report, then exit. */
  z.object({ type: z.literal('finish') }),
  /** The user stopped the run: stop sending and abandon what is in flight. */
  z.object({ type: z.literal('stop') }),
]);
export type ToShard = z.infer<typeof toShardSchema>;

export const fromShardSchema = z.discriminatedUnion('type', [
  /** The runner is loaded; waiting for `start`. */
  z.object({ type: z.literal('ready') }),
  z.object({ type: z.literal('window'), window: shardWindowSchema }),
  /** The shard's load is over (its limit reached, its schedule done, or stopped). */
  z.object({ type: z.literal('done'), loadEndedAt: epochMs }),
  z.object({ type: z.literal('report'), window: shardWindowSchema, report: shardReportSchema }),
  /** The runner could not be loaded or broke down. */
  z.object({ type: z.literal('failed'), message: z.string() }),
]);
export type FromShard = z.infer<typeof fromShardSchema>;

/** performance.now() as epoch ms, and back: the clock every thread of the run agrees on. */
export const toEpoch = (now: number): number => performance.timeOrigin + now;
export const fromEpoch = (epoch: number): number => epoch - performance.timeOrigin;
