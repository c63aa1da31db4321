import type { Monitor } from '../../shared/model/monitor.ts';
import type { ServerResources } from '../../shared/model/server-resources.ts';
import type { PartLive } from '../jobs/partLive.ts';
import type { ChartAbout } from '../charts/chartSubject.ts';
import type { JobFeeds } from '../jobs/liveSeries.ts';
import { MachinePanel } from './MachinePanel.tsx';
import { ServerPanel } from './ServerPanel.tsx';

/** The panels under the live charts of the shown target: the server's, then the machine's. */
export function RunPanels(props: {
  feeds: JobFeeds;
  targetIndex: number;
  generation: number;
  about: ChartAbout;
  monitor: Monitor | undefined;
  live: PartLive | undefined;
  resources: ServerResources | null | undefined;
}) {
  const { feeds, targetIndex, generation, about, live } = props;
  const common = { feeds, targetIndex, generation, about };
  return (
    <>
      <ServerPanel {...common} monitor={props.monitor} live={live?.server} resources={props.resources} />
      <MachinePanel {...common} last={live?.machine ?? null} />
    </>
  );
}
