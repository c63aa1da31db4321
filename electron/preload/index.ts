import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import type { CapacityEvent, ComparisonEvent, RunEvent, TrebuchetApi } from '../../shared/contract/api.ts';
import { createTrebuchetApi, JobEvents } from '../../shared/contract/client.ts';
import {
  CAPACITY_EVENT_CHANNEL,
  commandChannel,
  COMPARISON_EVENT_CHANNEL,
  RUN_EVENT_CHANNEL,
} from '../main/ipc-channels.ts';

/**
 * The curated object the renderer gets as window.trebuchet: one method per command of the
 * contract and one per-job event subscription per kind of job (a run's, a comparison's, a
 * capacity search's). No channel names, no
 * ipcRenderer, no Electron event objects cross the bridge. Bundled to dist/preload/index.cjs
 * (a sandboxed preload cannot import modules).
 */

/** One channel's events, each handed to its own job's listeners, without Electron's event object. */
function jobEvents<E>(channel: string, idOf: (event: E) => string, what: string): JobEvents<E> {
  const events = new JobEvents<E>(idOf, what);
  ipcRenderer.on(channel, (_event: IpcRendererEvent, payload: E) => events.deliver(payload));
  return events;
}

const runs = jobEvents<RunEvent>(RUN_EVENT_CHANNEL, (e) => e.runId, 'run');
const comparisons = jobEvents<ComparisonEvent>(COMPARISON_EVENT_CHANNEL, (e) => e.comparisonId, 'comparison');
const searches = jobEvents<CapacityEvent>(CAPACITY_EVENT_CHANNEL, (e) => e.capacityId, 'capacity search');

const trebuchet: TrebuchetApi = createTrebuchetApi(
  // The main process answers every command with a CommandReply (electron/main/ipc.ts).
  (command, input) => ipcRenderer.invoke(commandChannel(command), input),
  {
    onRunEvent: (runId, listener) => runs.subscribe(runId, listener),
    onComparisonEvent: (comparisonId, listener) => comparisons.subscribe(comparisonId, listener),
    onCapacityEvent: (capacityId, listener) => searches.subscribe(capacityId, listener),
  },
);

contextBridge.exposeInMainWorld('trebuchet', trebuchet);
