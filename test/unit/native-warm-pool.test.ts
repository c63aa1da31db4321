import { describe, expect, it } from 'vitest';
import {
  DEFAULT_ROUND_TRIP_MS,
  WARM_DEADLINE_MS,
  WARM_START_MARGIN_MS,
  warmConnections,
  warmDeadline,
  warmRequests,
} from '../../electron/engine/native/drivers/warm-pool.ts';
import { mergedWarm, warmWarning } from '../../electron/engine/shards/warm-facts.ts';

/*
 * The open model's warm pool: rate x (2 x the pre-flight's round trip + a 5 ms stall) + 2
 * requests at once, never more than the in-flight cap; HTTP/1.1 needs a connection per
 * request, HTTP/2 a session per stream cap.
 */

const h1 = { maxInFlight: 1000, perConnection: 1 };

describe('warm pool size', () => {
  it('covers the round trip twice over plus a 5 ms stall, and 2 spare', () => {
    // 20,000 req/s, 0.3 ms: 20000 x 5.6 ms = 112, + 2.
    expect(warmConnections({ ...h1, rate: 20_000, roundTripMs: 0.3 })).toBe(114);
    // 10,000 req/s, 0.5 ms: 10000 x 6 ms = 60, + 2.
    expect(warmConnections({ ...h1, rate: 10_000, roundTripMs: 0.5 })).toBe(62);
    // A slow server: 1,000 req/s at 50 ms needs 1000 x 105 ms = 105, + 2.
    expect(warmConnections({ ...h1, rate: 1000, roundTripMs: 50 })).toBe(107);
  });

  it('a low rate still opens a few: one in use, spares', () => {
    expect(warmConnections({ ...h1, rate: 10, roundTripMs: 0.2 })).toBe(3);
    expect(warmConnections({ ...h1, rate: 1, roundTripMs: 0 })).toBe(3);
  });

  it('without a measured round trip assumes 1 ms', () => {
    expect(DEFAULT_ROUND_TRIP_MS).toBe(1);
    expect(warmConnections({ ...h1, rate: 20_000, roundTripMs: null })).toBe(142);
  });

  it('never more than the in-flight cap allows; all of it when the cap is below the need', () => {
    expect(warmConnections({ rate: 20_000, roundTripMs: 0.3, maxInFlight: 100, perConnection: 1 })).toBe(100);
    expect(warmConnections({ rate: 100_000, roundTripMs: 20, maxInFlight: 1000, perConnection: 1 })).toBe(
      1000,
    );
    expect(warmRequests({ rate: 100_000, roundTripMs: 20, maxInFlight: 1000, perConnection: 1 })).toBe(1000);
  });

  it('HTTP/2: sessions, not connections per request', () => {
    // 114 streams at once fit one session of 1000 streams.
    expect(warmConnections({ rate: 20_000, roundTripMs: 0.3, maxInFlight: 1000, perConnection: 1000 })).toBe(
      1,
    );
    // Streams capped at 100 per session: 2 sessions.
    expect(warmConnections({ rate: 20_000, roundTripMs: 0.3, maxInFlight: 1000, perConnection: 100 })).toBe(
      2,
    );
  });

  it('split across engine workers: each sizes its share, and the shares add up to about the whole', () => {
    const whole = warmConnections({ ...h1, rate: 20_000, roundTripMs: 0.3 });
    const half = warmConnections({ rate: 10_000, roundTripMs: 0.3, maxInFlight: 500, perConnection: 1 });
    expect(half).toBe(58);
    // Each share keeps its own 2 spares.
    expect(2 * half).toBe(whole + 2);
  });
});

describe("the run's warm facts", () => {
  const a = { seconds: 0.2, wanted: 58, ready: 58, roundTripMs: 0.3 };
  const b = { seconds: 3, wanted: 58, ready: 40, roundTripMs: 0.3 };

  it("adds the workers' pools, keeps the slowest time", () => {
    expect(mergedWarm([a, b])).toEqual({ seconds: 3, wanted: 116, ready: 98, roundTripMs: 0.3 });
    expect(mergedWarm([])).toBeNull();
  });

  it('says when the schedule started before the pool was open, and only then', () => {
    expect(warmWarning(a)).toBeNull();
    expect(warmWarning(mergedWarm([a, b])!)).toEqual({
      code: 'other',
      message:
        'the warm connections were not all open after 3.0 s: 98 of 116; the schedule started anyway, and its first requests may wait for connections to open',
    });
  });

  it('a machine of a plan: ends by the common start, says that ended it', () => {
    const cut = { ...b, cutAtStart: true as const };
    expect(mergedWarm([a, cut])).toEqual({
      seconds: 3,
      wanted: 116,
      ready: 98,
      roundTripMs: 0.3,
      cutAtStart: true,
    });
    expect(warmWarning(cut)!.message).toBe(
      "the warm connections were not all open at the plan's common start, 3.0 s after they began opening: 40 of 58; the load started on time, and its first requests may wait for connections to open (give --start-at more time ahead)",
    );
  });
});

describe('how long the warm phase may take (warmDeadline)', () => {
  it('3 s, the request timeout when shorter', () => {
    expect(warmDeadline(10_000, null, 0)).toEqual({ ms: WARM_DEADLINE_MS, byStart: false });
    expect(warmDeadline(1000, null, 0)).toEqual({ ms: 1000, byStart: false });
  });

  it("a plan's machine: up to the margin before the common start, never past it", () => {
    const now = 1_000_000;
    expect(warmDeadline(10_000, now + 60_000, now)).toEqual({ ms: WARM_DEADLINE_MS, byStart: false });
    expect(warmDeadline(10_000, now + 1000, now)).toEqual({ ms: 1000 - WARM_START_MARGIN_MS, byStart: true });
    expect(warmDeadline(10_000, now + 50, now)).toEqual({ ms: 0, byStart: true });
    expect(warmDeadline(10_000, now - 500, now)).toEqual({ ms: 0, byStart: true });
  });
});
