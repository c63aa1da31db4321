import { randomBytes } from 'node:crypto';
import type { RunEvent } from '../../shared/api.ts';
import type { RunResult } from '../../shared/result.ts';
import type { Scenario } from '../../shared/scenario.ts';
import { startRun, type RunHandle } from './run.ts';
import { buildRunSpec } from './spec.ts';

type RunStatus = Extract<RunEvent, { type: 'done' }>['status'];

interface RunEntry {
  readonly runId: string;
  readonly results: RunResult[];
  readonly done: Promise<RunResult[]>;
  /** The target running now, if any. */
  current: RunHandle | null;
  cancelled: boolean;
  finished: boolean;
}

/** Finished runs kept so whenDone() and stop() still answer for them; older ones are forgotten. */
const FINISHED_KEPT = 100;

/**
 * Every run of this host, keyed by run id (no module-level "current run"). A run executes its
 * scenario's targets one after another, each in its own engine worker, and reports through
 * one event stream shared by all runs: started, target-started, sample (one per tick),
 * target-done, done (and error only when the host itself breaks down).
 */
export class RunManager {
  readonly #appVersion: string;
  readonly #runs = new Map<string, RunEntry>();
  readonly #listeners = new Set<(event: RunEvent) => void>();

  constructor(opts: { appVersion: string }) {
    this.#appVersion = opts.appVersion;
  }

  /**
   * Starts a run of an already validated scenario and returns its id at once. Events begin
   * on a microtask, so a listener subscribed right after start() still sees 'started'.
   */
  start(scenario: Scenario): string {
    const runId = newRunId();
    let resolveDone: (results: RunResult[]) => void = () => undefined;
    const entry: RunEntry = {
      runId,
      results: [],
      done: new Promise((resolve) => (resolveDone = resolve)),
      current: null,
      cancelled: false,
      finished: false,
    };
    this.#runs.set(runId, entry);
    queueMicrotask(() => {
      void this.#execute(entry, scenario).then(() => {
        entry.finished = true;
        this.#forgetOldRuns();
        resolveDone(entry.results);
      });
    });
    return runId;
  }

  /** Listens to every run's events; returns the unsubscribe function. */
  subscribe(listener: (event: RunEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  /**
   * Stops a run: the running target ends within one tick with its partial result (status
   * 'cancelled'), later targets are skipped. Resolves after the run's 'done' event; false
   * when the run id is unknown.
   */
  async stop(runId: string): Promise<boolean> {
    const entry = this.#runs.get(runId);
    if (!entry) return false;
    if (!entry.finished) {
      entry.cancelled = true;
      await entry.current?.stop();
    }
    await entry.done;
    return true;
  }

  async stopAll(): Promise<void> {
    await Promise.all(this.activeRunIds().map((id) => this.stop(id)));
  }

  /** The run's results, one per target that ran; rejects for an unknown run id. */
  whenDone(runId: string): Promise<RunResult[]> {
    const entry = this.#runs.get(runId);
    return entry ? entry.done : Promise.reject(new Error(`run ${runId} is unknown`));
  }

  /** Runs not finished yet. */
  activeRunIds(): string[] {
    return [...this.#runs.values()].filter((r) => !r.finished).map((r) => r.runId);
  }

  async #execute(entry: RunEntry, scenario: Scenario): Promise<void> {
    const { runId } = entry;
    this.#emit({ type: 'started', runId, targetCount: scenario.targets.length });
    try {
      for (let targetIndex = 0; targetIndex < scenario.targets.length; targetIndex++) {
        if (entry.cancelled) break;
        const built = await buildRunSpec(scenario, targetIndex, { runId, appVersion: this.#appVersion });
        if (entry.cancelled) break;
        this.#emit({ type: 'target-started', runId, targetIndex });
        let result: RunResult;
        if (built.ok) {
          const handle = startRun(built.spec, {
            onSample: (sample) => this.#emit({ type: 'sample', runId, targetIndex, sample }),
          });
          entry.current = handle;
          result = await handle.done;
          entry.current = null;
        } else {
          result = built.result;
        }
        entry.results.push(result);
        this.#emit({ type: 'target-done', runId, targetIndex, result });
      }
      this.#emit({
        type: 'done',
        runId,
        status: runStatus(entry, scenario.targets.length),
        results: entry.results,
      });
    } catch (err) {
      // Only a host-side breakdown lands here (runs themselves never throw).
      this.#emit({ type: 'error', runId, message: err instanceof Error ? err.message : String(err) });
      this.#emit({ type: 'done', runId, status: 'failed', results: entry.results });
    }
  }

  #emit(event: RunEvent): void {
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch {
        // One listener's failure must not stop the run or starve the other listeners.
      }
    }
  }

  #forgetOldRuns(): void {
    const finished = [...this.#runs.values()].filter((r) => r.finished);
    for (const r of finished.slice(0, Math.max(0, finished.length - FINISHED_KEPT)))
      this.#runs.delete(r.runId);
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

function newRunId(): string {
  return `run-${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
}
