import {
  commandInputSchemas,
  isCommandName,
  type AppInfo,
  type CommandArgs,
  type CommandName,
  type CommandOutput,
  type CommandReply,
} from '../../shared/contract/api.ts';
import { parseOrThrow, ValidationError } from '../../shared/model/validation.ts';
import type { SecretOptions } from '../../shared/records/preset-summary.ts';
import { inputFileIssues } from '../engine/input-files.ts';
import { RunAdmission } from './run-admission.ts';
import type { HostServices } from './services.ts';

/** Who sent a command, as a handler sees them. */
export interface Caller {
  /** The owner key of a window or a page: runs and comparisons are routed and stopped per owner. */
  readonly owner: string;
  /** Runs action once the host has sent the reply (a started job begins then, so its events follow it). */
  afterReply(action: () => void): void;
}

/**
 * The one dispatch table both hosts (Electron IPC, the web host's WebSocket) call: each
 * command maps to a service call, nothing more.
 */
export type CommandHandlers = {
  [K in CommandName]: (args: CommandArgs<K>, caller: Caller) => CommandOutput<K> | Promise<CommandOutput<K>>;
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
  const { runs, comparisons, capacity, stores } = services;
  const { presets, history } = stores;
  const admission = new RunAdmission([runs, comparisons, capacity]);
  const secretOptions = (a: SecretOptions): SecretOptions => ({
    allowPlaintextSecrets: a.allowPlaintextSecrets,
    omitSecrets: a.omitSecrets,
  });
  return {
    'app.info': () => ({ ...info, dataDir: stores.dataDir, problems: stores.problems() }),
    'run.start': async ({ scenario }, caller) => {
      await checkInputFiles('run.start', 'scenario', scenario);
      // Counted and started in the same tick, so concurrent starts cannot pass the cap together.
      admission.admit(caller.owner);
      const run = runs.start(scenario, caller.owner);
      caller.afterReply(run.begin);
      return { runId: run.id };
    },
    'run.stop': async ({ runId }, caller) => ({ stopped: await runs.stop(runId, caller.owner) }),
    'run.active': (_args, caller) => ({ runs: runs.activeOf(caller.owner) }),
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
      admission.admit(caller.owner);
      const comparison = comparisons.start(plan, caller.owner);
      caller.afterReply(comparison.begin);
      return { comparisonId: comparison.id };
    },
    'compare.stop': async ({ comparisonId }, caller) => ({
      stopped: await comparisons.stop(comparisonId, caller.owner),
    }),
    'compare.active': (_args, caller) => ({ comparisons: comparisons.activeOf(caller.owner) }),
    'capacity.start': async ({ plan }, caller) => {
      await checkInputFiles('capacity.start', 'plan', plan);
      admission.admit(caller.owner);
      const search = capacity.start(plan, caller.owner);
      caller.afterReply(search.begin);
      return { capacityId: search.id };
    },
    'capacity.stop': async ({ capacityId }, caller) => ({
      stopped: await capacity.stop(capacityId, caller.owner),
    }),
    'capacity.active': (_args, caller) => ({ searches: capacity.activeOf(caller.owner) }),
  };
}

/** A command's reply, and what the host calls once it has sent it. */
export interface Dispatched {
  reply: CommandReply;
  /** Runs what the handler left for after the reply (a started job begins). Call it once, always. */
  replied: () => void;
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
  owner: string,
): Promise<Dispatched> {
  const after: (() => void)[] = [];
  const replied = (): void => {
    for (const action of after.splice(0)) action();
  };
  if (!isCommandName(command))
    return { reply: { ok: false, error: `unknown command: ${JSON.stringify(command)}` }, replied };
  const caller: Caller = { owner, afterReply: (action) => after.push(action) };
  try {
    const args = parseOrThrow(commandInputSchemas[command], input, `${command} input`);
    // The only cast on the host side: args was parsed by the schema of the same command
    // the handler is looked up by, which TypeScript cannot correlate through a union key.
    const handler = handlers[command] as (args: unknown, caller: Caller) => unknown;
    return { reply: { ok: true, value: await handler(args, caller) }, replied };
  } catch (error) {
    const reply: CommandReply =
      error instanceof ValidationError
        ? { ok: false, error: error.message, issues: error.issues }
        : { ok: false, error: error instanceof Error ? error.message : String(error) };
    return { reply, replied };
  }
}
