import { DEFAULTS } from '../../shared/model/defaults.ts';
import type { RunResult, Sample } from '../../shared/model/result.ts';
import type { ResourceSample, ResourceSource, ServerResources } from '../../shared/model/server-resources.ts';
import type { RunOptions, Target } from '../../shared/model/scenario.ts';
import type { CpuAccount } from '../engine/cpu.ts';
import { groupGaps, readingOver } from '../../shared/resources/charts.ts';
import { summarizeResources } from '../../shared/resources/summary.ts';
import { startProcessSource } from './process-source.ts';
import { resolveMonitor } from './resolve.ts';
import { messageOf, type MonitorSource, type WorkerShare } from './source.ts';
import { WorkerTotals } from './worker-totals.ts';

/*
 * Watches a target's server beside its run, on the host (never in the engine worker): one
 * reading per engine tick, at most one per DEFAULTS.monitor.minIntervalMs, each tagged with
 * the engine Sample's seq and elapsed seconds so both series share the run's time axis.
 * Whatever fails (no listener, a process gone, an exporter down) is a gap with its reason,
 * never a failed run.
 */

export interface ServerMonitorOptions {
  /** The run's options: its sample interval and warm-up. */
  options: Pick<RunOptions, 'sampleIntervalMs' | 'warmupSeconds'>;
  onSample?: (sample: ResourceSample) => void;
  minIntervalMs?: number;
  /**
   * Where its readings' CPU is charged: the host's account when the engine runs on the same
   * thread (the CLI's tiny runs, engine/run-here.ts), so the engine's CPU figure leaves it out.
   */
  cpu?: CpuAccount;
}

/** A run's server monitor: feed it the engine's samples, stop it after the run. */
export interface ServerMonitor {
  /** Called with every engine Sample as it arrives; takes a reading when one is due. */
  tick(sample: Sample): void;
  /** Waits for the last reading and returns the series; the summary needs the run's measured requests. */
  stop(measured: { seconds: number; requests: number }): Promise<ServerResources>;
  /** The root of the server's process tree on this machine, when a process tree is watched. */
  rootPid(): number | null;
}

/**
 * Starts watching `target`'s server as its monitor says (null when it is off). Resolves
 * once the baseline reading is taken, so the first tick's figures cover the run from its
 * start; the start itself never fails (a monitor that cannot sample reports why).
 */
export async function startServerMonitor(
  target: Pick<Target, 'url' | 'monitor' | 'connectTo' | 'unixSocket'>,
  opts: ServerMonitorOptions,
): Promise<ServerMonitor | null> {
  let source: MonitorSource | null = null;
  let reason: string | null = null;
  try {
    const plan = await resolveMonitor(target);
    if (plan === null) return null;
    switch (plan.kind) {
      case 'none':
        reason = plan.reason;
        break;
      case 'node-exporter':
        // Loaded only here: node:http, node:https and the text-format parser cost a start ~0.1 CPU-s.
        source = await (await import('./exporter-source.ts')).startExporterSource(plan.url);
        break;
      case 'port':
      case 'unix':
      case 'pid': {
        const started = startProcessSource(plan);
        if (started.ok) source = started.source;
        else reason = started.reason;
        break;
      }
    }
  } catch (err) {
    reason = `the monitor could not start: ${messageOf(err)}`;
  }
  return monitorOf(source, reason ?? 'nothing to sample', opts);
}

/** A monitor over a started source (or none, with the reason); startServerMonitor's second half. */
export function monitorOf(
  source: MonitorSource | null,
  noSourceReason: string,
  opts: ServerMonitorOptions,
): ServerMonitor {
  return new RunMonitor(source, noSourceReason, opts);
}

class RunMonitor implements ServerMonitor {
  readonly #source: MonitorSource | null;
  readonly #noSourceReason: string;
  readonly #onSample: (sample: ResourceSample) => void;
  readonly #minIntervalMs: number;
  readonly #sampleIntervalMs: number;
  readonly #warmupSeconds: number;
  readonly #cpu: CpuAccount | undefined;
  readonly #samples: ResourceSample[] = [];
  readonly #startedAt = performance.now();
  /** The engine's elapsed seconds at the last reading (0: the baseline, at the run's start). */
  #lastReadElapsed = 0;
  #busy = false;
  /** The reading in progress (and a final one queued behind it). */
  #chain: Promise<void> = Promise.resolve();
  /** A warm-up window was seen since the last reading: the next reading covers warm-up time. */
  #warmupSinceRead = false;
  readonly #workers = new WorkerTotals();

  constructor(source: MonitorSource | null, noSourceReason: string, opts: ServerMonitorOptions) {
    this.#source = source;
    this.#noSourceReason = noSourceReason;
    this.#onSample = opts.onSample ?? (() => undefined);
    this.#minIntervalMs = opts.minIntervalMs ?? DEFAULTS.monitor.minIntervalMs;
    this.#sampleIntervalMs = opts.options.sampleIntervalMs;
    this.#warmupSeconds = opts.options.warmupSeconds;
    this.#cpu = opts.cpu;
  }

