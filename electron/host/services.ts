import type { RunEvent } from '../../shared/api.ts';
import type { ComparisonEvent } from '../../shared/comparison.ts';
import { checkTarget } from '../engine/target-check.ts';
import { ComparisonRunner, type RunManagerLike, type TargetChecker } from '../services/comparison-runner.ts';
import { HistoryRecorder, RecordingRunService } from '../services/history-recorder.ts';
import type { Stores } from '../stores/index.ts';
import { ComparisonRegistry } from './comparison-registry.ts';
import type { Sink } from './owned-jobs.ts';
import { RunRegistry } from './run-registry.ts';

/**
 * Everything a host (Electron main, the web host) serves the UI with, wired the same way
 * for both: runs and comparisons routed per owner (a window, a page) and saved in run
 * history when they end, and the preset and history stores.
 */
export interface HostServices {
  runs: RunRegistry;
  comparisons: ComparisonRegistry;
  stores: Stores;
  /** Sends the owner's run and comparison events to these sinks from now on. */
  attach(owner: string, sinks: { run: Sink<RunEvent>; comparison: Sink<ComparisonEvent> }): void;
  detach(owner: string): void;
  /** True while the owner has a run or a comparison that has not ended. */
  busy(owner: string): boolean;
  /** Stops the owner's runs and comparisons; each is saved with what it measured. */
  stopOwned(owner: string): Promise<void>;
  /** Stops everything started through these services and waits for the last saves. */
  close(): Promise<void>;
}

export function createHostServices(opts: {
  engine: RunManagerLike & { stopAll(): Promise<void> };
  stores: Stores;
  appVersion: string;
  /** The pre-flight a comparison runs on each URL first; the engine's by default. */
  checkTarget?: TargetChecker;
}): HostServices {
  const recorder = new HistoryRecorder({ history: opts.stores.history, appVersion: opts.appVersion });
  const recording = new RecordingRunService({ engine: opts.engine, recorder });
  const runs = new RunRegistry(recording);
  const comparisons = new ComparisonRegistry({
    service: new ComparisonRunner({
      manager: opts.engine,
      checkTarget:
        opts.checkTarget ??
        ((scenario, signal) => checkTarget(scenario, { appVersion: opts.appVersion, signal })),
    }),
    recorder,
  });
  return {
    runs,
    comparisons,
    stores: opts.stores,
    attach(owner, sinks) {
      runs.attach(owner, sinks.run);
      comparisons.attach(owner, sinks.comparison);
    },
    detach(owner) {
      runs.detach(owner);
      comparisons.detach(owner);
    },
    busy: (owner) => runs.idsOf(owner).length > 0 || comparisons.idsOf(owner).length > 0,
    async stopOwned(owner) {
      await Promise.all([runs.stopOwned(owner), comparisons.stopOwned(owner)]);
      await recorder.idle();
    },
    async close() {
      await Promise.all([runs.close(), comparisons.close()]);
      await recorder.idle();
      recording.close();
    },
  };
}
