import { z } from 'zod';
import { serverFactsSchema, warmFactsSchema } from '../../../shared/model/result.ts';
import { errorKindSchema, tlsFactsSchema } from '../../../shared/model/result-parts.ts';
import {
  shardReportSchema,
  shardWindowSchema,
  unsettledReportSchema,
} from '../../../shared/model/shard-facts.ts';
import { shardSchema, type Shard } from '../../../shared/shards/plan.ts';
import { runSpecSchema } from '../thread/messages.ts';
import type { RunSpec } from '../types.ts';

/**
 * The boundary between a run's coordinator (coordinator.ts) and its shards, whatever carries it
 * (links.ts: this thread, a worker thread; electron/distributed/: a process, a pod): plain
 * JSON-serializable messages, parsed on arrival. A shard gets its spec (the run's, with the
 * shard's load) and its place in the plan; then the coordinator only says when to start and,
 * maybe, to stop (and a thread's link asks for its windows: shards/slot-poll.ts). Everything
 * else flows from the shard: it closes its windows on the run's grid and sends each as it
 * closes, then its report, so a shard that can only talk back (a pod's log) is driven the same
 * way. A shard that is a machine of its own (a process, a pod:
 * its engine threads behind a coordinator of their own, electron/distributed/link-end.ts) says
 * the same messages for all its threads, merged, plus its pre-flight's facts and its machine.
 * Times cross as epoch ms (performance.timeOrigin + performance.now()), so they mean the same in
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

const slotNumber = z.union([z.literal(0), z.literal(1)]);

export const toShardSchema = z.discriminatedUnion('type', [
  /** Every shard is ready: the load starts at `at` (warm-up first, when there is one). */
  z.strictObject({ type: z.literal('start'), at: epochMs }),
  /** The user stopped the run (or another shard failed): stop sending, abandon what is in flight, report. */
  z.strictObject({ type: z.literal('stop') }),
  /**
   * A thread shard's link asked for a tick's window (recording/window-slots.ts) and the
   * sending thread recorded no request since to take the ask between: take it now.
   */
  z.strictObject({ type: z.literal('hand-over') }),
]);
export type ToShard = z.infer<typeof toShardSchema>;

/** What a shard that checked the target itself (a machine's: a process, a pod) learnt of it before any load. */
export const targetFactsSchema = z.strictObject({
  tls: tlsFactsSchema.nullable(),
  server: serverFactsSchema,
});
export type TargetFactsOfShard = z.infer<typeof targetFactsSchema>;

/** An engine thread's CPU over the run (result.ts CpuFacts). */
const cpuFactsSchema = z.strictObject({
  mean: z.number().nonnegative(),
  max: z.number().nonnegative(),
  saturated: z.boolean(),
});

/** A machine's shard's own facts, in its report: where it ran, the start it was given, each engine thread's CPU. */
export const shardMachineSchema = z.strictObject({
  host: z.string().max(253),
  cores: z.number().int().positive(),
  /** The common start it was given (`start`), epoch ms: its start offset is its report's startedAt less this. */
  startAt: epochMs,
  workers: z.array(cpuFactsSchema).min(1).max(1024),
});
export type ShardMachineFacts = z.infer<typeof shardMachineSchema>;

export const fromShardSchema = z.discriminatedUnion('type', [
  /**
   * The load generator is loaded and readied (the open model's connections opened and warmed: `warm`,
   * absent when there was no warm phase); waiting for `start`. `target`: a machine's shard
   * checked the target itself (its pre-flight's facts); absent for a thread's.
   */
  z.strictObject({
    type: z.literal('ready'),
    warm: warmFactsSchema.optional(),
    target: targetFactsSchema.optional(),
  }),
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
   * its load generator broke down (what it measured until then is in the report). machine: a machine's
   * shard's facts; absent for a thread's.
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
    machine: shardMachineSchema.optional(),
  }),
  /**
   * A thread's shard (recording/window-slots.ts), whose windows closed at its link's asks are found in
   * its slots by its link (shards/slot-poll.ts, LinkListener.slot), not said: its load is over,
   * its last window in slot `slot`, and its report without what the slots'
   * reader settled (unsettledReportSchema); otherwise as `report`.
   */
  z.strictObject({
    type: z.literal('slot-report'),
    slot: slotNumber,
    report: unsettledReportSchema,
    failure: z.string().nullable(),
    startedAt: epochMs,
  }),
  /** The shard could not get ready (its load generator, its pre-flight): said in its own words, of the kind a result's error has. */
  z.strictObject({ type: z.literal('failed'), message: z.string(), kind: errorKindSchema.optional() }),
]);
export type FromShard = z.infer<typeof fromShardSchema>;

/** performance.now() as epoch ms, and back: the clock every thread of the run agrees on. */
export const toEpoch = (now: number): number => performance.timeOrigin + now;
export const fromEpoch = (epoch: number): number => epoch - performance.timeOrigin;

/**
 * A message as a line, where a byte stream carries it (a process's stdin and stdout, a pod's
 * log): one JSON object per line, a window once, parsed with the schemas above on arrival.
 */
export const messageLine = (message: FromShard | ToShard): string => `${JSON.stringify(message)}\n`;

/**
 * The longest line a link reads: a report with a list's 1,000 URL rows and every histogram
 * runs to a few MB; past this a line is not a message but a broken or hostile stream.
 */
export const MAX_MESSAGE_LINE_BYTES = 32 * 1024 * 1024;
