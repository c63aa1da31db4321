import type { RunEvent } from '../../shared/api.ts';
import type { RunResult } from '../../shared/result.ts';
import type { Scenario } from '../../shared/scenario.ts';
import { startServerMonitor, withServerResources } from '../monitor/server-monitor.ts';
import { EventStream } from './event-stream.ts';
import { JobTable } from './job-table.ts';
import { startRun, type RunHandle } from './run.ts';
import { buildRunSpec } from './spec.ts';

type RunStatus = Extract<RunEvent, { type: 'done' }>['status'];

/** What the manager tracks of one run beside its id and outcome. */
interface RunState {
  readonly results: RunResult[];
  /** The target running now, if any. */
  current: RunHandle | null;
  cancelled: boolean;
}

/**
 * Every run of this host, keyed by run id (no module-level "current run"). A run executes its
 * scenario's targets one after another, each in its own engine worker, and reports through
 * one event stream shared by all runs: started, target-started, sample (one per tick),
 * target-done, done (and error only when the host itself breaks down).
 */
export class RunManager {
  readonly #appVersion: string;
  /** Finished runs are kept (100) so whenDone() and stop() still answer for them. */
  readonly #runs = new JobTable<RunState, RunResult[]>({ prefix: 'run', noun: 'run', keep: 100 });
  readonly #events = new EventStream<RunEvent>();

  constructor(opts: { appVersion: string }) {
    this.#appVersion = opts.appVersion;
  }

  /**
   * Starts a run of an already validated scenario and returns its id at once. Events begin
   * on a microtask, so a listener subscribed right after start() still sees 'started'.
   */
  start(scenario: Scenario): string {
    return this.#runs.start({ results: [], current: null, cancelled: false }, (runId, state) =>
      this.#execute(runId, state, scenario),
    );
  }

  /** Listens to every run's events; returns the unsubscribe function. */
  subscribe(listener: (event: RunEvent) => void): () => void {
    return this.#events.subscribe(listener);
  }

  /**
   * Stops a run: the running target ends within one tick with its partial result (status
   * 'cancelled'), later targets are skipped. Resolves after the run's 'done' event; false
   * when the run id is unknown.
   */
  async stop(runId: string): Promise<boolean> {
    const run = this.#runs.get(runId);
    if (!run) return false;
    if (!run.finished) {
      run.state.cancelled = true;
      await run.state.current?.stop();
    }
    await run.done;
    return true;
  }

  async stopAll(): Promise<void> {
    await Promise.all(this.activeRunIds().map((id) => this.stop(id)));
  }

  /** The run's results, one per target that ran; rejects for an unknown run id. */
  whenDone(runId: string): Promise<RunResult[]> {
    return this.#runs.whenDone(runId);
  }

  /** Runs not finished yet. */
  activeRunIds(): string[] {
    return this.#runs.activeIds();
  }

  async #execute(runId: string, entry: RunState, scenario: Scenario): Promise<RunResult[]> {
    this.#events.emit({ type: 'started', runId, targetCount: scenario.targets.length });
    try {
      for (let targetIndex = 0; targetIndex < scenario.targets.length; targetIndex++) {
        if (entry.cancelled) break;
        const built = await buildRunSpec(scenario, targetIndex, { runId, appVersion: this.#appVersion });
        // The server's side (issue 11): sampled on the host beside the run, on its ticks.
        const monitor = built.ok
          ? await startServerMonitor(built.spec.target, {
              options: scenario.options,
              onSample: (sample) => this.#events.emit({ type: 'server-sample', runId, targetIndex, sample }),
            })
          : null;
        if (entry.cancelled) break;
        this.#events.emit({ type: 'target-started', runId, targetIndex });
        let result: RunResult;
        if (built.ok) {
          const handle = startRun(built.spec, {
            onSample: (sample) => {
              this.#events.emit({ type: 'sample', runId, targetIndex, sample });
              monitor?.tick(sample);
            },
          });
          entry.current = handle;
          result = await withServerResources(await handle.done, monitor);
          entry.current = null;
        } else {
          result = built.result;
        }
        entry.results.push(result);
        this.#events.emit({ type: 'target-done', runId, targetIndex, result });
      }
      this.#events.emit({
        type: 'done',
        runId,
        status: runStatus(entry, scenario.targets.length),
        results: entry.results,
      });
    } catch (err) {
      // Only a host-side breakdown lands here (runs themselves never throw).
      this.#events.emit({ type: 'error', runId, message: err instanceof Error ? err.message : String(err) });
      this.#events.emit({ type: 'done', runId, status: 'failed', results: entry.results });
    }
    return entry.results;
  }
}

/** cancelled when stopped before every target finished; failed when every target failed. */
function runStatus(entry: RunState, targetCount: number): RunStatus {
  if (
    entry.results.some((r) => r.status === 'cancelled') ||
    (entry.cancelled && entry.results.length < targetCount)
  ) {
    return 'cancelled';
  }
  if (entry.results.length > 0 && entry.results.every((r) => r.status === 'failed')) return 'failed';
  return 'completed';
}
