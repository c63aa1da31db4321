/*
 * The metrics out of a host (the web host, the desktop app): where they go is asked at each
 * job's start (the app's setting "Send live metrics to …", or `trebuchet serve --out` and
 * `--metrics-listen`, which replace it), and the hub (hub.ts, with its exporters) is loaded
 * at the host's start when they go somewhere then, else the first time a job sends any: a
 * host whose jobs send none loads none of it.
 */
import { sendsMetrics, type MetricsOut } from '../../shared/metrics/outs.ts';
import type { PartReader, StartTarget, TargetRun } from '../jobs/target-run.ts';
import type { MetricsHub } from './hub.ts';

export interface HostMetrics {
  /** Reads every job's parts into the metrics, when they go anywhere. */
  read: PartReader;
  /** Stops sending and serving. */
  close(): Promise<void>;
}

export function hostMetrics(opts: { appVersion: string; out: () => MetricsOut }): HostMetrics {
  let hub: Promise<MetricsHub> | null = null;
  const loaded = (): Promise<MetricsHub> =>
    (hub ??= import('./hub.ts').then(({ MetricsHub }) => new MetricsHub({ appVersion: opts.appVersion })));
  // Metrics asked for already (serve's flags, a kept setting): the scrape endpoint is up from the host's start.
  const atStart = opts.out();
  if (sendsMetrics(atStart)) {
    void loaded().then(
      (h) => h.configure(atStart),
      () => undefined, // a hub that cannot load fails each job's part, which says why
    );
  }
  return {
    read: (job, start) => {
      const out = opts.out();
      // No metrics now, none sent before: the job runs as it would without them.
      if (!sendsMetrics(out) && hub === null) return start;
      // Each part waits for the hub (loaded once) before its load begins, as a distributed part waits for its backend.
      const deferred: StartTarget = (scenario, targetIndex, on, ids): TargetRun => {
        let inner: TargetRun | null = null;
        let stopped = false;
        const done = (async () => {
          const h = await loaded();
          await h.configure(out);
          if (stopped) return null;
          inner = h.watch({ job: job.id, kind: job.kind }, start)(scenario, targetIndex, on, ids);
          return inner.done;
        })();
        return {
          done,
          stop: async () => {
            stopped = true;
            await inner?.stop();
          },
        };
      };
      return deferred;
    },
    close: async () => {
      if (hub) await (await hub).close();
    },
  };
}
