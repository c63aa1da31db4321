import fsp from 'node:fs/promises';
import path from 'node:path';
import {
  historyNameSchema,
  HISTORY_RECORD_FORMAT,
  readHistoryRecord,
  HISTORY_RECORD_VERSION,
  historyRecordSchema,
  type HistorySummary,
  type HistoryRecord,
  type HistoryRecordDraft,
} from '../../shared/records/history.ts';
import type { StoreProblem } from '../../shared/records/preset-summary.ts';
import { summarizeRecord } from '../../shared/records/history-summary.ts';
import { recordKind, resultsOf } from '../../shared/records/kinds.ts';
import { inOrderOf, placedResults, savedOfRecord } from '../../shared/records/result-file.ts';
import { resultsArithmeticIssues } from '../../shared/records/result-checks.ts';
import { bulkAside, copyLight, jsonPieces, readWithBulkApart } from '../../shared/records/bulk.ts';
import { readJsonStreamed } from './json/file.ts';
import { JsonStreamError } from './json/shapes.ts';
import type { Baseline } from '../../shared/records/baselines.ts';
import { describeIssues, parseOrThrow, parseWith, ValidationError } from '../../shared/model/validation.ts';
import { LIMITS } from '../../shared/model/defaults.ts';
import { FileProblemError } from '../files/bounded-file.ts';
import {
  ensureDirectory,
  moveAside,
  PRIVATE_FILE_MODE,
  removeStaleTempFiles,
  writeFileAtomic,
} from './files.ts';
import { HistoryBaselines } from './history-baselines.ts';
import { diskFullMessage, HistoryIndex } from './history-index.ts';
import {
  asStored,
  clearSecrets,
  countSecrets,
  jsonCopy,
  sealSecrets,
  unsealSecrets,
  type SecretCipher,
} from './secrets.ts';
import { loadCrypto } from '../engine/builtins.ts';

/*
 * Layout of the history directory:
 *   <id>.run.json        one finished or cancelled run (shared/records/history.ts HistoryRecord), written atomically
 *   index.json           summaries of every run file with its size and modification time, so
 *                        the list needs no sample (history-index.ts). At start every run file
 *                        is checked against it (one stat each): a file that changed is read
 *                        again in full.
 *   baselines.json       per subject, the run later ones are compared with (history-baselines.ts)
 *   <id>.run.broken-<time>.json   a run file that could not be read, kept for the user
 */

const RUN_FILE = /^([A-Za-z0-9_-]{1,64})\.run\.json$/;

const MAX_RUN_FILE_BYTES = LIMITS.runFileBytes.max;

export interface HistoryStoreOptions {
  /** The history directory (created when missing). */
  dir: string;
  /** Encrypts secret header values; without one they are cleared unless allowPlaintextSecrets. */
  cipher?: SecretCipher | null;
  /**
   * Keep secret header values as plain text when there is no cipher. Runs are saved without asking,
   * so without this setting (and without a cipher) their values are cleared from what is saved.
   */
  allowPlaintextSecrets?: boolean;
  now?: () => Date;
}

export class HistoryNotFoundError extends Error {
  readonly code = 'not-found';
  constructor(id: string) {
    super(`there is no saved run with id ${id}`);
    this.name = 'HistoryNotFoundError';
  }
}

export class BrokenHistoryFileError extends Error {
  readonly code = 'broken';
  readonly problem: StoreProblem;
  constructor(problem: StoreProblem) {
    super(problem.message);
    this.name = 'BrokenHistoryFileError';
    this.problem = problem;
  }
}

const runFileName = (id: string) => `${id}.run.json`;

/** Opens (and if needed repairs the index of) a history directory. */
export async function openHistoryStore(opts: HistoryStoreOptions): Promise<HistoryStore> {
  const store = new HistoryStore(opts);
  await store.list();
  return store;
}

