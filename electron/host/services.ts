import type { RunEvent } from '../../shared/contract/api.ts';
import type { CapacityEvent } from '../../shared/capacity/plan.ts';
import type { ComparisonEvent } from '../../shared/comparison/cells.ts';
import { checkTarget } from '../engine/target-check.ts';
import { CapacityRunner } from '../services/capacity-runner.ts';
import { ComparisonRunner, type RunManagerLike, type TargetChecker } from '../services/comparison-runner.ts';
import { HistorySaver } from '../services/history-saver.ts';
import type { Stores } from '../stores/index.ts';
import { CapacityRegistry } from './capacity-registry.ts';
import { ComparisonRegistry } from './comparison-registry.ts';
import type { SinkOpener } from './owned-jobs.ts';
import { RunRegistry } from './run-registry.ts';

/**
 * Everything a host (Electron main, the web host) serves the UI with, wired the same way
 * for both: runs, comparisons and capacity searches routed per owner (a window, a page) and
 * saved in run history when they end, and the preset and history stores.
 */
export interface HostServices {
  runs: RunRegistry;
  comparisons: ComparisonRegistry;
  capacity: CapacityRegistry;
  stores: Stores;
  /** Sends the events of each of the owner's jobs to a sink of its own, opened here. */
  attach(owner: string, sinks: JobSinks): void;
  detach(owner: string): void;
  /** True while the owner has a run, a comparison or a capacity search that has not ended. */
  busy(owner: string): boolean;
  /** Stops the owner's jobs; each is saved with what it measured. */
  stopOwned(owner: string): Promise<void>;
  /** Stops everything started through these services and waits for the last saves. */
  close(): Promise<void>;
}

/** Where each kind of an owner's jobs sends its events. */
export interface JobSinks {
  run: SinkOpener<RunEvent>;
  comparison: SinkOpener<ComparisonEvent>;
  capacity: SinkOpener<CapacityEvent>;
}

export function createHostServices(opts: {
  engine: RunManagerLike;
  stores: Stores;
  appVersion: string;
  /** The pre-flight a comparison runs on each URL first; the engine's by default. */
  checkTarget?: TargetChecker;
}): HostServices {
  const history = new HistorySaver({ history: opts.stores.history, appVersion: opts.appVersion });
  const runs = new RunRegistry({ service: opts.engine, history });
  // A comparison's cell runs go from the runner to the engine directly: saved as one comparison.
  const comparisons = new ComparisonRegistry({
    service: new ComparisonRunner({
      manager: opts.engine,
      checkTarget:
        opts.checkTarget ??
        ((scenario, signal) => checkTarget(scenario, { appVersion: opts.appVersion, signal })),
    }),
    history,
  });
  // Each step of a search is a run of its own, saved with the search as one record.
  const capacity = new CapacityRegistry({
    service: new CapacityRunner({ manager: opts.engine }),
    history,
  });
  const registries = [runs, comparisons, capacity] as const;
  return {
    runs,
    comparisons,
    capacity,
    stores: opts.stores,
    attach(owner, sinks) {
      runs.attach(owner, sinks.run);
      comparisons.attach(owner, sinks.comparison);
      capacity.attach(owner, sinks.capacity);
    },
    detach(owner) {
      for (const r of registries) r.detach(owner);
    },
    busy: (owner) => registries.some((r) => r.idsOf(owner).length > 0),
    async stopOwned(owner) {
      await Promise.all(registries.map((r) => r.stopOwned(owner)));
      await history.idle();
    },
    async close() {
      await Promise.all(registries.map((r) => r.close()));
      await history.idle();
    },
  };
}
