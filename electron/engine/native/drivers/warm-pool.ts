/*
 * How many connections the open model opens, and proves, before its first scheduled send.
 *
 * By Little's law a rate R with round trip L keeps R x L requests in flight, each holding an
 * HTTP/1.1 connection. Two things make the pool larger than that: under load the server
 * answers slower than the pre-flight's one request on an idle connection saw (ROUND_TRIP_HEADROOM),
 * and the generator's own event loop stalls now and then (a GC pause, a late timer, a shared
 * core): after a stall of STALL_MS every request due meanwhile goes out at once, each on a
 * connection of its own. wrk2 opens all of its -c connections (100 by default) before its
 * schedule for the same reason; this sizes the pool from the rate instead: 114 at
 * 20,000 req/s with a 0.3 ms round trip, 58 at 10,000 req/s.
 */

/** The server answers a loaded connection up to this many times slower than the pre-flight's idle one. */
export const ROUND_TRIP_HEADROOM = 2;
/**
 * A generator stall the pool absorbs without a request waiting for a connection to open: GC
 * pauses and timer lateness on a busy 2-core machine reach 4-6 ms at the p99 (open-driver.ts).
 */
export const STALL_MS = 5;
/** Spare connections on top, so a low rate still has one free while one is busy. */
const SPARE = 2;
/** The round trip assumed when the pre-flight measured none (a loopback nginx answers in 0.1-0.5 ms). */
export const DEFAULT_ROUND_TRIP_MS = 1;

export interface PoolInput {
  /** The schedule's highest rate for this engine worker (its share), req/s. */
  rate: number;
  /** The pre-flight request's round trip, ms; null when unknown. */
  roundTripMs: number | null;
  /** The in-flight cap of this engine worker (its share of --max-in-flight). */
  maxInFlight: number;
  /** Requests one connection carries at once: 1 for HTTP/1.1, the stream cap for HTTP/2. */
  perConnection: number;
}

/** Requests the pool must be able to carry at once. */
export function warmRequests(input: PoolInput): number {
  const roundTrip = input.roundTripMs ?? DEFAULT_ROUND_TRIP_MS;
  const covered = ROUND_TRIP_HEADROOM * roundTrip + STALL_MS;
  return Math.min(input.maxInFlight, Math.ceil((input.rate * covered) / 1000) + SPARE);
}

/**
 * Connections to open before the first send: enough for warmRequests(), never more than the
 * in-flight cap allows (when the cap is below the need, all it allows: the cap is the pool).
 * HTTP/2 needs one session per perConnection streams.
 */
export function warmConnections(input: PoolInput): number {
  return Math.max(1, Math.ceil(warmRequests(input) / Math.max(1, input.perConnection)));
}

/** How long the warm phase may take, at most (the request timeout when shorter). */
export const WARM_DEADLINE_MS = 3000;
/**
 * Room before a plan's common start for the warm phase's end to reach the coordinator and the
 * start to reach the engine workers (20 ms for a thread: shards/links.ts), with room to spare.
 */
export const WARM_START_MARGIN_MS = 100;

export interface WarmDeadline {
  ms: number;
  /** The plan's common start set it (shorter than the warm phase's own limit). */
  byStart: boolean;
}

/**
 * How long the warm phase may take: WARM_DEADLINE_MS, the request timeout when shorter, and
 * for a machine's shard of a plan (--shard) no later than WARM_START_MARGIN_MS before the
 * plan's common start, so that warming cannot make this machine's load begin late. `startAt`
 * (null outside a plan) and `now` are epoch ms.
 */
export function warmDeadline(timeoutMs: number, startAt: number | null, now: number): WarmDeadline {
  const own = Math.min(WARM_DEADLINE_MS, timeoutMs);
  if (startAt === null) return { ms: own, byStart: false };
  const left = Math.max(0, startAt - WARM_START_MARGIN_MS - now);
  return left < own ? { ms: left, byStart: true } : { ms: own, byStart: false };
}