/**
 * Saved runs: save, list, get, rename, delete. Survives restarts (everything is on disk);
 * another process saving into the same directory (CLI beside the web host) shows up at the
 * next list(). Mutations of one store run one at a time.
 */
export class HistoryStore {
  readonly dir: string;
  private readonly cipher: SecretCipher | null;
  private readonly allowPlaintextSecrets: boolean;
  private readonly now: () => Date;
  private readonly index: HistoryIndex;
  private readonly baselineFile: HistoryBaselines;
  private indexLoaded = false;
  private readonly problemList: StoreProblem[] = [];
  private queue: Promise<unknown> = Promise.resolve();

  /** Use openHistoryStore(), which also checks every run file. */
  constructor(opts: HistoryStoreOptions) {
    this.dir = opts.dir;
    this.cipher = opts.cipher ?? null;
    this.allowPlaintextSecrets = opts.allowPlaintextSecrets === true;
    this.now = opts.now ?? (() => new Date());
    this.index = new HistoryIndex(this.dir);
    this.baselineFile = new HistoryBaselines(this.dir);
    const inTheWay = ensureDirectory(this.dir, this.now);
    if (inTheWay)
      this.report(this.dir, inTheWay, `${this.dir} was not a folder. It was kept as ${inTheWay}.`);
    removeStaleTempFiles(this.dir);
  }

  /** Run files set aside, oldest first. */
  problems(): readonly StoreProblem[] {
    return [...this.problemList];
  }

  /** Every saved run, newest first. */
  list(): Promise<HistorySummary[]> {
    return this.serial(async () => {
      await this.reconcile();
      return this.index.list();
    });
  }

  /**
   * Saves a run. Secret header values are sealed with the cipher, or kept as plain text
   * when allowed, or else cleared. Throws a ValidationError when the draft is not a valid
   * record (nothing is written then). `ranAt`: when it ran, for a result imported from a
   * file (History lists by it); now by default.
   */
  save(draft: HistoryRecordDraft, ranAt?: Date): Promise<HistorySummary> {
    return this.serial(async () => {
      const createdAt = ranAt ?? this.now();
      const defaultName = recordKind(draft.kind).planOf(draft).name;
      const given = {
        ...draft,
        format: HISTORY_RECORD_FORMAT,
        version: HISTORY_RECORD_VERSION,
        id: newHistoryId(createdAt),
        name: draft.name?.trim() || defaultName.trim() || 'Run',
        createdAt: createdAt.toISOString(),
        generator: resultsOf(draft)[0]?.generator ?? null,
      };
      // Its samples are not copied (bulk.ts): a large import is held once. They were checked as
      // they were read (an import), or made here (a run's): the rest of the record is checked.
      const parsed = readWithBulkApart(
        given,
        (light) => parseWith(historyRecordSchema, light),
        resultsOf,
        false,
      );
      if (!parsed.ok) throw new ValidationError('run record', parsed.issues);
      // Kept in the order its results came (a run's, an imported file's), so they export as the same bytes.
      const record = inOrderOf<HistoryRecord>(parsed.value, given);
      const tree = copyLight(record, jsonCopy);
      if (countSecrets(tree) > 0) {
        if (this.cipher?.available() === true) sealSecrets(tree, this.cipher);
        else if (!this.allowPlaintextSecrets) clearSecrets(tree);
      }
      // Written as it is made, and not at all past what the store reads back (FileTooLargeError).
      await writeFileAtomic(this.file(record.id), jsonOf(tree), PRIVATE_FILE_MODE, MAX_RUN_FILE_BYTES);
      return this.indexed(record);
    });
  }

  /** A saved run with its results; a file that cannot be read is set aside and a BrokenHistoryFileError thrown. */
  get(id: string): Promise<HistoryRecord> {
    return this.serial(async () => {
      const raw = await this.readRaw(id);
      unsealSecrets(raw, this.cipher);
      return this.validate(id, raw);
    });
  }

