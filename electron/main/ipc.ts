import type { IpcMain, IpcMainInvokeEvent, WebContents } from 'electron';
import { COMMAND_NAMES, type CommandName, type CommandReply } from '../../shared/contract/api.ts';
import { dispatchCommand, type CommandHandlers } from '../host/commands.ts';
import { commandChannel } from './ipc-channels.ts';

/** The app's own windows, by webContents id: the only senders IPC answers. */
export type TrustedContents = ReadonlySet<number>;

/**
 * Fiddle's rule: a message counts only from the top frame of one of the app's own windows,
 * showing the app's own origin (not a page it was navigated to, not a subframe).
 */
export function isTrustedSender(
  event: IpcMainInvokeEvent,
  trusted: TrustedContents,
  appOrigin: string,
): boolean {
  const frame = event.senderFrame;
  return (
    frame !== null && frame.parent === null && frame.origin === appOrigin && trusted.has(event.sender.id)
  );
}

/** The owner key of a window's runs. */
export function windowOwner(contents: Pick<WebContents, 'id'>): string {
  return `window-${contents.id}`;
}

export interface IpcBinding {
  ipcMain: IpcMain;
  handlers: CommandHandlers;
  trusted: TrustedContents;
  appOrigin: string;
}

/**
 * Registers one invoke handler per command. Each checks its sender, then hands the payload
 * to the shared dispatcher (schema validation, then the service). Replies are envelopes, so
 * the renderer sees the host's message as is, not Electron's "Error invoking remote method".
 * Returns the function that removes them.
 */
export function registerIpcHandlers(binding: IpcBinding): () => void {
  const handle = (command: CommandName) => {
    binding.ipcMain.handle(commandChannel(command), async (event, input: unknown): Promise<CommandReply> => {
      if (!isTrustedSender(event, binding.trusted, binding.appOrigin)) {
        console.warn(
          `trebuchet: refused ${command} from an untrusted sender (${event.senderFrame?.url ?? 'gone'})`,
        );
        return { ok: false, error: `${command} refused: the sender is not the app's own window` };
      }
      const { reply, replied } = await dispatchCommand(
        binding.handlers,
        command,
        input,
        windowOwner(event.sender),
      );
      // Electron sends the reply when this promise settles (on a microtask; ipcMain.handle
      // has no hook after it), so what follows the reply (a started job's first event) waits a
      // macrotask, by which time the reply is out.
      setImmediate(replied);
      return reply;
    });
  };
  for (const command of COMMAND_NAMES) handle(command);
  return () => {
    for (const command of COMMAND_NAMES) binding.ipcMain.removeHandler(commandChannel(command));
  };
}
