import {
  withoutSamples,
  type ActiveJob,
  type JobEnvelope,
  type JobEvent,
  type JobKind,
  type JobStart,
  type PartResultOf,
} from '../../shared/contract/jobs.ts';
import { LIMITS } from '../../shared/model/defaults.ts';
import type { RunStatus } from '../../shared/model/result.ts';
import type { ShardPlacement } from '../../shared/distributed/placement.ts';
import { shardedTarget } from './sharded-target.ts';
import { recordKind } from '../../shared/records/kinds.ts';
import type { HistorySaver } from './history-saver.ts';
import { newJobId } from './ids.ts';
import type { RecoveredJob } from './journal/recover.ts';
import type { JobJournal, JournalFolder } from './journal/writer.ts';
import { JobReplay } from './replay.ts';
import type { JobContext, JobRunner, RunnerEvent, RunningJob } from './runner.ts';
import type { ComparisonRerun } from '../../shared/comparison/rerun.ts';
import type { PartReader } from './target-run.ts';
import { RUNNERS } from './runners.ts';

/** Where an owner's job events go: a window's webContents, a page's open sockets. */
export type JobSink = (envelope: JobEnvelope) => void;

export class TooManyRunsError extends Error {
  readonly code = 'too-many-runs';
  constructor(max: number) {
    super(
      `this host already runs ${max} runs and comparisons at once, the most it allows (each one loads the machine); stop one or wait for one to end`,
    );
    this.name = 'TooManyRunsError';
  }
}

/** A job registered for its owner; it runs once begin() is called. */
export interface StartedJob {
  id: string;
  /** Starts the job: call once the caller has its start reply, so its first event follows the reply. */
  begin: () => void;
}

interface Entry {
  id: string;
  kind: JobKind;
  owner: string;
  plan: JobStart['plan'];
  /** A run on shards: where they go (the coordinator then runs the target). */
  shards: ShardPlacement | null;
  /** A comparison running some of a saved one's runs again. */
  rerun: ComparisonRerun | null;
  /** The next event's number. */
  n: number;
  replay: JobReplay;
  /** The parts' full results (samples included), in run order: what history keeps. */
  results: PartResultOf<JobKind>[];
  running: RunningJob | null;
  stopRequested: boolean;
  /** Its 'done' was sent: it is kept a while for a reconnecting page, then forgotten. */
  finished: boolean;
  /** What it measured, on disk as it goes (null: no data folder, or it could not be written). */
  journal: JobJournal | null;
}

export interface JobRegistryOptions {
  context: Omit<JobContext, 'jobId'>;
  history: HistorySaver;
  /** Jobs at once over every owner; LIMITS.concurrentRuns.max by default. */
  maxActive?: number;
  /** How long a finished job's events stay for a page reconnecting after its end; 60 s by default. */
  keepFinishedMs?: number;
  /** Where each job's journal is written as it runs (journal/writer.ts); none without it. */
  journals?: JournalFolder | null;
  /**
   * The jobs an earlier host left unfinished, made History entries at this start
   * (journal/recover.ts): a page that followed one and reconnects is told it ended, and where it is.
   */
  recovered?: readonly RecoveredJob[];
  /** Reads each job's parts as they run (the metrics out); asked at each job's start. */
  read?: PartReader;
}

/**
 * Every job of a host, of every kind, keyed by id and owned by the caller that started it
 * (an Electron window, a web page): its events go to that owner only, numbered; a replay of
 * each lets a reloaded or reconnected owner take it up again; an owner's jobs stop when it
 * goes away; each finished job is saved in run history once, before its 'done' is sent,
 * which says where; the host runs at most maxActive jobs at once, whoever started them
 * (every one holds worker threads, sockets and memory, and side by side they measure each
 * other's load rather than the server).
 */
