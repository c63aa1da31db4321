import { preflight } from '../../electron/engine/preflight/preflight.ts';
import { resultFromSamples } from '../../electron/engine/result.ts';
import { plannedEngine } from '../../electron/engine/load-generators.ts';
import { buildRunSpec } from '../../electron/engine/spec.ts';
import type { StartTarget } from '../../electron/jobs/target-run.ts';
import { startMachine, withMachine } from '../../electron/machine/start.ts';
import type { MachineReader } from '../../electron/machine/proc-readers.ts';
import { monitorOf, withServerResources } from '../../electron/monitor/server-monitor.ts';
import type { MonitorSource, SourceReading } from '../../electron/monitor/source.ts';
import type { RunResult, Sample } from '../../shared/model/result.ts';
import type { Load, Scenario, Target } from '../../shared/model/scenario.ts';
import type { ResourceSource } from '../../shared/model/server-resources.ts';
import { simulateLoad, type ServerScript } from './scripted-load.ts';

export interface ScriptedEngineOptions {
  /**
   * How the server at a target's URL answers a load (scripted-load.ts): a capacity step's load
   * is its rate, so a server can break above a rate. Default: a quick 200 to every request.
   */
  server?: (url: string, load: Load) => ServerScript;
  /** Wall-clock ms between two samples sent: a scripted run goes this fast. Default 40. */
  msPerSample?: number;
  /**
   * Each run (or each the function picks, by its one-target scenario) sends this many samples,
   * then waits for resume() or a stop: a test acts on a run still going, however slow the machine.
   */
  pauseAfter?: number | ((scenario: Scenario) => number | null);
  /**
   * What the server monitor of a target reads (scriptedSource()), through the host's own
   * monitor (readings on the engine's ticks, gaps, the summary). Default: busyServer().
   */
  monitor?: (target: Target) => MonitorSource | null;
  /**
   * What the machine of a target's run reads (scripted-machine.ts), through the host's own
   * machine monitor (readings on the engine's ticks, the summary, the verdict's figures);
   * `clock` is the run's time in ms as its samples count it (0 before the load). Default: the
   * machine is not read, as the tier's runs leave it (TREBUCHET_MACHINE=off).
   */
  machine?: (target: Target, clock: () => number) => MachineReader | null;
}

interface ScriptedRun {
  /** One target's scenario, as the engine gets it. */
  scenario: Scenario;
  resume: () => void;
  stopped: boolean;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The engine for the browser tests that are about the page (docs/testing.md), at the host's
 * startTarget seam: each target's run goes as the engine's does up to its load (the spec is
 * built on the host, its files read; the engine's real pre-flight sends its one request, so a
 * wrong path, a bad certificate or a refused port fails as it would), then the load is
 * simulated (scripted-load.ts) and its samples are sent a few ms apart, so a run of minutes
 * takes moments and its figures are the same every time. The real engine's numbers are the
 * integration tests' to check.
 */
export class ScriptedEngine {
  /** Every target run asked for, in order (one target's scenario each). */
  readonly started: Scenario[] = [];
  /** Indices (into started) of the runs asked to stop. */
  readonly stopped: number[] = [];
  readonly #runs: ScriptedRun[] = [];
  readonly #opts: ScriptedEngineOptions;

  constructor(opts: ScriptedEngineOptions = {}) {
    this.#opts = opts;
  }

  /** Lets run `index` (the last one started by default) go on past pauseAfter. */
  resume(index = this.#runs.length - 1): void {
    this.#runs[index]?.resume();
  }

