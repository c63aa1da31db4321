import {
  commandInputSchemas,
  isCommandName,
  type AppInfo,
  type CommandArgs,
  type CommandName,
  type CommandOutput,
  type CommandReply,
} from '../../shared/api.ts';
import { parseOrThrow } from '../../shared/validation.ts';
import type { RunRegistry } from './run-registry.ts';

/**
 * The one dispatch table both hosts (Electron IPC, the web host's WebSocket) call: each
 * command maps to a service call, nothing more. `caller` is the owner key of whoever sent
 * the command (a window, a page), so runs are routed and stopped per caller.
 */
export type CommandHandlers = {
  [K in CommandName]: (args: CommandArgs<K>, caller: string) => CommandOutput<K> | Promise<CommandOutput<K>>;
};

export function createCommandHandlers(deps: { runs: RunRegistry; info: AppInfo }): CommandHandlers {
  return {
    'app.info': () => deps.info,
    'run.start': ({ scenario }, caller) => ({ runId: deps.runs.start(scenario, caller) }),
    'run.stop': async ({ runId }, caller) => ({ stopped: await deps.runs.stop(runId, caller) }),
  };
}

/**
 * Validates a command's name and input with the shared schemas, runs its handler and
 * answers with a reply envelope; it never throws. A bad input's error names the field,
 * e.g. "run.start input is invalid: scenario.targets.0.url: URL is not valid ...".
 */
export async function dispatchCommand(
  handlers: CommandHandlers,
  command: unknown,
  input: unknown,
  caller: string,
): Promise<CommandReply> {
  if (!isCommandName(command)) return { ok: false, error: `unknown command: ${JSON.stringify(command)}` };
  try {
    const args = parseOrThrow(commandInputSchemas[command], input, `${command} input`);
    // The only cast on the host side: args was parsed by the schema of the same command
    // the handler is looked up by, which TypeScript cannot correlate through a union key.
    const handler = handlers[command] as (args: unknown, caller: string) => unknown;
    return { ok: true, value: await handler(args, caller) };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}
