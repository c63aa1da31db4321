import type { GeneratorFacts } from '../../shared/result.ts';

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
