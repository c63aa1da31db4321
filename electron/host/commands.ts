import {
  commandInputSchemas,
  isCommandName,
  type AppInfo,
  type CommandArgs,
  type CommandName,
  type CommandOutput,
  type CommandReply,
} from '../../shared/contract/api.ts';
import { parseOrThrow, ValidationError, type FieldIssue } from '../../shared/model/validation.ts';
import type { SecretOptions } from '../../shared/records/preset-summary.ts';
import { inputFileIssues } from '../engine/input-files.ts';
import { importIntoHistory, readImportTexts } from '../stores/history-import.ts';
import { tooFullForAJob } from '../stores/disk-room.ts';
import { diskFullMessage } from '../stores/history-index.ts';
import { diffRecords } from './record-diff.ts';
import { kubeStartOf } from '../jobs/sharded-target.ts';
import { gatedPlacement, previewKubernetes, type KubeGate } from './kube-gate.ts';
import { applyFileRule, type FileRule } from './file-rule.ts';
import type { HostServices } from './services.ts';

/** Who sent a command, as a handler sees them. */
export interface Caller {
  /** The owner key of a window or a page: jobs are routed and stopped per owner. */
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
  /** Which of its machine's files the host may read for a scenario (file-rule.ts); any by default. */
  fileRule?: FileRule;
  /**
   * Whether runs on Kubernetes start (the desktop app: yes; the web host: with --allow-kubernetes),
   * each only once the page confirmed what it starts (kube-gate.ts).
   */
  allowKubernetes: boolean;
  /** How the host resolves what a placement would start on Kubernetes; the kubeconfig's by default. */
  kubeStart?: KubeGate['resolve'];
}

/**
 * The body and CA files a job will read, under the host's file rule and checked before it
 * starts (a path the rule refuses, a missing file, a folder, a named pipe, a file past its
 * size limit, a CA file that is not PEM), so the caller's start fails naming the field.
 * Returns the plan with each path as the host will read it.
 */
async function checkedInputFiles<
  S extends Parameters<typeof inputFileIssues>[0] & Parameters<typeof applyFileRule>[0],
>(command: CommandName, key: string, s: S, rule: FileRule): Promise<S> {
  const invalid = (issues: FieldIssue[]): ValidationError =>
    new ValidationError(
      `${command} input`,
      issues.map((i) => ({ ...i, path: `${key}.${i.path}` })),
    );
  const ruled = await applyFileRule(s, rule);
  if (!ruled.ok) throw invalid(ruled.issues);
  const issues = await inputFileIssues(ruled.value);
  if (issues.length > 0) throw invalid(issues);
  return ruled.value;
}

export function createCommandHandlers({
  services,
  info,
  fileRule = { kind: 'any' },
  allowKubernetes,
  kubeStart,
}: CommandDeps): CommandHandlers {
  const kube: KubeGate = {
    allowed: allowKubernetes,
    resolve: kubeStart ?? kubeStartOf,
  };
  const { jobs, stores } = services;
  const { presets, history } = stores;
  const secretOptions = (a: SecretOptions): SecretOptions => ({
    allowPlaintextSecrets: a.allowPlaintextSecrets,
    omitSecrets: a.omitSecrets,
  });
  return {
    'app.info': () => ({ ...info, dataDir: stores.dataDir, problems: stores.problems() }),
    'jobs.start': async (start, caller) => {
      // Refused up front on a full disk, rather than failing to save what it measured.
      if (await tooFullForAJob(stores.dataDir)) throw new Error(diskFullMessage(history.dir));
      const plan = await checkedInputFiles('jobs.start', 'plan', start.plan, fileRule);
      const placed =
        'shards' in start && start.shards
          ? { shards: await gatedPlacement(kube, start.shards, start.kubernetesConfirmed) }
          : {};
      // Counted and registered in the same tick, so concurrent starts cannot pass the cap together.
      const job = jobs.start({ ...start, plan, ...placed } as typeof start, caller.owner);
      caller.afterReply(job.begin);
      return { jobId: job.id };
    },
    'jobs.stop': async ({ jobId }, caller) => ({ stopped: await jobs.stop(jobId, caller.owner) }),
    'jobs.active': (args, caller) => ({ jobs: jobs.activeOf(caller.owner, args?.kind) }),
    'jobs.events': ({ jobId, after }, caller) => ({ events: jobs.eventsAfter(jobId, caller.owner, after) }),
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
      baselines: await history.baselines(),
      problems: stores.problems(),
    }),
    'history.get': ({ id }) => history.get(id),
    'history.rename': ({ id, name }) => history.rename(id, name),
    'history.delete': async ({ id }) => ({ deleted: await history.delete(id) }),
    'history.import': ({ files }) => importIntoHistory(history, readImportTexts(files), info.appVersion),
    'history.baseline': async ({ id, on }) => ({ baselines: await history.setBaseline(id, on) }),
    'history.diff': async ({ base, next, parts }) =>
      diffRecords(await history.get(base), await history.get(next), parts),
    'settings.get': () => ({ ui: stores.settings.ui(), file: stores.settings.path }),
    'settings.set': ({ ui }) => ({ ui: stores.settings.setUi(ui), file: stores.settings.path }),
    'kube.contexts': async () => {
      try {
        const { kubeContexts } = await import('../distributed/kubernetes-client.ts');
        return { ...kubeContexts(), problem: null, allowed: allowKubernetes };
      } catch (e) {
        const problem = e instanceof Error ? e.message : String(e);
        return { contexts: [], current: null, problem, allowed: allowKubernetes };
      }
    },
    'kube.preview': ({ shards }) => previewKubernetes(kube, shards),
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
 * e.g. "jobs.start input is invalid: plan.targets.0.url: URL is not valid ...".
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
