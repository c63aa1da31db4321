import type { GeneratorFacts } from './result.ts';

/**
 * The generator's CPU as the verdict judges it: per engine worker thread, since each runs on
 * one core and any one of them flat out limits the load (two workers at 60% each are not a
 * saturated client, one at 95% is). Results saved before workers existed had one. Pure.
 */
export interface WorkerCpu {
  workers: number;
  /** The busiest worker's mean and max CPU, percent of one core. */
  busiestMean: number;
  busiestMax: number;
  /** Some worker ran flat out. */
  saturated: boolean;
}

export function workerCpu(g: GeneratorFacts): WorkerCpu {
  const list = g.workers ?? [
    { cpuPercentMean: g.cpuPercentMean, cpuPercentMax: g.cpuPercentMax, saturated: g.saturated },
  ];
  return {
    workers: list.length,
    busiestMean: Math.max(...list.map((w) => w.cpuPercentMean)),
    busiestMax: Math.max(...list.map((w) => w.cpuPercentMax)),
    saturated: g.saturated || list.some((w) => w.saturated),
  };
}
