import { monitorEventLoopDelay } from 'node:perf_hooks';

/**
 * When requests arrive at a test's server, and whether those times can show the gaps between
 * them. A server times an arrival when its thread gets to it: a thread kept waiting for a core
 * (others' work on the machine, test:flaky's CPU hog) times a backlog all at once, and even
 * sends look bunched. Its event loop's delay, sampled every millisecond while it takes them,
 * says how late its thread ran.
 */
export interface ArrivalClock {
  /** Milliseconds (performance.now()) of each arrival, in order. */
  readonly arrivals: number[];
  /** Call in the server's handler: times one arrival. */
  mark(): void;
  /** Ends the sampling; how late the thread ran at the median, in ms. */
  stop(): { delayP50Ms: number };
}

/** The delay sampler's period: it records each period's length, so a thread on time reads 1 ms. */
const SAMPLE_MS = 1;

export function arrivalClock(): ArrivalClock {
  const arrivals: number[] = [];
  const delay = monitorEventLoopDelay({ resolution: SAMPLE_MS });
  delay.enable();
  return {
    arrivals,
    mark: () => arrivals.push(performance.now()),
    stop() {
      delay.disable();
      return { delayP50Ms: Math.max(0, delay.percentile(50) / 1e6 - SAMPLE_MS) };
    },
  };
}

/**
 * Gaps between arrivals are read to `toleranceMs` when the server's thread ran within it at the
 * median. A machine that keeps threads waiting longer (its delay is the scheduler's, the same
 * for the sending thread) bunches the times: those gaps are the machine's, not the schedule's.
 * The sender's own lateness is no excuse: a pacer that sends in bursts is what the gaps catch.
 */
export function gapsResolvable(toleranceMs: number, delayP50Ms: number): boolean {
  return delayP50Ms <= toleranceMs;
}
