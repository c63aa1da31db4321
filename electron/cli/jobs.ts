/**
 * What the commands that run load share (`trebuchet run`, `trebuchet capacity`): the context
 * they run in, following a started job to its end with Ctrl-C stopping it, and the stores,
 * opened only when needed, to save the job in the history.
 */
import type { JobKind, PartResultOf, PlanOf } from '../../shared/contract/jobs.ts';
import type { RunStatus } from '../../shared/model/result.ts';
import { checkTarget } from '../engine/preflight/target-check.ts';
import type { HistoryDraft } from '../jobs/history-saver.ts';
import { newJobId } from '../jobs/ids.ts';
import type { JobRunner, RunnerEvent } from '../jobs/runner.ts';
import { RUNNERS } from '../jobs/runners.ts';
import { startTarget, type PartReader, type StartTarget } from '../jobs/target-run.ts';
import type { Stores } from '../stores/index.ts';
import type { ShardPlacement } from '../../shared/distributed/placement.ts';
import { journalsIn, type JobJournal, JournalFolder } from '../jobs/journal/writer.ts';

export interface CliContext {
  argv: readonly string[];
  cwd: string;
  appVersion: string;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  /** The process's stdin, taken only by a shard its coordinator speaks to (`--start-on stdin`); absent: process.stdin. */
  stdin?: () => NodeJS.ReadableStream;
  /** Subscribes to Ctrl-C; returns the unsubscribe function. */
  onInterrupt(handler: () => void): () => void;
}

/**
 * The stores of the data directory, loaded and opened once and only when needed (a preset by
 * name, --save): a plain run loads none of the store code. Opening them may set a broken
 * file aside: each such problem is said on stderr (its message says where the file was
 * kept), or a preset or a run would seem to have vanished.
 */
export class LazyStores {
  readonly #dataDir: string | undefined;
  readonly #say: (message: string) => void;
  #stores: Promise<Stores> | null = null;
  constructor(dataDir: string | undefined, say: (message: string) => void) {
    this.#dataDir = dataDir;
    this.#say = say;
  }
  get(): Promise<Stores> {
    this.#stores ??= import('../stores/index.ts').then(async ({ openStores }) => {
      const stores = await openStores({ dataDir: this.#dataDir });
      for (const problem of stores.problems()) this.#say(problem.message);
      // Jobs a host left unfinished (killed, crashed) become History entries; the code loads only then.
      if (journalsIn(stores.dataDir)) {
        const { recoverJournals } = await import('../jobs/journal/recover.ts');
        await recoverJournals({ dataDir: stores.dataDir, history: stores.history, say: this.#say });
      }
      return stores;
    });
    return this.#stores;
  }

  /** Where a job saved in the history keeps its journal as it runs. */
  async journals(): Promise<JournalFolder> {
    const { defaultDataDir } = await import('../stores/index.ts');
    return new JournalFolder(this.#dataDir ?? defaultDataDir());
  }
}

/** What a job run from the command line came to. */
export interface JobOutcome<K extends JobKind> {
  jobId: string;
  status: RunStatus;
  /** The parts' results in run order, samples included. */
  results: PartResultOf<K>[];
  /** Ctrl-C stopped it. */
  interrupted: boolean;
  /** Its journal, its end written, when it is to be saved in the history (saveInHistory removes it). */
  journal: JobJournal | null;
}

/**
 * Runs a job of a kind through its runner (the one the hosts use), on the engine, to its
 * end: on.event hears every event. The first Ctrl-C stops it (`on.interrupted` first, then a
 * note on stderr, after the command's name, saying what follows) and the partial outcome
 * still comes back. Given a journal folder (the job is to be saved in the history), the job
 * writes its journal there as it runs: killed, it is a History entry at the next start.
 */
export async function runJob<K extends JobKind>(
  ctx: CliContext,
  kind: K,
  plan: PlanOf<K>,
  on: { event: (event: RunnerEvent<K>) => void; interrupted: () => void },
  says: { command: string; stopping: string },
  how: {
    /** How each part runs: the engine here by default, the coordinator's shards (`--shards`). */
    start?: StartTarget;
    /** Where the job's journal goes (the job is to be saved in the history); none without it. */
    journals?: JournalFolder | null;
    /** Reads each part too (the metrics out). */
    read?: PartReader;
    /** The shards the coordinator runs it on, kept in its journal. */
    shards?: ShardPlacement | null;
  } = {},
): Promise<JobOutcome<K>> {
  const start = how.start ?? startTarget;
  const { journals = null, read } = how;
  const results: PartResultOf<K>[] = [];
  const jobId = newJobId(kind);
  const runner: JobRunner<K> = RUNNERS[kind];
  const journal =
    journals?.open({ jobId, kind, plan, shards: how.shards ?? null, owner: 'cli', appVersion: ctx.appVersion }) ?? null;
  const job = runner.start(
    plan,
    (event) => {
      journal?.event(event);
      if (event.type === 'result') results.push(event.result);
      on.event(event);
    },
    {
      jobId,
      appVersion: ctx.appVersion,
      startTarget: read ? read({ id: jobId, kind }, start) : start,
      checkTarget: (scenario, signal) => checkTarget(scenario, { appVersion: ctx.appVersion, signal }),
    },
  );
  let interrupted = false;
  const stopInterrupt = ctx.onInterrupt(() => {
    if (interrupted) return;
    interrupted = true;
    on.interrupted();
    ctx.stderr.write(`trebuchet ${says.command}: stopping (${says.stopping})...\n`);
    void job.stop();
  });
  try {
    const status = await job.done;
    await journal?.end(status);
    // Nothing measured is nothing to save: its journal goes now.
    if (results.length === 0) await journal?.remove();
    return { jobId, status, results, interrupted, journal: results.length > 0 ? journal : null };
  } finally {
    stopInterrupt();
  }
}

/**
 * Saves the job in the history; prints where, or why it could not (once: a full disk, a
 * broken folder). Never throws; false when the job is not saved, which fails the command.
 * Its journal goes once it is saved, and stays when it could not be (the next start saves it).
 */
export async function saveInHistory(
  ctx: CliContext,
  command: string,
  stores: LazyStores,
  draft: HistoryDraft,
  journal: JobJournal | null,
): Promise<boolean> {
  try {
    const { history } = await stores.get();
    const saved = await history.save({ ...draft, appVersion: ctx.appVersion });
    await journal?.remove();
    ctx.stderr.write(`saved in history as ${saved.id}\n`);
    return true;
  } catch (e) {
    await journal?.keep();
    ctx.stderr.write(
      `trebuchet ${command}: could not save in the history: ${e instanceof Error ? e.message : String(e)}\n`,
    );
    return false;
  }
}
