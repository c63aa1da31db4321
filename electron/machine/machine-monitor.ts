import { DEFAULTS } from '../../shared/model/defaults.ts';
import { SHORT_WINDOW_SHARE } from '../../shared/figures/windows.ts';
import type { Sample } from '../../shared/model/result.ts';
import type { RunOptions } from '../../shared/model/scenario.ts';
import type {
  GeneratorProcess,
  MachineFacts,
  MachineSample,
  OtherProcess,
} from '../../shared/model/machine-facts.ts';
import { askedPids, othersMayBeBusy } from '../../shared/machine/light-readings.ts';
import {
  machineWindow,
  processShares,
  windowOver,
  type MachineCounters,
  type MachineRoles,
  type MachineWindow,
} from '../../shared/machine/readings.ts';
import { summarizeMachine } from '../../shared/machine/summary.ts';
import type { CpuAccount } from '../engine/cpu.ts';
import { clockTicksPerSecond } from '../monitor/procfs.ts';
import { messageOf, timedCpu } from '../monitor/source.ts';
import { linkBytes, type LinkPlan } from './link.ts';
import type { MachineReader } from './proc-readers.ts';

/*
 * Reads the machine beside a run, on the host: a baseline as the load is about to start, then
 * one reading per engine tick, at most one per reading interval, each tagged with the engine
 * Sample's seq and elapsed seconds (the run's time axis, as the server's readings are). A
 * reading is synchronous (procfs answers from kernel memory), so its own CPU is measured
 * exactly; when a reading costs more than DEFAULTS.machine.costPercent of a core at the
 * interval (a machine of thousands of processes), the interval grows to keep it there.
 *
 * Most readings are light (shared/machine/light-readings.ts): /proc/stat, the generator's and
 * the server's processes, and the others' CPU as what is left of the machine's busy time.
 * Every process is read when that remainder may pass the busy verdict's share, and at the
 * run's edges: the first reading, every reading of the warm-up, the last, and when the
 * server's root changes (its tree is then unknown). The run's busiest
 * others are added up between readings of every process, so a stretch of light readings
 * between two of them is charged to the processes that used it.
 */

export interface MachineMonitorOptions {
  options: Pick<RunOptions, 'sampleIntervalMs' | 'warmupSeconds'>;
  reader: MachineReader;
  /** Whose processes are whose (the server's root may be known only once its monitor started). */
  roles: () => MachineRoles;
  link: LinkPlan | null;
  /** What must be known to read the figures (a target past this machine without a known link speed). */
  notes?: readonly string[];
  onSample?: (sample: MachineSample) => void;
  minIntervalMs?: number;
  /** Where its readings' CPU is charged when the engine shares the thread (engine/run-here.ts). */
  cpu?: CpuAccount;
}

/** What the machine's readings add to a run's result. */
export interface MachineOutcome {
  machine: MachineFacts;
  /** The generator's whole process over the measured readings; null without any. */
  generator: GeneratorProcess | null;
}

export interface MachineMonitor {
  /** Called with every engine Sample as it arrives; reads the machine when a reading is due. */
  tick(sample: Sample): void;
  stop(): MachineOutcome;
}

export function startMachineMonitor(opts: MachineMonitorOptions): MachineMonitor {
  return new RunMachine(opts);
}

class RunMachine implements MachineMonitor {
  readonly #opts: MachineMonitorOptions;
  readonly #samples: MachineSample[] = [];
  readonly #others = new Map<number, { name: string; seconds: number }>();
  readonly #threads = new Map<number, { name: string; seconds: number; max: number }>();
  readonly #notes = new Set<string>();
  readonly #startedAt = performance.now();
  readonly #sampleIntervalMs: number;
  readonly #minIntervalMs: number;
  #intervalMs: number;
  /** The readings' CPU so far (the baseline's left out), for the budget. */
  readonly #budgeted = { micros: 0, reads: 0 };
  #previous: MachineCounters | null = null;
  /** The last reading of every process: the others' CPU since then is added up from it. */
  #lastFull: MachineCounters | null = null;
  /** What a light reading asks for (askedPids), and the server's root it was found with. */
  #asked: { pids: ReadonlySet<number>; serverRoot: number | null } | null = null;
  /** The last window's others may have passed the busy share: the next reading reads every process at once. */
  #othersBusy = false;
  #lastReadElapsed = 0;
  #warmupSinceRead = false;
  #selfMicros = 0;
  #serverInGenerator = false;
  #cores = 1;
  /** The names shown, by pid: looked up once each, for the few processes shown. */
  readonly #labels = new Map<number, string>();