  tick(sample: Sample): void {
    if (!this.#source) return;
    if (sample.warmup) this.#warmupSinceRead = true;
    // The warm-up's last tick is read, so the measured part starts on a reading of its own.
    const warmupEnds =
      sample.warmup && sample.elapsedSeconds + this.#sampleIntervalMs / 2000 >= this.#warmupSeconds;
    // Due by the engine's clock (its ticks are on a grid), not by when the samples arrive here:
    // a busy host delivers them with jitter, which would skip readings at random.
    const due =
      sample.final === true ||
      warmupEnds ||
      sample.elapsedSeconds - this.#lastReadElapsed >=
        (this.#minIntervalMs - this.#sampleIntervalMs / 2) / 1000;
    if (!due) return;
    if (this.#busy && sample.final !== true) {
      this.#push(sample, { gap: 'the previous reading was still running (slower than the tick)' });
      return;
    }
    // What the reading covers is settled now, not when it runs: ticks may queue behind a slow one.
    const warmup = this.#warmupSinceRead;
    this.#warmupSinceRead = false;
    this.#lastReadElapsed = sample.elapsedSeconds;
    // A reading's work is synchronous up to its source's answer (all of it for /proc): charged whole.
    const read = (): Promise<void> => this.#read(sample, warmup);
    this.#chain = this.#chain.then(() => (this.#cpu ? this.#cpu.charge(read) : read()));
  }

  rootPid(): number | null {
    return this.#source?.rootPid() ?? null;
  }

  async stop(measured: { seconds: number; requests: number }): Promise<ServerResources> {
    await this.#chain;
    const source = this.#source;
    source?.close();
    const facts: ResourceSource = source ? source.facts() : { method: 'none', reason: this.#noSourceReason };
    // Readings fall on engine ticks at least minIntervalMs apart: about this far, or a tick.
    const readingSeconds = Math.max(this.#minIntervalMs, this.#sampleIntervalMs) / 1000;
    const { note, ...summary } = summarizeResources(this.#samples, measured, readingSeconds);
    const wallMs = performance.now() - this.#startedAt;
    const workers = this.#workers.summary();
    return {
      source: facts,
      minIntervalMs: this.#minIntervalMs,
      samples: this.#samples,
      ...summary,
      ...(workers ? { workers } : {}),
      gaps: groupGaps(this.#samples),
      notes: [...(source?.notes() ?? []), ...(note ? [note] : [])].slice(0, 50),
      monitorCpuPercent: source && wallMs > 0 ? (source.selfCpuMicros() / 1000 / wallMs) * 100 : null,
    };
  }

  async #read(sample: Sample, warmup: boolean): Promise<void> {
    const source = this.#source;
    if (!source) return;
    this.#busy = true;
    try {
      const reading = await source.read();
      let figures: Partial<ResourceSample> = 'gap' in reading ? reading : reading.figures;
      const workers: WorkerShare[] = 'gap' in reading ? [] : (reading.workers ?? []);
      // The baseline was read before the pre-flight and the engine's start (2-3 s on a busy
      // host): the first window is the load's own, its elapsed time, or its rates would be
      // diluted by the idle time before it (and weigh that much more in the mean).
      const first = !this.#samples.some((s) => s.intervalSeconds > 0);
      const window = figures.intervalSeconds ?? 0;
      if (first && sample.elapsedSeconds > 0 && window > sample.elapsedSeconds) {
        figures = readingOver(figures, sample.elapsedSeconds);
      }
      if (!warmup) {
        const readingSeconds = Math.max(this.#minIntervalMs, this.#sampleIntervalMs) / 1000;
        this.#workers.add(workers, figures.intervalSeconds ?? 0, readingSeconds);
      }
      this.#push(sample, figures, warmup);
    } finally {
      this.#busy = false;
    }
  }

  #push(sample: Sample, figures: Partial<ResourceSample>, warmup = sample.warmup): void {
    const out: ResourceSample = {
      intervalSeconds: 0,
      ...figures,
      seq: sample.seq,
      elapsedSeconds: sample.elapsedSeconds,
      warmup,
    };
    this.#samples.push(out);
    try {
      this.#onSample(out);
    } catch {
      // A listener's failure is the listener's: sampling goes on.
    }
  }
}

/**
 * The result with its server resources: the monitor stopped once the run's figures are known.
 * A run that sent no load (stopped by its pre-flight, a file it could not read) has no server
 * figures: readings of an idle server beside zero requests would only look like a result. Why
 * nothing could be watched (nothing listens on the port) is still said.
 */
export async function withServerResources(
  result: RunResult,
  monitor: ServerMonitor | null,
): Promise<RunResult> {
  if (!monitor) return result;
  const serverResources = await monitor.stop({
    seconds: result.durationSeconds,
    requests: result.requests.total,
  });
  const noLoad = result.status === 'failed' && result.samples.length === 0;
  return noLoad && serverResources.source.method !== 'none' ? result : { ...result, serverResources };
}
