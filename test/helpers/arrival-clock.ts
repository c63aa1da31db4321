import { readdirSync, readFileSync } from 'node:fs';

/**
 * When requests arrive at a test's server, and whether the gaps between them can be the
 * schedule's. A thread kept waiting for a core (others' work on the machine, test:flaky's CPU
 * hog) sends a backlog at once when it is the sender, and times one at once when it is the
 * server: even sends then look bunched, through no fault of the pacer. The kernel counts how
 * long each of this process's threads waited for a core and how many turns it had
 * (/proc/self/task/TID/schedstat); the engine's threads in a test are this process's, so their
 * mean wait per turn is the machine's delay on both sides.
 */
export interface ArrivalClock {
  /** Milliseconds (performance.now()) of each arrival, in order. */
  readonly arrivals: number[];
  /** Call in the server's handler: times one arrival. */
  mark(): void;
  /** Ends the count: this process's threads' mean wait for a core per turn, ms (0 off Linux). */
  stop(): { waitPerTurnMs: number };
}

/** Engine threads end with their run: each is read often enough to keep its counts. */
const READ_EVERY_MS = 50;

interface Sched {
  waitNs: number;
  turns: number;
}

/** Every thread of this process: its wait for a core so far (ns) and its turns on one. */
function threads(): Map<string, Sched> {
  const out = new Map<string, Sched>();
  let tids: string[];
  try {
    tids = readdirSync('/proc/self/task');
  } catch {
    return out;
  }
  for (const tid of tids) {
    try {
      const [, wait, turns] = readFileSync(`/proc/self/task/${tid}/schedstat`, 'latin1').trim().split(' ');
      out.set(tid, { waitNs: Number(wait), turns: Number(turns) });
    } catch {
      // The thread ended between the listing and the read: its last reading stands.
    }
  }
  return out;
}

export function arrivalClock(): ArrivalClock {
  const arrivals: number[] = [];
  const first = threads();
  const last = new Map(first);
  const read = () => {
    for (const [tid, s] of threads()) last.set(tid, s);
  };
  const timer = setInterval(read, READ_EVERY_MS);
  return {
    arrivals,
    mark: () => arrivals.push(performance.now()),
    stop() {
      clearInterval(timer);
      read();
      let waitNs = 0;
      let turns = 0;
      for (const [tid, s] of last) {
        // A thread started during the count (an engine worker's) counts from its start.
        const base = first.get(tid) ?? { waitNs: 0, turns: 0 };
        waitNs += s.waitNs - base.waitNs;
        turns += s.turns - base.turns;
      }
      return { waitPerTurnMs: turns > 0 ? waitNs / turns / 1e6 : 0 };
    },
  };
}

/**
 * Gaps between arrivals are read to `toleranceMs` when the threads that send and time them
 * waited for a core less than that per turn, on average. The sender's own lateness is no
 * excuse: a pacer that sends in bursts sleeps, it does not wait for a core, and the gaps catch it.
 */
export function gapsResolvable(toleranceMs: number, waitPerTurnMs: number): boolean {
  return waitPerTurnMs <= toleranceMs;
}
