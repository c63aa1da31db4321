import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import type { TrebuchetApi } from '../../shared/contract/api.ts';
import { createTrebuchetApi, JobEvents } from '../../shared/contract/client.ts';
import type { JobEnvelope } from '../../shared/contract/jobs.ts';
import { commandChannel, JOB_EVENT_CHANNEL } from '../main/ipc-channels.ts';

/**
 * The curated object the renderer gets as window.trebuchet: one method per command of the
 * contract and the one per-job event subscription. No channel names, no ipcRenderer, no
 * Electron event objects cross the bridge. Bundled to dist/preload/index.cjs (a sandboxed
 * preload cannot import modules).
 */

// The window's one event channel: each job's events handed to its own listeners, without Electron's event object.
const jobs = new JobEvents();
ipcRenderer.on(JOB_EVENT_CHANNEL, (_event: IpcRendererEvent, envelope: JobEnvelope) =>
  jobs.deliver(envelope),
);

const trebuchet: TrebuchetApi = createTrebuchetApi(
  // The main process answers every command with a CommandReply (electron/main/ipc.ts).
  (command, input) => ipcRenderer.invoke(commandChannel(command), input),
  { onJobEvent: (jobId, listener) => jobs.subscribe(jobId, listener) },
);

contextBridge.exposeInMainWorld('trebuchet', trebuchet);
