import { memo } from 'react';
import type { Monitor } from '../../shared/model/monitor.ts';
import type { ServerResources } from '../../shared/model/server-resources.ts';
import type { ServerLive } from '../jobs/partLive.ts';
import type { JobFeeds } from '../jobs/liveSeries.ts';
import type { ChartAbout } from '../charts/chartSubject.ts';
import { LiveChart } from './LiveCharts.tsx';
import { serverPanelModel } from './serverPanelModel.ts';
import { SERVER_LIVE_CHARTS } from './serverSeries.ts';
import './ServerPanel.css';

interface ServerPanelProps {
  /** The job's samples (JobStore.feeds). */
  feeds: JobFeeds;
  targetIndex: number;
  /** The run's generation: a new run draws on fresh charts. */
  generation: number;
  about: ChartAbout;
  /** The target's monitor (shared/model/monitor.ts); off shows nothing. */
  monitor: Monitor | undefined;
  live: ServerLive | undefined;
  /** The target's result's server resources, once it ended. */
  resources: ServerResources | null | undefined;
}

/**
 * The server's side of the run (issue 11): CPU, memory and load average of the target's
 * server, on the engine's time axis, appended reading by reading like the live charts. A
 * tick without a reading is a gap in the lines, its reason in the note.
 */
export const ServerPanel = memo(function ServerPanel({
  feeds,
  targetIndex,
  generation,
  about,
  monitor,
  live,
  resources,
}: ServerPanelProps) {
  const model = serverPanelModel(monitor, live, resources);
  if (!model) return null;
  return (
    <section className="server-panel" data-testid="server-panel" data-idle={model.idle || undefined}>
      <div className="server-panel__head">
        <h2 className="server-panel__title">Server</h2>
        <span className="server-panel__source muted" data-testid="server-source" title={model.source}>
          {model.source}
        </span>
        {model.figures.length > 0 && (
          <span className="server-panel__figures" data-testid="server-figures">
            {model.figures.map((f) => (
              <span key={f.figure} data-figure={f.figure}>
                <span className="muted">{f.label}</span> {f.value}
              </span>
            ))}
          </span>
        )}
      </div>
      {model.gaps.length > 0 && (
        <ul className="server-panel__gaps" data-testid="server-gaps">
          {model.gaps.map((g) => (
            <li key={g}>No reading for {g}</li>
          ))}
        </ul>
      )}
      {model.charts.length > 0 && (
        <div className="server-panel__charts">
          {SERVER_LIVE_CHARTS.filter((spec) => model.charts.some((id) => id === spec.id)).map((spec) => (
            <LiveChart
              key={`${spec.id}-${generation}`}
              spec={spec}
              feed={feeds.server}
              clock={feeds.engine}
              targetIndex={targetIndex}
              about={about}
            />
          ))}
        </div>
      )}
    </section>
  );
});