export class JobRegistry {
  readonly #jobs = new Map<string, Entry>();
  readonly #sinks = new Map<string, JobSink>();
  readonly #finishing = new Set<Promise<void>>();
  readonly #forget = new Set<NodeJS.Timeout>();
  readonly #context: Omit<JobContext, 'jobId'>;
  readonly #history: HistorySaver;
  readonly #maxActive: number;
  readonly #keepFinishedMs: number;
  readonly #journals: JournalFolder | null;
  readonly #recovered: ReadonlyMap<string, RecoveredJob>;
  readonly #read: PartReader | undefined;

  constructor(opts: JobRegistryOptions) {
    this.#read = opts.read;
    this.#context = opts.context;
    this.#history = opts.history;
    this.#maxActive = opts.maxActive ?? LIMITS.concurrentRuns.max;
    this.#keepFinishedMs = opts.keepFinishedMs ?? 60_000;
    this.#journals = opts.journals ?? null;
    this.#recovered = new Map((opts.recovered ?? []).map((r) => [r.jobId, r]));
  }

  /** The owner's job events go to this sink from now on (replacing any earlier). */
  attach(owner: string, sink: JobSink): void {
    this.#sinks.set(owner, sink);
  }

  /** The owner's job events are dropped (but kept in their replays) until it attaches again. */
  detach(owner: string): void {
    this.#sinks.delete(owner);
  }

  /**
   * Registers a job of the owner and returns its id; it runs from begin() on. Throws a
   * TooManyRunsError when the host already runs its most; counted and registered in the
   * same tick, so concurrent starts cannot pass the cap together.
   */
  start(job: JobStart, owner: string): StartedJob {
    if (this.#unfinished().length >= this.#maxActive) throw new TooManyRunsError(this.#maxActive);
    const entry: Entry = {
      id: newJobId(job.kind),
      kind: job.kind,
      owner,
      plan: job.plan,
      shards: 'shards' in job ? (job.shards ?? null) : null,
      rerun: 'rerun' in job ? (job.rerun ?? null) : null,
      n: 0,
      replay: new JobReplay(),
      results: [],
      running: null,
      stopRequested: false,
      finished: false,
      journal: null,
    };
    entry.journal =
      this.#journals?.open({
        jobId: entry.id,
        kind: entry.kind,
        plan: entry.plan,
        shards: entry.shards,
        owner,
        appVersion: this.#context.appVersion,
      }) ?? null;
    this.#jobs.set(entry.id, entry);
    return { id: entry.id, begin: () => this.#begin(entry) };
  }

  /** Stops a job the owner started; false when unknown, finished or someone else's. Resolves once it is done. */
  async stop(id: string, owner: string): Promise<boolean> {
    const entry = this.#jobs.get(id);
    if (!entry || entry.owner !== owner || entry.finished) return false;
    await this.#stop(entry);
    return true;
  }

  /** The owner's jobs (of one kind, if given) that have not ended, oldest first, with their replays. */
  activeOf(owner: string, kind?: JobKind): ActiveJob[] {
    return this.#unfinished()
      .filter((e) => e.owner === owner && (kind === undefined || e.kind === kind))
      .map((e) => ({
        jobId: e.id,
        kind: e.kind,
        plan: e.plan,
        events: e.replay.after(-1),
        partElapsedSeconds: e.replay.partElapsedSeconds(),
      }));
  }

  /**
   * The events of the owner's job after its n-th, for a page that lost some (a dropped
   * connection). A job an earlier host left unfinished (the host was restarted under the page)
   * answers with its end: 'done', its status, and where History keeps it.
   */
  eventsAfter(id: string, owner: string, n: number): JobEnvelope[] {
    const entry = this.#jobs.get(id);
    if (entry) return entry.owner === owner ? entry.replay.after(n) : [];
    const recovered = this.#recovered.get(id);
    if (!recovered || recovered.owner !== owner) return [];
    const done: JobEvent = { type: 'done', status: recovered.status, historyId: recovered.historyId };
    return [{ jobId: id, kind: recovered.kind, n: n + 1, event: done }];
  }

