import {
  commandInputSchemas,
  isCommandName,
  type AppInfo,
  type CommandArgs,
  type CommandName,
  type CommandOutput,
  type CommandReply,
} from '../../shared/api.ts';
import { parseOrThrow, ValidationError } from '../../shared/validation.ts';
import type { SecretOptions } from '../../shared/presets.ts';
import { inputFileIssues } from '../engine/input-files.ts';
import { RunAdmission } from './run-admission.ts';
import type { HostServices } from './services.ts';

/**
 * The one dispatch table both hosts (Electron IPC, the web host's WebSocket) call: each
 * command maps to a service call, nothing more. `caller` is the owner key of whoever sent
 * the command (a window, a page), so runs and comparisons are routed and stopped per caller.
 */
export type CommandHandlers = {
  [K in CommandName]: (args: CommandArgs<K>, caller: string) => CommandOutput<K> | Promise<CommandOutput<K>>;
};

export interface CommandDeps {
  services: HostServices;
  /** The host's static facts; dataDir and problems are added from the stores. */
  info: Omit<AppInfo, 'dataDir' | 'problems'>;
}

/**
 * The body and CA files a run will read, checked before it starts (a missing file, a folder,
 * a named pipe, a file past its size limit), so the caller's start fails naming the field.
 */
async function checkInputFiles(
  command: CommandName,
  key: string,
  s: Parameters<typeof inputFileIssues>[0],
): Promise<void> {
  const issues = await inputFileIssues(s);
  if (issues.length > 0) {
    throw new ValidationError(
      `${command} input`,
      issues.map((i) => ({ ...i, path: `${key}.${i.path}` })),
    );
  }
}

export function createCommandHandlers({ services, info }: CommandDeps): CommandHandlers {
  const { runs, comparisons, stores } = services;
  const { presets, history } = stores;
  const admission = new RunAdmission([runs, comparisons]);
  const secretOptions = (a: SecretOptions): SecretOptions => ({
    allowPlaintextSecrets: a.allowPlaintextSecrets,
    omitSecrets: a.omitSecrets,
  });
  return {
    'app.info': () => ({ ...info, dataDir: stores.dataDir, problems: stores.problems() }),
    'run.start': async ({ scenario }, caller) => {
      await checkInputFiles('run.start', 'scenario', scenario);
      // Counted and started in the same tick, so concurrent starts cannot pass the cap together.
      admission.admit(caller);
      return { runId: runs.start(scenario, caller) };
    },
    'run.stop': async ({ runId }, caller) => ({ stopped: await runs.stop(runId, caller) }),
    'run.active': (_args, caller) => ({ runs: runs.activeOf(caller) }),
    'presets.list': () => ({
      presets: presets.list(),
      secretStorage: presets.secretStorage(),
      file: presets.path,
      problems: stores.problems(),
    }),
    'presets.get': ({ id }) => {
      const preset = presets.get(id);
      return { preset, source: presets.isBuiltIn(id) ? 'built-in' : 'user' };
    },
    'presets.save': (a) => presets.save(a.preset, { ...secretOptions(a), id: a.id }),
    'presets.rename': ({ id, name }) => presets.rename(id, name),
    'presets.duplicate': ({ id, name }) => presets.duplicate(id, name),
    'presets.delete': ({ id }) => ({ deleted: presets.delete(id) }),
    'presets.import': (a) => presets.importText(a.text, secretOptions(a)),
    'presets.export': (a) => presets.exportText(a.id, secretOptions(a)),
    'history.list': async () => ({
      runs: await history.list(),
      dir: history.dir,
      problems: stores.problems(),
    }),
    'history.get': ({ id }) => history.get(id),
    'history.rename': ({ id, name }) => history.rename(id, name),
    'history.delete': async ({ id }) => ({ deleted: await history.delete(id) }),
    'compare.start': async ({ plan }, caller) => {
      await checkInputFiles('compare.start', 'plan', plan);
      admission.admit(caller);
      return { comparisonId: comparisons.start(plan, caller) };
    },
    'compare.stop': async ({ comparisonId }, caller) => ({
      stopped: await comparisons.stop(comparisonId, caller),
    }),
    'compare.active': (_args, caller) => ({ comparisons: comparisons.activeOf(caller) }),
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
