import { z } from 'zod';
import { loadSchema, type Load, type Workers } from './scenario.ts';

/**
 * How a run's load is split into shards, one per engine worker thread (and later per
 * machine). A shard is plain data: the load it runs (its share of the connections, the
 * request count, the rate) and where its schedule starts within the merged one. Pure.
 */
export const shardSchema = z.object({
  /** 0-based position among the run's shards. */
  index: z.number().int().nonnegative(),
  count: z.number().int().positive(),
  /** This shard's share of the run's load, a load like any other. */
  load: loadSchema,
  /**
   * When this shard's schedule begins, ms after the run's common start: index/count of the
   * merged schedule's interval, so the shards' sends interleave evenly (0 without a rate).
   */
  offsetMs: z.number().nonnegative(),
});
export type Shard = z.infer<typeof shardSchema>;

/** The machine a run starts on, as far as the worker count is concerned. */
export interface Machine {
  /** Cores the generator may use (os.availableParallelism()). */
  cores: number;
  /** The target runs on this machine (loopback or one of its own addresses). */
  sameMachine: boolean;
}

/**
 * Workers asked for: a number as given; 'auto' = the machine's cores, less one when the
 * target shares the machine (its server needs a core too), at least 1.
 */
export function requestedWorkers(choice: Workers, machine: Machine): number {
  if (choice !== 'auto') return choice;
  return Math.max(1, machine.cores - (machine.sameMachine ? 1 : 0));
}

/** Below this rate (req/s) per worker a shard's schedule is not worth a thread of its own. */
const MIN_RATE_PER_WORKER = 1;

/**
 * Workers a load can use: no more than it has connections (closed), in-flight slots (open)
 * or requests to send, and at least MIN_RATE_PER_WORKER req/s each when it has a rate. So
 * no shard is empty.
 */
export function usableWorkers(load: Load, requested: number): number {
  // A staged load runs in one worker: its per-stage rows are not merged across shards yet.
  if (load.stages !== undefined) return 1;
  const caps = [requested];
  if (load.model === 'closed') {
    caps.push(load.connections);
    if (load.limit.kind === 'requests') caps.push(load.limit.count);
  } else {
    caps.push(load.maxInFlight);
  }
  if (load.rate !== null) caps.push(Math.floor(load.rate / MIN_RATE_PER_WORKER));
  return Math.max(1, Math.min(...caps));
}

/** n split in `parts` whole shares as even as they go, the larger ones first: 10 in 3 = 4, 3, 3. */
export function evenShares(n: number, parts: number): number[] {
  const base = Math.floor(n / parts);
  const extra = n - base * parts;
  return Array.from({ length: parts }, (_, i) => base + (i < extra ? 1 : 0));
}

/**
 * The load split into `workers` shards (capped by usableWorkers). Connections, in-flight
 * slots and request counts are split exactly (the shards add up to the load); a rate is
 * split evenly and shard k starts k/n of the merged interval late, so request i of the
 * merged schedule is request floor(i/n) of shard i mod n, due at the same time as in one
 * worker. A duration stays: every shard runs for the whole of it.
 */
export function splitLoad(load: Load, workers: number): Shard[] {
  const count = usableWorkers(load, workers);
  const rate = load.rate;
  const offset = (k: number): number => (rate === null ? 0 : (k * 1000) / rate);
  const shardRate = rate === null ? null : rate / count;
  if (load.model === 'open') {
    const slots = evenShares(load.maxInFlight, count);
    return slots.map((maxInFlight, index) => ({
      index,
      count,
      offsetMs: offset(index),
      load: { ...load, rate: shardRate!, maxInFlight },
    }));
  }
  const connections = evenShares(load.connections, count);
  const requests = load.limit.kind === 'requests' ? evenShares(load.limit.count, count) : null;
  return connections.map((c, index) => ({
    index,
    count,
    offsetMs: offset(index),
    load: {
      ...load,
      connections: c,
      rate: shardRate,
      limit: requests === null ? load.limit : { kind: 'requests', count: requests[index]! },
    },
  }));
}
