import type { RunEvent } from '../../shared/contract/api.ts';
import type { RunResult, RunStatus } from '../../shared/model/result.ts';
import type { Scenario } from '../../shared/model/scenario.ts';
import { startServerMonitor, withServerResources } from '../monitor/server-monitor.ts';
import { JobTable, type JobHandle } from './job-table.ts';
import { startRun, type RunHandle } from './run.ts';
import { buildRunSpec } from './spec.ts';

/** What the manager tracks of one run beside its id and outcome. */
interface RunEntry {
  readonly results: RunResult[];
  /** The target running now, if any. */
  current: RunHandle | null;
  cancelled: boolean;
}

/**
 * Every run of this host, keyed by run id (no module-level "current run"). A run executes its
 * scenario's targets one after another, each in its own engine worker, and reports on its own
 * handle: started, target-started, sample (one per tick), target-done, done (and error only
 * when the host itself breaks down).
 */
export class RunManager {
  readonly #appVersion: string;
  /** Finished runs are kept (100) so stop() still answers for them. */
  readonly #runs = new JobTable<RunEntry, RunEvent, RunResult[]>({ prefix: 'run', noun: 'run', keep: 100 });

  constructor(opts: { appVersion: string }) {
    this.#appVersion = opts.appVersion;
  }

  /**
   * A run of an already validated scenario: its handle, at once. The run begins when its
   * consumer subscribes to the handle's events, so the consumer hears them from 'started' on.
   */
  start(scenario: Scenario): JobHandle<RunEvent, RunResult[]> {
    return this.#runs.start({ results: [], current: null, cancelled: false }, (runId, state, emit) =>
      this.#execute(runId, state, scenario, emit),
    );
  }

  /**
   * Stops a run: the running target ends within one tick with its partial result (status
   * 'cancelled'), later targets are skipped. Resolves after the run's 'done' event (a run
   * stopped before its handle was subscribed to ends at once when it is); false when the run
   * id is unknown.
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

  /** Runs not finished yet. */
  activeRunIds(): string[] {
    return this.#runs.activeIds();
  }

  async #execute(
    runId: string,
    entry: RunEntry,
    scenario: Scenario,
    emit: (event: RunEvent) => void,
  ): Promise<RunResult[]> {
    emit({ type: 'started', runId, targetCount: scenario.targets.length });
    try {
      for (let targetIndex = 0; targetIndex < scenario.targets.length; targetIndex++) {
        if (entry.cancelled) break;
        const built = await buildRunSpec(scenario, targetIndex, { runId, appVersion: this.#appVersion });
        // The server's side (issue 11): sampled on the host beside the run, on its ticks.
        const monitor = built.ok
          ? await startServerMonitor(built.spec.target, {
              options: scenario.options,
              onSample: (sample) => emit({ type: 'server-sample', runId, targetIndex, sample }),
            })
          : null;
        if (entry.cancelled) break;
        emit({ type: 'target-started', runId, targetIndex });
        let result: RunResult;
        if (built.ok) {
          const handle = startRun(built.spec, {
            onSample: (sample) => {
              emit({ type: 'sample', runId, targetIndex, sample });
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
        emit({ type: 'target-done', runId, targetIndex, result });
      }
      emit({
        type: 'done',
        runId,
        status: runStatus(entry, scenario.targets.length),
        results: entry.results,
      });
    } catch (err) {
      // Only a host-side breakdown lands here (runs themselves never throw).
      emit({ type: 'error', runId, message: err instanceof Error ? err.message : String(err) });
      emit({ type: 'done', runId, status: 'failed', results: entry.results });
    }
    return entry.results;
  }
}

/** cancelled when stopped before every target finished; failed when every target failed. */
function runStatus(entry: RunEntry, targetCount: number): RunStatus {
  if (
    entry.results.some((r) => r.status === 'cancelled') ||
    (entry.cancelled && entry.results.length < targetCount)
  ) {
    return 'cancelled';
  }
  if (entry.results.length > 0 && entry.results.every((r) => r.status === 'failed')) return 'failed';
  return 'completed';
}
