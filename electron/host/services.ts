import type { MetricsOut } from '../../shared/metrics/outs.ts';
import { checkTarget } from '../engine/preflight/target-check.ts';
import { hostMetrics } from '../metrics/host-metrics.ts';
import { HistorySaver } from '../jobs/history-saver.ts';
import type { RecoveredJob } from '../jobs/journal/recover.ts';
import { JournalFolder } from '../jobs/journal/writer.ts';
import { JobRegistry, type JobSink } from '../jobs/registry.ts';
import type { TargetChecker } from '../jobs/runner.ts';
import { startTarget, type StartTarget } from '../jobs/target-run.ts';
import type { Stores } from '../stores/index.ts';

/**
 * Everything a host (Electron main, the web host) serves the UI with, wired the same way
 * for both: the jobs of every kind, routed per owner (a window, a page) and saved in run
 * history when they end, and the preset and history stores.
 */
export interface HostServices {
  jobs: JobRegistry;
  stores: Stores;
  /** Sends the events of each of the owner's jobs to its sink. */
  attach(owner: string, sink: JobSink): void;
  detach(owner: string): void;
  /** True while the owner has a job that has not ended. */
  busy(owner: string): boolean;
  /** Stops the owner's jobs; each is saved with what it measured. */
  stopOwned(owner: string): Promise<void>;
  /** Stops everything started through these services and waits for the last saves. */
  close(): Promise<void>;
}

export function createHostServices(opts: {
  stores: Stores;
  appVersion: string;
  /** How each part of a job runs: the engine's by default, a stand-in in tests. */
  startTarget?: StartTarget;
  /** The pre-flight a comparison runs on each URL first; the engine's by default. */
  checkTarget?: TargetChecker;
  /** How long a finished job's events stay for a reconnecting page (JobRegistry's default). */
  keepFinishedMs?: number;
  /** The jobs an earlier host left unfinished, made History entries at this start (recoverJournals). */
  recovered?: readonly RecoveredJob[];
  /** Where live metrics go (`trebuchet serve --out`, `--metrics-listen`); the app's setting when absent. */
  metrics?: MetricsOut;
}): HostServices {
  const history = new HistorySaver({ history: opts.stores.history, appVersion: opts.appVersion });
  const metrics = hostMetrics({
    appVersion: opts.appVersion,
    out: () => opts.metrics ?? opts.stores.settings.ui().metrics,
  });
  const jobs = new JobRegistry({
    history,
    keepFinishedMs: opts.keepFinishedMs,
    // Every job's journal goes beside the history it will be saved in.
    journals: new JournalFolder(opts.stores.dataDir),
    recovered: opts.recovered,
    read: metrics.read,
    context: {
      appVersion: opts.appVersion,
      startTarget: opts.startTarget ?? startTarget,
      checkTarget:
        opts.checkTarget ??
        ((scenario, signal) => checkTarget(scenario, { appVersion: opts.appVersion, signal })),
      readHistory: (id) => opts.stores.history.get(id),
    },
  });
  return {
    jobs,
    stores: opts.stores,
    attach: (owner, sink) => jobs.attach(owner, sink),
    detach: (owner) => jobs.detach(owner),
    busy: (owner) => jobs.idsOf(owner).length > 0,
    async stopOwned(owner) {
      await jobs.stopOwned(owner);
      await history.idle();
    },
    async close() {
      await jobs.close();
      await history.idle();
      await metrics.close();
    },
  };
}
