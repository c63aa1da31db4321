import { memo } from 'react';
import type { MachineSample } from '../../shared/model/machine-facts.ts';
import { fixed } from '../../shared/figures/units.ts';
import { liveOthersText } from '../../shared/format/machine/machine-table.ts';
import type { JobFeeds } from '../jobs/liveSeries.ts';
import type { ChartAbout } from '../charts/chartSubject.ts';
import { LiveChart } from './LiveCharts.tsx';
import { MACHINE_LIVE_CHART } from './machineSeries.ts';
import './ServerPanel.css';

interface MachinePanelProps {
  feeds: JobFeeds;
  targetIndex: number;
  generation: number;
  about: ChartAbout;
  /** The machine's last reading of the shown target (PartLive.machine). */
  last: MachineSample | null;
}

/**
 * The machine the load comes from (issue 32), beside the server's panel: its busy CPU, the
 * generator's process and the other processes as shares of its cores, on the engine's time
 * axis; the head names the busiest other processes of the last reading.
 */
export const MachinePanel = memo(function MachinePanel({
  feeds,
  targetIndex,
  generation,
  about,
  last,
}: MachinePanelProps) {
  if (!last) return null;
  return (
    <section className="server-panel" data-testid="machine-panel">
      <div className="server-panel__head">
        <h2 className="server-panel__title">Machine</h2>
        <span className="server-panel__source muted" data-testid="machine-others">
          {liveOthersText(last)}
        </span>
        {last.gap === undefined && (
          <span className="server-panel__figures" data-testid="machine-figures">
            <span data-figure="busy">
              <span className="muted">busy</span> {fixed(last.cpuBusyPercent, 0)}% of {last.cores} cores
            </span>
            {last.otherCpuPercent !== undefined && (
              <span data-figure="others">
                <span className="muted">others</span> {fixed(last.otherCpuPercent, 0)}% of a core
              </span>
            )}
          </span>
        )}
      </div>
      <div className="server-panel__charts">
        <LiveChart
          key={`${MACHINE_LIVE_CHART.id}-${generation}`}
          spec={MACHINE_LIVE_CHART}
          feed={feeds.machine}
          clock={feeds.engine}
          targetIndex={targetIndex}
          about={about}
        />
      </div>
    </section>
  );
});
