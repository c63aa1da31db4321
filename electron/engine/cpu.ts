import { readFileSync, readlinkSync } from 'node:fs';
import type { GeneratorFacts } from '../../shared/model/result.ts';

const perThread = typeof process.threadCpuUsage === 'function';

/**
 * What cpuClock() measures. Called in the engine worker it is that thread's CPU time, which
 * is where the load generator runs (sockets, HTTP parsing, bookkeeping; the kernel's network
 * work on its behalf is in the system part). process.cpuUsage() would add the host's own
 * threads, so it is only the fallback on a Node without threadCpuUsage().
 */
export const CPU_SCOPE: NonNullable<GeneratorFacts['cpuScope']> = perThread ? 'engine-thread' : 'process';

export const cpuClock: () => NodeJS.CpuUsage = perThread
  ? () => process.threadCpuUsage()
  : () => process.cpuUsage();

/** CPU microseconds between two readings of cpuClock(). */
const microsBetween = (a: NodeJS.CpuUsage, b: NodeJS.CpuUsage): number =>
  b.user - a.user + (b.system - a.system);

/**
 * CPU time one part of a thread charges to itself (the coordinator's work, in the thread of the
 * shard it runs beside), so the thread's meter for the other part can leave it out.
 */
export class CpuAccount {
  #micros = 0;

  /** Runs fn, charging its CPU time here. */
  charge<T>(fn: () => T): T {
    const before = cpuClock();
    try {
      return fn();
    } finally {
      this.#micros += microsBetween(before, cpuClock());
    }
  }

  get seconds(): number {
    return this.#micros / 1e6;
  }
}

/**
 * A meter of this thread's CPU: each call returns the percent of one core used since the
 * previous call (or since the meter was made), over the wall time between them, less what
 * was charged to the `excluded` accounts meanwhile.
 */
export function cpuMeter(...excluded: readonly CpuAccount[]): () => number {
  const excludedSeconds = (): number => excluded.reduce((sum, account) => sum + account.seconds, 0);
  let last = cpuClock();
  let lastExcluded = excludedSeconds();
  let lastAt = performance.now();
  return () => {
    const now = performance.now();
    const cpu = cpuClock();
    const nowExcluded = excludedSeconds();
    const micros = microsBetween(last, cpu) - (nowExcluded - lastExcluded) * 1e6;
    const percent = now > lastAt ? Math.max(0, (micros / 1000 / (now - lastAt)) * 100) : 0;
    last = cpu;
    lastExcluded = nowExcluded;
    lastAt = now;
    return percent;
  };
}

/**
 * This thread's id on Linux (`/proc/thread-self` links to `PID/task/TID`), so another thread of
 * the process can read its CPU time (threadCpuNs); null where there is no such link.
 */
export function linuxThreadId(): number | null {
  try {
    const id = Number(/\/task\/(\d+)$/.exec(readlinkSync('/proc/thread-self'))?.[1]);
    return Number.isSafeInteger(id) && id > 0 && threadCpuNs(id) !== null ? id : null;
  } catch {
    return null;
  }
}

/**
 * The CPU time (ns, user and system) thread `tid` of this process has run, read from another
 * thread: its schedstat's first field, the scheduler's own count (what getrusage's user and
 * system times are split from). Null when it cannot be read.
 */
export function threadCpuNs(tid: number): number | null {
  try {
    const ns = Number(readFileSync(`/proc/self/task/${tid}/schedstat`, 'latin1').split(' ', 1)[0]);
    return Number.isSafeInteger(ns) && ns >= 0 ? ns : null;
  } catch {
    return null;
  }
}
