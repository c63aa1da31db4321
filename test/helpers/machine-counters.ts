import type { CpuTimes, ProcessTimes } from '../../shared/machine/readings.ts';

/** A machine's CPU times by mode (seconds), zero but for those given. */
export const cpu = (over: Partial<CpuTimes> = {}): CpuTimes => ({
  user: 0,
  nice: 0,
  system: 0,
  idle: 0,
  iowait: 0,
  irq: 0,
  softirq: 0,
  steal: 0,
  ...over,
});

/** A process's counters: its parent and CPU-seconds, started at tick 1, a user process named p. */
export const proc = (ppid: number, seconds: number, over: Partial<ProcessTimes> = {}): ProcessTimes => ({
  ppid,
  name: 'p',
  seconds,
  childSeconds: 0,
  start: 1,
  kernel: false,
  ...over,
});
