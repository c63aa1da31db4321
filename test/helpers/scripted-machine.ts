import type { MachineReader } from '../../electron/machine/proc-readers.ts';
import type { MachineCounters, ProcessTimes } from '../../shared/machine/readings.ts';

/** A process of a scripted machine, busy at one steady share of a core. */
export interface ScriptedProcess {
  pid: number;
  /** Its comm, as /proc/<pid>/stat has it (and the name shown: a scripted command line is its comm). */
  name: string;
  /** Its CPU, % of one core, in every interval. */
  cpuPercent: number;
  /** Its parent's pid (default 1): a server's workers name its root. */
  ppid?: number;
  /** The stretch of the clock (ms, from and until) it runs in; always when absent. */
  during?: readonly [number, number];
}

/** What a scripted machine runs beside the generator. */
export interface MachineScript {
  /** Default 2. */
  cores?: number;
  /** Every process besides the generator's: the other processes and the server's. */
  processes: readonly ScriptedProcess[];
  /** The generator's process (this one), % of one core, all of it on its one thread "engine". Default 15. */
  generatorPercent?: number;
}

/**
 * How far a reading moves the clock at least: the engine's final sample repeats its last
 * window's time, and a real reading on it comes a moment after the one before (a window of
 * no time would read no CPU at all).
 */
export const MIN_READING_MS = 1;

/** The generator's one thread as the scripted machine shows it. */
export const ENGINE_THREAD = 'engine';

/** A scripted machine's reader, and how many of its readings read every process and how many were light. */
export type ScriptedReader = MachineReader & { reads: () => { full: number; light: number } };

/** A process's CPU-seconds by `ms` on the clock: its share of the time it has run. */
function cpuSeconds(p: ScriptedProcess, ms: number): number {
  const [from, until] = p.during ?? [0, Infinity];
  const ran = Math.max(0, Math.min(ms, until) - from);
  return ((ran / 1000) * p.cpuPercent) / 100;
}

/**
 * A MachineReader (electron/machine/proc-readers.ts) of a scripted machine, for the host's own
 * machine monitor: each process's CPU time grows at its share with `clock` (ms: the run's time
 * in the scripted engine, so its readings fall a tick apart however fast the samples are sent;
 * MIN_READING_MS past the reading before at least), the machine's busy time is all of theirs together and the rest of its cores is idle. The
 * same clock gives the same counters, so every window reads the script's shares exactly. A
 * light reading (`only`) lists just the processes asked for, as /proc's reader does.
 */
export function scriptedMachine(script: MachineScript, clock: () => number): ScriptedReader {
  const cores = script.cores ?? 2;
  const generator: ScriptedProcess = {
    pid: process.pid,
    name: 'node',
    cpuPercent: script.generatorPercent ?? 15,
    ppid: process.ppid,
  };
  const all = [generator, ...script.processes];
  const pids = new Set(all.map((p) => p.pid));
  if (pids.size < all.length)
    throw new Error('a scripted machine lists a pid twice (or the generator’s own)');
  const busyCores = all.reduce((sum, p) => sum + p.cpuPercent, 0) / 100;
  if (busyCores > cores) {
    throw new Error(`a scripted machine's processes use ${busyCores} cores of its ${cores}`);
  }
  let last = -Infinity;
  let lastLight = false;
  const reads = { full: 0, light: 0 };
  return {
    reader: 'procfs',
    read(linkBytes, only): MachineCounters {
      // The monitor's look at every process after a light reading is that same instant's.
      const at = Math.max(clock(), last + (lastLight && !only ? 0 : MIN_READING_MS));
      last = at;
      lastLight = only !== undefined;
      if (only) reads.light++;
      else reads.full++;
      const seconds = at / 1000;
      const processes = new Map<number, ProcessTimes>(
        all
          .filter((p) => !only || only.has(p.pid))
          .map((p) => [
            p.pid,
            {
              ppid: p.ppid ?? 1,
              name: p.name,
              seconds: cpuSeconds(p, at),
              childSeconds: 0,
              start: 1,
              kernel: false,
            },
          ]),
      );
      const own = cpuSeconds(generator, at);
      const busy = all.reduce((sum, p) => sum + cpuSeconds(p, at), 0);
      return {
        at,
        cores,
        cpu: {
          user: busy,
          nice: 0,
          system: 0,
          idle: seconds * cores - busy,
          iowait: 0,
          irq: 0,
          softirq: 0,
          steal: 0,
        },
        processes,
        threads: new Map([[process.pid, { name: ENGINE_THREAD, seconds: own }]]),
        selfSeconds: own,
        link: linkBytes?.() ?? null,
        ...(only ? { only } : {}),
      };
    },
    cut: () => false,
    label: (_pid, comm) => comm,
    reads: () => ({ ...reads }),
  };
}
