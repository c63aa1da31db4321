/**
 * A job's journal as it is written (shared/records/journal.ts has its lines): the plan when the
 * job starts, each part's start, its engine samples at least every FLUSH_MS, its result when
 * it ends (fsynced: a finished part survives even a power cut), the job's end. The file is
 * removed once the job's record is saved; a host that starts and finds one whose writer is
 * gone makes it a History entry (recover.ts). Writing never fails the job: a journal that
 * cannot be written (a full disk) says so once and stops.
 */
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { partStarted, withoutSamples, type JobKind, type PlanOf } from '../../../shared/contract/jobs.ts';
import type { ShardPlacement } from '../../../shared/distributed/placement.ts';
import { LIMITS } from '../../../shared/model/defaults.ts';
import type { RunStatus, Sample } from '../../../shared/model/result.ts';
import { withoutSecrets } from '../../../shared/model/secret-headers.ts';
import { JOURNAL_VERSION, MAX_SAMPLES_PER_LINE, type JournalLine } from '../../../shared/records/journal.ts';
import type { RunnerEvent } from '../runner.ts';
import { ALIVE_MS, thisWriter } from './writer-identity.ts';

/** The data folder's subfolder of journals: `<jobId>.journal`, one per job running. */
export const JOURNAL_FOLDER = 'journals';
export const JOURNAL_SUFFIX = '.journal';

/**
 * How often the running part's samples are written: a kill -9 loses at most this much of it
 * (the issue allows 5 s; one tick's line costs a write of a few hundred bytes).
 */
export const FLUSH_MS = 1000;
/** A journal holds about its record's bytes (samples once, results without them): the record's cap. */
export const MAX_JOURNAL_BYTES = LIMITS.runFileBytes.max;

const write = promisify(fs.write);
const fsync = promisify(fs.fsync);
const close = promisify(fs.close);
const futimes = promisify(fs.futimes);

export interface JournalStart<K extends JobKind = JobKind> {
  jobId: string;
  kind: K;
  plan: PlanOf<K>;
  shards: ShardPlacement | null;
  /** Who started it: a window, a page (its client id), 'cli'. */
  owner: string;
  appVersion: string;
}

/** Whether a data folder holds any journal (a job running, or one a host left): recovery loads only then. */
export function journalsIn(dataDir: string): boolean {
  try {
    return fs.readdirSync(path.join(dataDir, JOURNAL_FOLDER)).some((name) => name.includes(JOURNAL_SUFFIX));
  } catch {
    return false;
  }
}

/** Where jobs' journals go: a data folder's `journals/`. */
export class JournalFolder {
  readonly dir: string;
  constructor(dataDir: string) {
    this.dir = path.join(dataDir, JOURNAL_FOLDER);
  }

  /**
   * Starts a job's journal (its plan written and fsynced); null, said on stderr, when it cannot
   * be (a full disk, a read-only folder): the job runs without one.
   */
  open(start: JournalStart, now: () => Date = () => new Date()): JobJournal | null {
    try {
      return JobJournal.create(path.join(this.dir, `${start.jobId}${JOURNAL_SUFFIX}`), start, now);
    } catch (error) {
      console.error(
        `trebuchet: job ${start.jobId} runs without a journal (${error instanceof Error ? error.message : String(error)}); a crash would lose it`,
      );
      return null;
    }
  }
}

export class JobJournal {
  readonly file: string;
  readonly #fd: number;
  readonly #kind: JobKind;
  readonly #now: () => Date;
  /** Lines waiting for the write in flight; one write takes them all. */
  #pending: string[] = [];
  #syncWanted = false;
  #writing: Promise<void> | null = null;
  /** Samples of each part not written yet. */
  readonly #samples = new Map<number, Sample[]>();
  readonly #timer: NodeJS.Timeout;
  #bytes = 0;
  #lastWriteAt: number;
  /** Broken (a write failed) or closed: nothing more is written. */
  #done = false;
  #samplesDropped = false;
  #closed = false;

  private constructor(file: string, fd: number, kind: JobKind, now: () => Date) {
    this.file = file;
    this.#fd = fd;
    this.#kind = kind;
    this.#now = now;
    this.#lastWriteAt = Date.now();
    this.#timer = setInterval(() => this.#tick(), FLUSH_MS);
    this.#timer.unref();
  }

