import type { ResourceSample, ResourceSource } from '../../shared/model/server-resources.ts';
import { cpuClock } from '../engine/cpu.ts';

/** One serving process's CPU-seconds in a reading's window (a process tree's workers). */
export interface WorkerShare {
  pid: number;
  name: string;
  seconds: number;
}

/**
 * One reading's outcome: the figures since the previous successful reading (a process tree's
 * also per serving process), or why there are none.
 */
export type SourceReading = { figures: Partial<ResourceSample>; workers?: WorkerShare[] } | { gap: string };

/** Something that samples a server: its process tree (process-source.ts) or a node_exporter (exporter-source.ts). */
export interface MonitorSource {
  /** What is sampled and how (grows as new processes join the tree). */
  facts(): ResourceSource;
  /** Takes a reading; never rejects. */
  read(): Promise<SourceReading>;
  /** What could not be read or must be known to read the figures. */
  notes(): string[];
  /** The root of the process tree it watches on this machine (null for an exporter). */
  rootPid(): number | null;
  /** CPU time this source spent on the host thread so far, microseconds. */
  selfCpuMicros(): number;
  close(): void;
}

/** Microseconds of CPU the calling thread used running `fn` (synchronous work only). */
export function timedCpu<T>(fn: () => T): { value: T; micros: number } {
  const before = cpuClock();
  const value = fn();
  const after = cpuClock();
  return { value, micros: after.user - before.user + (after.system - before.system) };
}

/** A short message of any thrown value. */
export const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));