  constructor(opts: MachineMonitorOptions) {
    this.#opts = opts;
    this.#sampleIntervalMs = opts.options.sampleIntervalMs;
    this.#minIntervalMs = opts.minIntervalMs ?? DEFAULTS.monitor.minIntervalMs;
    this.#intervalMs = this.#minIntervalMs;
    for (const note of opts.notes ?? []) this.#notes.add(note);
    // The baseline's cost is not a reading's: the first read of /proc loads code and fills caches.
    this.#previous = this.#read(undefined).value;
    if (this.#previous) this.#full(this.#previous, opts.roles());
  }

  tick(sample: Sample): void {
    if (sample.warmup) this.#warmupSinceRead = true;
    // As the server's monitor: the warm-up's last tick is read, and readings are due by the engine's clock.
    const warmupEnds =
      sample.warmup &&
      sample.elapsedSeconds + this.#sampleIntervalMs / 2000 >= this.#opts.options.warmupSeconds;
    const due =
      sample.final === true ||
      warmupEnds ||
      sample.elapsedSeconds - this.#lastReadElapsed >= (this.#intervalMs - this.#sampleIntervalMs / 2) / 1000;
    if (!due) return;
    const warmup = this.#warmupSinceRead;
    this.#warmupSinceRead = false;
    this.#lastReadElapsed = sample.elapsedSeconds;
    const reading = (): void => this.#reading(sample, warmup);
    if (this.#opts.cpu) this.#opts.cpu.charge(reading);
    else reading();
  }

  stop(): MachineOutcome {
    const readingSeconds = Math.max(this.#intervalMs, this.#sampleIntervalMs) / 1000;
    const { generator, linkIn, linkOut, ...summary } = summarizeMachine(
      this.#samples,
      { others: this.#others, threads: this.#threads, serverInGenerator: this.#serverInGenerator },
      readingSeconds,
    );
    if (this.#opts.reader.cut()) {
      this.#notes.add(
        `more than ${DEFAULTS.machine.maxProcesses} processes: only the first ${DEFAULTS.machine.maxProcesses} of each reading were read`,
      );
    }
    if (summary.serverInGenerator) {
      this.#notes.add(
        "the server runs in the generator's own process: the generator's CPU holds the server's too, and is not judged",
      );
    }
    summary.otherProcesses = summary.otherProcesses.map((p) => this.#named(p));
    const link = this.#opts.link;
    const wallMs = performance.now() - this.#startedAt;
    return {
      machine: {
        reader: this.#opts.reader.reader,
        platform: process.platform,
        cores: this.#cores,
        minIntervalMs: Math.round(this.#intervalMs),
        samples: this.#samples,
        ...summary,
        ...(link
          ? {
              link: {
                device: link.device,
                bitsPerSecond: link.bitsPerSecond,
                from: link.from,
                inBitsPerSecond: linkIn ?? 0,
                outBitsPerSecond: linkOut ?? 0,
              },
            }
          : {}),
        notes: [...this.#notes].slice(0, 20),
        monitorCpuPercent: wallMs > 0 ? (this.#selfMicros / 1000 / wallMs) * 100 : null,
      },
      generator,
    };
  }

  /** A process as shown: its name from its command line (the few shown are looked up, once each). */
  #named(p: OtherProcess): OtherProcess {
    let label = this.#labels.get(p.pid);
    if (label === undefined) {
      const { value, micros } = timedCpu(() => this.#opts.reader.label(p.pid, p.name));
      this.#selfMicros += micros;
      label = value;
      this.#labels.set(p.pid, label);
    }
    return { ...p, name: label };
  }

  /** One read of the counters (every process, or `only` those), and its CPU. */
  #read(only: ReadonlySet<number> | undefined): { value: MachineCounters | null; micros: number } {
    const device = this.#opts.link?.device;
    try {
      const { value, micros } = timedCpu(() =>
        this.#opts.reader.read(device === undefined ? null : () => linkBytes(device), only),
      );
      this.#selfMicros += micros;
      this.#cores = value.cores;
      return { value, micros };
    } catch (err) {
      this.#notes.add(`a machine reading failed: ${messageOf(err)}`);
      return { value: null, micros: 0 };
    }
  }

  /** A reading of every process: what light readings ask for from now on, and where the others' CPU is added up from. */
  #full(counters: MachineCounters, roles: MachineRoles): void {
    if (counters.only !== undefined || !counters.processes) return;
    this.#lastFull = counters;
    this.#asked = { pids: askedPids(counters.processes, roles), serverRoot: roles.serverRoot };
  }

  /** Whether a window's others may have passed the busy share, its processes' counters cut to USER_HZ ticks. */
  #mayBeBusy(w: MachineWindow, counted: number): boolean {
    return othersMayBeBusy(w.figures, counted, 1 / clockTicksPerSecond());
  }

  /**
   * The counters of a reading: light when one will do; every process when the light one's
   * others may pass the busy share, when the last window's did (a busy stretch is read once a
   * reading, not twice), or when `everyProcess`.
   */
  #take(
    previous: MachineCounters | null,
    roles: MachineRoles,
    everyProcess: boolean,
  ): MachineCounters | null {
    const asked = this.#asked;
    const light =
      !everyProcess &&
      !this.#othersBusy &&
      previous !== null &&
      asked !== null &&
      asked.serverRoot === roles.serverRoot;
    let { value: current, micros } = this.#read(light ? asked.pids : undefined);
    if (current?.only !== undefined && previous) {
      if (this.#mayBeBusy(machineWindow(previous, current, roles), current.processes?.size ?? 0)) {
        const again = this.#read(undefined);
        current = again.value ?? current;
        micros += again.micros;
      }
    }
    // The budget: the readings' mean CPU over the interval stays within DEFAULTS.machine.costPercent of a core.
    if (current) {
      this.#budgeted.micros += micros;
      this.#budgeted.reads++;
      const budgetMs =
        this.#budgeted.micros / this.#budgeted.reads / 1000 / (DEFAULTS.machine.costPercent / 100);
      this.#intervalMs = Math.min(Math.max(this.#minIntervalMs, budgetMs), DEFAULTS.machine.maxIntervalMs);
    }
    return current;
  }

  #reading(sample: Sample, warmup: boolean): void {
    const roles = this.#opts.roles();
    const previous = this.#previous;
    // The first window is scaled to the load's time (windowOver); the warm-up's readings keep
    // the span the run's others are added up over out of it; the last closes that span.
    const first = !this.#samples.some((s) => s.gap === undefined);
    const current = this.#take(previous, roles, first || warmup || sample.final === true);
    if (current) this.#previous = current;
    const at = { seq: sample.seq, elapsedSeconds: sample.elapsedSeconds, warmup };
    if (!current || !previous) {
      if (current) this.#full(current, roles);
      this.#push({
        ...at,
        intervalSeconds: 0,
        cores: this.#cores,
        cpuBusyPercent: 0,
        cpuIdlePercent: 0,
        cpuIowaitPercent: 0,
        cpuStealPercent: 0,
        generatorCpuPercent: 0,
        gap: current ? 'no earlier reading to compare with' : 'the machine could not be read',
      });
      return;
    }
    // The first window began before the engine did: it counts as the load's time (windowOver).
    const read = machineWindow(previous, current, roles);
    this.#othersBusy = this.#mayBeBusy(read, this.#asked?.pids.size ?? 0);
    const w = first && sample.elapsedSeconds > 0 ? windowOver(read, sample.elapsedSeconds) : read;
    this.#serverInGenerator ||= w.serverInGenerator;
    if (!warmup) {
      for (const [pid, p] of this.#othersSince(previous, current, w, roles)) {
        const total = this.#others.get(pid);
        if (total) total.seconds += p.seconds;
        else this.#others.set(pid, { ...p });
      }
      const seconds = w.figures.intervalSeconds;
      // A run's last short window counts in the mean, not the max (one 10 ms tick in it reads 46 %).
      const short =
        seconds < (Math.max(this.#intervalMs, this.#sampleIntervalMs) / 1000) * SHORT_WINDOW_SHARE;
      for (const [tid, t] of w.threads) {
        const pct = seconds > 0 && !short ? (t.seconds / seconds) * 100 : 0;
        const total = this.#threads.get(tid);
        if (total) {
          total.seconds += t.seconds;
          total.max = Math.max(total.max, pct);
        } else this.#threads.set(tid, { name: t.name, seconds: t.seconds, max: pct });
      }
    }
    this.#full(current, roles);
    const { otherProcesses, ...figures } = w.figures;
    this.#push({
      ...at,
      ...figures,
      ...(otherProcesses ? { otherProcesses: otherProcesses.map((p) => this.#named(p)) } : {}),
    });
  }

  /**
   * The others' CPU-seconds a reading adds to the run's: a window between two readings of every
   * process has its own; a reading of every process after light ones brings those since the
   * last reading of every process (the span's, as no light reading names anyone); a light one, none yet.
   */
  #othersSince(
    previous: MachineCounters,
    current: MachineCounters,
    w: Pick<MachineWindow, 'others'>,
    roles: MachineRoles,
  ): MachineWindow['others'] {
    if (previous.only === undefined && current.only === undefined) return w.others;
    const last = this.#lastFull;
    return current.only === undefined && last?.processes && current.processes
      ? processShares(last.processes, current.processes, roles).others
      : new Map<number, { name: string; seconds: number }>();
  }

  #push(sample: MachineSample): void {
    this.#samples.push(sample);
    try {
      this.#opts.onSample?.(sample);
    } catch {
      // A listener's failure is the listener's: reading goes on.
    }
  }
}