  rename(id: string, name: string): Promise<HistorySummary> {
    return this.serial(async () => {
      const newName = parseOrThrow(historyNameSchema, name, 'name');
      const raw = await this.readRaw(id);
      // Validated as stored (sealed values read as empty headers) so a broken file is never rewritten.
      const record = await this.validate(id, copyLight(raw, asStored));
      (raw as Record<string, unknown>).name = newName;
      await writeFileAtomic(this.file(id), jsonOf(raw), PRIVATE_FILE_MODE, MAX_RUN_FILE_BYTES);
      return this.indexed({ ...record, name: newName });
    });
  }

  /** Deletes a saved run; false when there is none with that id. */
  delete(id: string): Promise<boolean> {
    return this.serial(async () => {
      if (!RUN_FILE.test(runFileName(id))) return false;
      try {
        await fsp.rm(this.file(id));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
        await this.forget(id);
        return false;
      }
      this.index.delete(id);
      await this.index.write();
      return true;
    });
  }

  /** The baselines (shared/records/baselines.ts), each of a run still saved. */
  baselines(): Promise<Baseline[]> {
    return this.serial(async () => {
      await this.reconcile();
      return (await this.loadBaselines()).filter((b) => this.index.has(b.id));
    });
  }

  /** Makes a saved run the baseline of its subject (in place of the one it had), or no baseline. */
  setBaseline(id: string, on: boolean): Promise<Baseline[]> {
    return this.serial(async () => {
      await this.reconcile();
      const summary = this.index.list().find((s) => s.id === id);
      if (!summary) throw new HistoryNotFoundError(id);
      const kept = (await this.loadBaselines()).filter(
        (b) => b.subject !== summary.subject && b.id !== id && this.index.has(b.id),
      );
      const baselines = on ? [...kept, { subject: summary.subject, id }] : kept;
      await this.baselineFile.write(baselines);
      return baselines;
    });
  }

  // -------------------------------------------------------------------------------------

