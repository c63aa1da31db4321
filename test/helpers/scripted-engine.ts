import { preflight } from '../../electron/engine/preflight.ts';
import { resultFromSamples } from '../../electron/engine/result.ts';
import { plannedEngine } from '../../electron/engine/runners.ts';
import { buildRunSpec } from '../../electron/engine/spec.ts';
import type { StartTarget } from '../../electron/jobs/target-run.ts';
import type { RunResult } from '../../shared/model/result.ts';
import type { Scenario } from '../../shared/model/scenario.ts';
import type { ResourceSample } from '../../shared/resources/resources.ts';
import { simulateLoad, type ServerScript } from './scripted-load.ts';

export interface ScriptedEngineOptions {
  /** How the server at each target URL answers the load (scripted-load.ts); default a quick 200. */
  server?: (url: string) => ServerScript;
  /** Wall-clock ms between two samples sent: a scripted run goes this fast. Default 40. */
  msPerSample?: number;
  /** Each run sends this many samples, then waits for resume() or a stop (a test about a running run). */
  pauseAfter?: number;
  /** Server readings (target.monitor) to send with each sample of a run: the page's server panel. */
  readings?: (scenario: Scenario, sampleSeq: number) => ResourceSample | null;
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

    const done = (async (): Promise<RunResult | null> => {
      const built = await buildRunSpec(scenario, targetIndex, ids);
      if (run.stopped) return null;
      on.started();
      if (!built.ok) return built.result;
      const spec = built.spec;
      const startedAt = new Date();
      const engine = plannedEngine(spec.options);
      const checked = await preflight(spec, abort.signal);
      if (!checked.ok) {
        return resultFromSamples(spec, checked.stopped ? 'cancelled' : 'failed', checked.stopped ? null : checked.error, {
          engine,
          startedAt,
          tls: checked.tls,
        });
      }
      const script = this.#opts.server?.(spec.target.url) ?? {};
      const load = simulateLoad(spec, checked.facts, script, { startedAt });
      let shown = 0;
      for (const sample of load.sent) {
        if (shown === this.#opts.pauseAfter) await Promise.race([resumed, stoppedBy(abort.signal)]);
        if (run.stopped) break;
        await sleep(pace);
        if (run.stopped) break;
        on.sample(sample);
        const reading = this.#opts.readings?.(one, sample.seq);
        if (reading) on.reading(reading);
        shown++;
      }
      if (!run.stopped) return load.result('completed');
      // Stopped within a tick, as the engine is: what was measured up to there.
      const last = load.sent[shown - 1];
      const tickMs = spec.options.sampleIntervalMs;
      const stopAtMs = (last ? last.elapsedSeconds * 1000 : 0) + tickMs / 2;
      const partial = simulateLoad(spec, checked.facts, script, { startedAt, stopAtMs });
      for (const sample of partial.sent.slice(shown)) on.sample(sample);
      return partial.result('cancelled');
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
