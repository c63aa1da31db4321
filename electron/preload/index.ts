import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { createTrebuchetApi, type TrebuchetApi } from '../../shared/api-client.ts';
import { commandChannel, COMPARISON_EVENT_CHANNEL, RUN_EVENT_CHANNEL } from '../main/ipc-channels.ts';

/**
 * The curated object the renderer gets as window.trebuchet: one method per command of the
 * contract and two event subscriptions (runs, comparisons). No channel names, no
 * ipcRenderer, no Electron event objects cross the bridge. Bundled to dist/preload/index.cjs
 * (a sandboxed preload cannot import modules).
 */

/** Forwards one channel's events without Electron's event object; returns the unsubscribe function. */
function listen<E>(channel: string, listener: (event: E) => void): () => void {
  const forward = (_event: IpcRendererEvent, payload: E) => listener(payload);
  ipcRenderer.on(channel, forward);
  return () => {
    ipcRenderer.removeListener(channel, forward);
  };
}

const trebuchet: TrebuchetApi = createTrebuchetApi(
  // The main process answers every command with a CommandReply (electron/main/ipc.ts).
  (command, input) => ipcRenderer.invoke(commandChannel(command), input),
  {
    onRunEvent: (listener) => listen(RUN_EVENT_CHANNEL, listener),
    onComparisonEvent: (listener) => listen(COMPARISON_EVENT_CHANNEL, listener),
  },
);

contextBridge.exposeInMainWorld('trebuchet', trebuchet);
