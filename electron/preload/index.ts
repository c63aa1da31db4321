import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { createTrebuchetApi, type TrebuchetApi } from '../../shared/api-client.ts';
import type { RunEvent } from '../../shared/api.ts';
import { commandChannel, RUN_EVENT_CHANNEL } from '../main/ipc-channels.ts';

/**
 * The curated object the renderer gets as window.trebuchet: one method per command of the
 * contract and one event subscription. No channel names, no ipcRenderer, no Electron event
 * objects cross the bridge. Bundled to dist/preload/index.cjs (a sandboxed preload cannot
 * import modules).
 */
const trebuchet: TrebuchetApi = createTrebuchetApi(
  // The main process answers every command with a CommandReply (electron/main/ipc.ts).
  (command, input) => ipcRenderer.invoke(commandChannel(command), input),
  (listener) => {
    const forward = (_event: IpcRendererEvent, runEvent: RunEvent) => listener(runEvent);
    ipcRenderer.on(RUN_EVENT_CHANNEL, forward);
    return () => {
      ipcRenderer.removeListener(RUN_EVENT_CHANNEL, forward);
    };
  },
);

contextBridge.exposeInMainWorld('trebuchet', trebuchet);
