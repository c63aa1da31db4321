import { setTimeout as sleep } from 'node:timers/promises';
import { DEFAULTS, VERDICT } from '../../shared/model/defaults.ts';
import { busiest, machineWindow, type MachineCounters } from '../../shared/machine/readings.ts';
import type { OtherProcess } from '../../shared/model/machine-facts.ts';
import { machineReader, type MachineReader } from './proc-readers.ts';

/*
 * Waiting for a busy machine to calm down before a capacity step is measured again (issue
 * 32): the machine is read once a second, and it is calm once the other processes took at
 * most half the share that makes a run's machine busy (VERDICT.machineOtherPercent) in
 * CALM_READINGS readings in a row, so a step does not start on the edge of the threshold.
 * Where processes cannot be listed (os.cpus()), the idle CPU stands for it: the generator is
 * idle between steps, so what is busy then is the rest.
 */

/** Readings in a row under the threshold that make the machine calm. */
export const CALM_READINGS = 2;

export interface CalmOutcome {
  calm: boolean;
  waitedSeconds: number;
  /** The other processes' share of all cores at the last reading, and the busiest of them. */
  otherPercent: number;
  busiest: OtherProcess[];
}

/** Waits up to `maxSeconds` (or until `signal` aborts) for the machine to calm down. */
export async function waitForCalm(opts: {
  maxSeconds: number;
  signal: AbortSignal;
  reader?: MachineReader;
  everyMs?: number;
}): Promise<CalmOutcome> {
  const reader = opts.reader ?? machineReader(DEFAULTS.machine.maxProcesses);
  const every = opts.everyMs ?? DEFAULTS.monitor.minIntervalMs;
  const started = performance.now();
  const waited = (): number => (performance.now() - started) / 1000;
  let prev: MachineCounters = reader.read(null);
  let quiet = 0;
  let last: Omit<CalmOutcome, 'calm' | 'waitedSeconds'> = { otherPercent: 0, busiest: [] };
  while (waited() < opts.maxSeconds && !opts.signal.aborted) {
    try {
      await sleep(every, undefined, { signal: opts.signal });
    } catch {
      break;
    }
    const cur = reader.read(null);
    const w = machineWindow(prev, cur, { selfPid: process.pid, serverRoot: null });
    prev = cur;
    const others =
      w.figures.otherCpuPercent === undefined
        ? Math.max(0, w.figures.cpuBusyPercent - w.figures.generatorCpuPercent / cur.cores)
        : w.figures.otherCpuPercent / cur.cores;
    last = { otherPercent: others, busiest: busiest(w.others, w.figures.intervalSeconds) };
    quiet = others <= VERDICT.machineOtherPercent / 2 ? quiet + 1 : 0;
    if (quiet >= CALM_READINGS) {
      return { calm: true, waitedSeconds: waited(), ...last, busiest: named(reader, last.busiest) };
    }
  }
  return { calm: false, waitedSeconds: waited(), ...last, busiest: named(reader, last.busiest) };
}

const named = (reader: MachineReader, list: readonly OtherProcess[]): OtherProcess[] =>
  list.map((p) => ({ ...p, name: reader.label(p.pid, p.name) }));
