import { z } from 'zod';
import { loadSchema, type Load, type Workers } from '../model/scenario.ts';
import { scheduledRate } from '../stages/load-plan.ts';
import { peakTarget, plannedArrivals, scaleStages, stagesSeconds } from '../model/stages.ts';

/**
 * How a run's load is split into shards, one per engine worker thread (and later per
 * machine). A shard is plain data: the load it runs (its share of the connections, the
 * request count, the rate) and where its schedule starts within the merged one. Pure.
 */
export const shardSchema = z.strictObject({
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
  /**
   * Open model with stages: the shard's arrival k is due when its plan's integrated rate
   * reaches k + arrivalPhase (index/count), so the shards' arrivals interleave into the
   * one-worker schedule on a ramp too, where a time offset would not (shared/model/stages.ts
   * ArrivalSchedule). 0 otherwise.
   */
  arrivalPhase: z.number().min(0).lt(1),
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
 * Workers a load can use: no more than it has connections (closed; a staged load's peak
 * target), in-flight slots (open) or requests to send, and at least MIN_RATE_PER_WORKER
 * req/s each when it has a rate (a staged open load's mean rate, and a whole planned request
 * each). So no shard is empty.
 */
export function usableWorkers(load: Load, requested: number): number {
  const caps = [requested];
  if (load.model === 'closed') {
    if (load.stages) caps.push(peakTarget(load.stages));
    else caps.push(load.connections);
    if (!load.stages && load.limit.kind === 'requests') caps.push(load.limit.count);
  } else {
    caps.push(load.maxInFlight);
    if (load.stages) caps.push(Math.floor(plannedArrivals(load.stages, stagesSeconds(load.stages))));
  }
  const rate = scheduledRate(load);
  if (rate !== null) caps.push(Math.floor(rate / MIN_RATE_PER_WORKER));
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
 * worker. A duration stays: every shard runs for the whole of it. A staged load is split
 * stage by stage, with the same stage times in every shard: each stage's connections
 * exactly as connections are, each stage's rate evenly, the shards' arrivals interleaved by
 * their arrival phase (request i of the merged plan is again request floor(i/n) of shard
 * i mod n); its stage plan starts at the common start in every shard.
 */
export function splitLoad(load: Load, workers: number): Shard[] {
  const count = usableWorkers(load, workers);
  const stagedOpen = load.model === 'open' && load.stages !== undefined;
  const rate = stagedOpen ? null : load.rate;
  const places = Array.from({ length: count }, (_, index) => ({
    index,
    count,
    offsetMs: rate === null ? 0 : (index * 1000) / rate,
    arrivalPhase: stagedOpen ? index / count : 0,
  }));
  // A staged load's level fields (rate, duration, connections, limit) are not used: they stay as given.
  if (load.model === 'open') {
    const slots = evenShares(load.maxInFlight, count);
    const stages = load.stages && scaleStages(load.stages, 1 / count);
    return places.map((place, i) => ({
      ...place,
      load: { ...load, maxInFlight: slots[i]!, ...(stages ? { stages } : { rate: load.rate / count }) },
    }));
  }
  const rateShare = load.rate === null ? null : load.rate / count;
  if (load.stages) {
    const targets = load.stages.map((s) => evenShares(s.target, count));
    return places.map((place, i) => ({
      ...place,
      load: {
        ...load,
        rate: rateShare,
        stages: load.stages!.map((s, at) => ({
          durationSeconds: s.durationSeconds,
          target: targets[at]![i]!,
        })),
      },
    }));
  }
  const connections = evenShares(load.connections, count);
  const requests = load.limit.kind === 'requests' ? evenShares(load.limit.count, count) : null;
  return places.map((place, i) => ({
    ...place,
    load: {
      ...load,
      connections: connections[i]!,
      rate: rateShare,
      limit: requests === null ? load.limit : { kind: 'requests', count: requests[i]! },
    },
  }));
}

/** Where a machine's shard sits in a plan split across machines: the schedule's offsets, no load. */
export type Placement = Pick<Shard, 'index' | 'count' | 'offsetMs' | 'arrivalPhase'>;

/**
 * A machine's shard (`trebuchet run --shard i/N`) split again into its engine workers: each
 * worker's schedule offsets placed within the shard's, so the workers of every machine
 * interleave into the one-worker schedule of the whole plan. Worker j of m in shard i of n
 * runs rate/(n*m) from offset (i + j*n)/rate, and a staged open load's arrival phase is
 * (j + i/n)/m: request k of the plan is still request floor(k/(n*m)) of one worker.
 */
export function placeWithin(outer: Placement, workers: readonly Shard[]): Shard[] {
  return workers.map((w) => ({
    ...w,
    offsetMs: outer.offsetMs + w.offsetMs,
    arrivalPhase: w.arrivalPhase + outer.arrivalPhase / w.count,
  }));
}