  private loadBaselines(): Promise<Baseline[]> {
    return this.baselineFile.load(this.now(), (file, keptAs, why) =>
      this.report(
        file,
        keptAs,
        `The baselines could not be read (${why}).${keptAs ? ` It was kept as ${keptAs}.` : ''} Mark them again.`,
      ),
    );
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.queue.then(fn, fn);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private file(id: string): string {
    return path.join(this.dir, runFileName(id));
  }

  /** Indexes a record just written, with its file's size and modification time. */
  private async indexed(record: HistoryRecord): Promise<HistorySummary> {
    const stat = await fsp.stat(this.file(record.id));
    const summary = summarizeRecord(record, stat.size);
    this.index.set(summary, stat.mtimeMs);
    await this.index.write();
    return summary;
  }

  private async forget(id: string): Promise<void> {
    if (this.index.delete(id)) await this.writeIndex();
  }

  /** A run file's JSON, read a chunk at a time (a day-long run is never one text in memory). */
  private async readRaw(id: string): Promise<unknown> {
    if (!RUN_FILE.test(runFileName(id))) throw new HistoryNotFoundError(id);
    const file = this.file(id);
    try {
      return await readJsonStreamed(file, MAX_RUN_FILE_BYTES, 'a run file', (shallow) => {
        const r = readHistoryRecord(asStored(shallow));
        return r.ok ? null : describeIssues(r.issues);
      });
    } catch (err) {
      if (err instanceof JsonStreamError) throw await this.setAside(id, err.message);
      if (!(err instanceof FileProblemError)) throw err;
      if (err.code === 'ENOENT') {
        await this.forget(id);
        throw new HistoryNotFoundError(id);
      }
      throw await this.setAside(id, `it ${err.problem}`);
    }
  }

  private async validate(id: string, raw: unknown): Promise<HistoryRecord> {
    const r = readWithBulkApart(raw, readHistoryRecord, resultsOf);
    if (!r.ok) throw await this.setAside(id, describeIssues(r.issues));
    if (r.value.id !== id) throw await this.setAside(id, `it holds run ${r.value.id}, not ${id}`);
    // A file edited into figures that contradict themselves is not shown as a measurement.
    const issues = resultsArithmeticIssues(placedResults(savedOfRecord(r.value), raw));
    if (issues.length > 0) throw await this.setAside(id, describeIssues(issues.slice(0, 5)));
    return inOrderOf(r.value, raw);
  }

  /** Sets a broken run file aside; a HistoryNotFoundError when another process did first. */
  private async setAside(id: string, why: string): Promise<BrokenHistoryFileError | HistoryNotFoundError> {
    const file = this.file(id);
    const keptAs = moveAside(file, this.now());
    await this.forget(id);
    if (keptAs === null) return new HistoryNotFoundError(id);
    return new BrokenHistoryFileError(
      this.report(
        file,
        keptAs,
        `A saved run could not be read (${why}). It was kept as ${keptAs} and left out of the history.`,
      ),
    );
  }

  private report(file: string, keptAs: string | null, message: string): StoreProblem {
    const problem: StoreProblem = { store: 'history', file, keptAs, message, at: this.now().toISOString() };
    this.problemList.push(problem);
    return problem;
  }

  /**
   * Brings the in-memory index in line with the run files on disk. The first time (at
   * start) each indexed file is also checked against its size and modification time, so a
   * file truncated, overwritten or replaced since is read again and set aside when broken,
   * instead of being listed until someone opens it.
   */
  private async reconcile(): Promise<void> {
    let changed = false;
    const firstTime = !this.indexLoaded;
    if (firstTime) {
      changed = !(await this.index.load(this.now, (file, keptAs) =>
        this.report(file, keptAs, `The history index was not a file. It was kept as ${keptAs} and rebuilt.`),
      ));
      this.indexLoaded = true;
    }
    const names = await fsp.readdir(this.dir);
    const onDisk = new Set<string>();
    for (const name of names) {
      const m = RUN_FILE.exec(name);
      if (m) onDisk.add(m[1]!);
    }
    for (const id of this.index.ids()) {
      if (!onDisk.has(id)) {
        this.index.delete(id);
        changed = true;
      }
    }
    // A file replaced since it was indexed is read again below, as a new one is.
    for (const id of onDisk) {
      if (this.index.has(id)) {
        if (!firstTime || (await this.index.unchanged(id, this.file(id)))) continue;
        this.index.delete(id);
        changed = true;
      }
      try {
        const record = await this.validate(id, copyLight(await this.readRaw(id), asStored));
        const stat = await fsp.stat(this.file(id));
        this.index.set(summarizeRecord(record, stat.size), stat.mtimeMs);
        changed = true;
      } catch (err) {
        // A broken file was set aside and reported; the others still load.
        if (!(err instanceof BrokenHistoryFileError || err instanceof HistoryNotFoundError)) throw err;
      }
    }
    if (changed) await this.writeIndex();
  }

  /** The index is a cache: on a full disk it stays in memory, said once, and the host still starts. */
  private async writeIndex(): Promise<void> {
    if (await this.index.writeUnlessFull()) return;
    if (this.problemList.some((p) => p.file === this.index.file && p.keptAs === null)) return;
    this.report(this.index.file, null, diskFullMessage(this.dir));
  }
}

/** A record's JSON text in pieces, its samples stringified a batch at a time (bulk.ts). */
function jsonOf(tree: unknown): Iterable<string> {
  const nonce = Math.floor(Math.random() * 2 ** 32).toString(16);
  return jsonPieces(tree, bulkAside(tree).lists, nonce);
}

/** Sortable by time, unique: 20250102-030405-678-a1b2c3d4. */
function newHistoryId(at: Date): string {
  const t = at
    .toISOString()
    .replace(/[-:TZ]/g, '')
    .replace('.', '-');
  return `${t.slice(0, 8)}-${t.slice(8)}-${loadCrypto().randomBytes(4).toString('hex')}`;
}
