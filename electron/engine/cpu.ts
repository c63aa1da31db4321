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

/**
 * A meter of this thread's CPU: each call returns the percent of one core used since the
 * previous call (or since the meter was made), over the wall time between them.
 */
export function cpuMeter(): () => number {
  let last = cpuClock();
  let lastAt = performance.now();
  return () => {
    const now = performance.now();
    const cpu = cpuClock();
    const micros = cpu.user - last.user + (cpu.system - last.system);
    const percent = now > lastAt ? Math.max(0, (micros / 1000 / (now - lastAt)) * 100) : 0;
    last = cpu;
    lastAt = now;
    return percent;
  };
}