  /** The owner's jobs that have not ended (their 'done' not sent yet). */
  idsOf(owner: string): string[] {
    return this.#unfinished()
      .filter((e) => e.owner === owner)
      .map((e) => e.id);
  }

  /** Stops every job of the owner (window closed, page gone); each keeps and saves what it measured. */
  async stopOwned(owner: string): Promise<void> {
    await Promise.all(
      this.#unfinished()
        .filter((e) => e.owner === owner)
        .map((e) => this.#stop(e)),
    );
    await this.#idle();
  }

  /** Stops every job and waits until each is saved. */
  async close(): Promise<void> {
    await Promise.all(this.#unfinished().map((e) => this.#stop(e)));
    await this.#idle();
    for (const timer of this.#forget) clearTimeout(timer);
    this.#forget.clear();
    this.#sinks.clear();
  }

  #unfinished(): Entry[] {
    return [...this.#jobs.values()].filter((e) => !e.finished);
  }

  async #idle(): Promise<void> {
    while (this.#finishing.size > 0) await Promise.all([...this.#finishing]);
  }

  async #stop(entry: Entry): Promise<void> {
    entry.stopRequested = true;
    await entry.running?.stop();
    // Not begun yet: it stops as soon as it is (begin follows the start reply at once).
  }

  #begin(entry: Entry): void {
    if (entry.running) return;
    // The one place a kind meets its runner: the entry's plan is of the entry's kind.
    const runner = RUNNERS[entry.kind] as JobRunner<JobKind>;
    const start = entry.shards ? shardedTarget(entry.shards) : this.#context.startTarget;
    const running = runner.start(entry.plan, (event) => this.#receive(entry, event), {
      ...this.#context,
      startTarget: this.#read ? this.#read({ id: entry.id, kind: entry.kind }, start) : start,
      ...(entry.rerun ? { rerun: entry.rerun } : {}),
      jobId: entry.id,
    });
    entry.running = running;
    const finishing = running.done.then((status) => this.#finish(entry, runner, status));
    this.#finishing.add(finishing);
    void finishing.finally(() => this.#finishing.delete(finishing));
    if (entry.stopRequested) void running.stop();
  }

  #receive(entry: Entry, event: RunnerEvent): void {
    entry.journal?.event(event);
    if (event.type !== 'result') return this.#send(entry, event);
    entry.results.push(event.result);
    // The samples went live, each once: the result travels without them (history keeps them).
    this.#send(entry, { ...event, result: withoutSamples(entry.kind, event.result) });
  }

  async #finish(entry: Entry, runner: JobRunner<JobKind>, status: RunStatus): Promise<void> {
    // Nothing measured (stopped before any part ended, a pre-flight that failed): nothing to keep.
    const record =
      entry.results.length > 0 ? recordKind(entry.kind).fromJob(entry.plan, entry.results, status) : null;
    // Its end on disk first: were the save to fail (a full disk), the next start saves it.
    await entry.journal?.end(status);
    const saved = record ? await this.#history.save(record) : {};
    if (record && !('historyId' in saved)) await entry.journal?.keep();
    else await entry.journal?.remove();
    this.#send(entry, { type: 'done', status, ...saved });
    entry.finished = true;
    const timer = setTimeout(() => {
      this.#forget.delete(timer);
      this.#jobs.delete(entry.id);
    }, this.#keepFinishedMs);
    timer.unref();
    this.#forget.add(timer);
  }

  #send(entry: Entry, event: JobEvent): void {
    const envelope = { jobId: entry.id, kind: entry.kind, n: entry.n++, event };
    entry.replay.add(envelope);
    const sink = this.#sinks.get(entry.owner);
    if (!sink) return;
    try {
      sink(envelope);
    } catch (error) {
      // A broken window or socket must not break the job's event loop.
      console.error(`trebuchet: could not deliver a ${entry.kind} event:`, error);
    }
  }
}