  readonly start: StartTarget = (scenario, targetIndex, on, ids) => {
    const index = this.started.length;
    const one = { ...scenario, targets: [scenario.targets[targetIndex]!] };
    this.started.push(one);
    const abort = new AbortController();
    let resume: () => void = () => undefined;
    const resumed = new Promise<void>((resolve) => (resume = resolve));
    const run: ScriptedRun = { scenario: one, resume, stopped: false };
    this.#runs.push(run);
    const pace = this.#opts.msPerSample ?? 40;
    const pauseAt =
      typeof this.#opts.pauseAfter === 'function' ? this.#opts.pauseAfter(one) : this.#opts.pauseAfter;

    const done = (async (): Promise<RunResult | null> => {
      const built = await buildRunSpec(scenario, targetIndex, ids);
      const source = built.ok ? (this.#opts.monitor ?? busyServer)(built.spec.target) : null;
      const monitor = source
        ? monitorOf(source, '', { options: scenario.options, onSample: (r) => on.reading(r) })
        : null;
      let clockMs = 0;
      const reader = built.ok ? (this.#opts.machine?.(built.spec.target, () => clockMs) ?? null) : null;
      if (run.stopped) return null;
      on.started();
      if (!built.ok) return built.result;
      // As target-run.ts: the baseline just before the engine starts; a scripted machine has no link.
      const machine = reader
        ? startMachine({
            plan: { link: null, notes: [], serverRoot: null },
            options: scenario.options,
            serverRoot: () => monitor?.rootPid() ?? null,
            onSample: (reading) => on.machine(reading),
            reader,
          })
        : null;
      const send = (sample: Sample): void => {
        on.sample(sample);
        monitor?.tick(sample);
        clockMs = sample.elapsedSeconds * 1000;
        machine?.tick(sample);
      };
      const finish = (result: RunResult) =>
        withServerResources(withMachine(result, machine?.stop() ?? null), monitor);
      const spec = built.spec;
      const startedAt = new Date();
      const engine = plannedEngine(spec.options);
      const checked = await preflight(spec, abort.signal);
      if (!checked.ok) {
        const failed = resultFromSamples(
          spec,
          checked.stopped ? 'cancelled' : 'failed',
          checked.stopped ? null : checked.error,
          { engine, startedAt, tls: checked.tls },
        );
        return finish(failed);
      }
      const script = this.#opts.server?.(spec.target.url, spec.load) ?? {};
      const load = simulateLoad(spec, checked.facts, script, { startedAt });
      let shown = 0;
      for (const sample of load.sent) {
        if (shown === pauseAt) await Promise.race([resumed, stoppedBy(abort.signal)]);
        if (run.stopped) break;
        await sleep(pace);
        if (run.stopped) break;
        send(sample);
        shown++;
      }
      if (!run.stopped) return finish(load.result('completed'));
      // Stopped within a tick, as the engine is: what was measured up to there.
      const last = load.sent[shown - 1];
      const tickMs = spec.options.sampleIntervalMs;
      const stopAtMs = (last ? last.elapsedSeconds * 1000 : 0) + tickMs / 2;
      const partial = simulateLoad(spec, checked.facts, script, { startedAt, stopAtMs });
      for (const sample of partial.sent.slice(shown)) send(sample);
      return finish(partial.result('cancelled'));
    })();
    return {
      done,
      stop: () => {
        if (!run.stopped) this.stopped.push(index);
        run.stopped = true;
        abort.abort();
        return Promise.resolve();
      },
    };
  };
}

const stoppedBy = (signal: AbortSignal) =>
  new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));

/**
 * A server monitor's source that reads what `figures` says for its n-th reading (n from 0):
 * figures (CPU, memory, load...) or a gap with its reason.
 */
export function scriptedSource(
  facts: ResourceSource,
  figures: (n: number) => SourceReading,
  notes: string[] = [],
): MonitorSource {
  let n = 0;
  return {
    facts: () => facts,
    rootPid: () => (facts.method === 'process' ? facts.rootPid : null),
    read: () => Promise.resolve(figures(n++)),
    notes: () => notes,
    selfCpuMicros: () => 0,
    close: () => undefined,
  };
}

/**
 * A target's monitor as the host finds it, scripted: a process tree for 'auto' and a pid (one
 * process at 25 % of a core), a node_exporter's machine figures, nothing when off.
 */
export function busyServer(target: Target): MonitorSource | null {
  const { monitor } = target;
  if (monitor.kind === 'off') return null;
  if (monitor.kind === 'node-exporter') {
    return scriptedSource({ method: 'node-exporter', url: monitor.url, cpuCount: 2 }, () => ({
      figures: { intervalSeconds: 1, cpuPercent: 50, cpuBusyPercent: 25, load1: 1, load5: 1, load15: 1 },
    }));
  }
  const port = Number(new URL(target.url).port) || null;
  const pid = monitor.kind === 'pid' ? monitor.pid : process.pid;
  return scriptedSource(
    {
      method: 'process',
      found: monitor.kind === 'pid' ? 'pid' : 'port',
      port: monitor.kind === 'pid' ? null : port,
      platform: process.platform,
      reader: 'procfs',
      rootPid: pid,
      processes: [{ pid, name: 'node' }],
    },
    () => ({
      figures: { intervalSeconds: 1, cpuPercent: 25, cpuSeconds: 0.25, rssBytes: 50e6, processes: 1 },
    }),
  );
}