  static create(file: string, start: JournalStart, now: () => Date): JobJournal {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const fd = fs.openSync(file, 'wx', 0o600);
    try {
      // A journal never holds secret header values: the record it may become keeps them only sealed.
      const head: JournalLine = {
        type: 'plan',
        version: JOURNAL_VERSION,
        jobId: start.jobId,
        kind: start.kind,
        plan: withoutSecrets(start.plan),
        shards: start.shards,
        owner: start.owner,
        appVersion: start.appVersion,
        startedAt: now().toISOString(),
        writer: thisWriter(),
      };
      fs.writeSync(fd, `${JSON.stringify(head)}\n`);
      fs.fsyncSync(fd);
    } catch (error) {
      fs.closeSync(fd);
      fs.rmSync(file, { force: true });
      throw error;
    }
    return new JobJournal(file, fd, start.kind, now);
  }

  /** Notes what the job said: a part's start, its samples (engine), its result. */
  event(event: RunnerEvent): void {
    if (this.#done) return;
    switch (event.type) {
      case 'progress': {
        if (partStarted(event.progress) === null) return;
        this.#append({ type: 'part', at: this.#now().toISOString(), progress: event.progress }, false);
        return;
      }
      case 'sample': {
        if (event.source !== 'engine' || this.#samplesDropped) return;
        let list = this.#samples.get(event.part);
        if (!list) this.#samples.set(event.part, (list = []));
        list.push(event.sample);
        if (list.length >= MAX_SAMPLES_PER_LINE) this.#flushSamples(event.part);
        return;
      }
      case 'result': {
        this.#flushSamples(event.part);
        const result = withoutSecrets(withoutSamples(this.#kind, event.result));
        this.#append({ type: 'result', part: event.part, result }, true);
        return;
      }
      case 'error':
        return;
    }
  }

  /** The job ended: its status written and fsynced, before its record is saved. */
  async end(status: RunStatus): Promise<void> {
    if (this.#done) return;
    for (const part of [...this.#samples.keys()]) this.#flushSamples(part);
    this.#append({ type: 'end', status, at: this.#now().toISOString() }, true);
    await this.#drained();
  }

  /** The job's record is saved: the journal goes. */
  async remove(): Promise<void> {
    await this.#close();
    await fs.promises.rm(this.file, { force: true });
  }

  /** The record could not be saved: the journal stays, for the next start to save it. */
  async keep(): Promise<void> {
    await this.#close();
  }

  async #close(): Promise<void> {
    clearInterval(this.#timer);
    await this.#drained();
    this.#done = true;
    if (this.#closed) return;
    this.#closed = true;
    await close(this.#fd).catch(() => undefined);
  }

  async #drained(): Promise<void> {
    while (this.#writing) await this.#writing;
  }

  #tick(): void {
    if (this.#done) return;
    for (const part of [...this.#samples.keys()]) this.#flushSamples(part);
    if (this.#writing === null && Date.now() - this.#lastWriteAt >= ALIVE_MS) {
      const t = new Date();
      this.#lastWriteAt = t.getTime();
      futimes(this.#fd, t, t).catch(() => undefined);
    }
  }

  #flushSamples(part: number): void {
    const samples = this.#samples.get(part);
    this.#samples.delete(part);
    if (!samples || samples.length === 0 || this.#samplesDropped) return;
    this.#append({ type: 'samples', part, samples }, false);
  }

  #append(line: JournalLine, sync: boolean): void {
    if (this.#done) return;
    const text = `${JSON.stringify(line)}\n`;
    if (line.type === 'samples' && this.#bytes + text.length > MAX_JOURNAL_BYTES) {
      // Past its record's cap: the samples stop here (results and the end still go in).
      this.#samplesDropped = true;
      console.error(`trebuchet: ${this.file} reached ${MAX_JOURNAL_BYTES} bytes; it keeps no more samples`);
      return;
    }
    this.#bytes += text.length;
    this.#pending.push(text);
    this.#syncWanted ||= sync;
    this.#writing ??= this.#drain();
  }

  async #drain(): Promise<void> {
    try {
      while (this.#pending.length > 0 && !this.#done) {
        const data = Buffer.from(this.#pending.join(''));
        const sync = this.#syncWanted;
        this.#pending = [];
        this.#syncWanted = false;
        for (let at = 0; at < data.length;) at += (await write(this.#fd, data, at)).bytesWritten;
        if (sync) await fsync(this.#fd);
        this.#lastWriteAt = Date.now();
      }
    } catch (error) {
      this.#done = true;
      this.#pending = [];
      console.error(
        `trebuchet: could not write the job's journal ${this.file} (${error instanceof Error ? error.message : String(error)}); a crash now would lose what it measured since`,
      );
    } finally {
      this.#writing = null;
    }
  }
}
