import fsp from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { historySummarySchema, type HistorySummary } from '../../shared/records/history.ts';
import { LIMITS } from '../../shared/model/defaults.ts';
import { readBoundedFile, textOf } from '../files/bounded-file.ts';
import { moveAside, parseJsonText, writeFileAtomic } from './files.ts';

/*
 * index.json of the history directory: the summary of every run file with its size and
 * modification time, so the list needs no sample. A cache: rebuilt from the run files when
 * missing, broken or out of date (history-store.ts reconciles it with the folder).
 */

const INDEX_FILE = 'index.json';
const INDEX_FORMAT = 'trebuchet-run-index';

/**
 * An index of another version is rebuilt from the run files, which checks them all (1 held
 * the summaries only; 3 added what each run ran; 4 each run's verdict; 5 its subject, for
 * baselines; 6 a capacity search's answer in words; 7 when it started and its requests, for
 * `trebuchet history list`; 8 a plain run's kind and subject say 'run', no longer 'scenario').
 */
const INDEX_VERSION = 8;
const indexSchema = z.strictObject({
  format: z.literal(INDEX_FORMAT),
  version: z.literal(INDEX_VERSION),
  entries: z.array(z.strictObject({ summary: historySummarySchema, mtimeMs: z.number() })),
});

/** What a full disk means for History: said in the page and the CLI. */
export const diskFullMessage = (dir: string): string =>
  `The disk holding ${dir} is full: runs cannot be saved until there is room. Export runs you want to keep and delete them, or free space elsewhere.`;

export class HistoryIndex {
  private readonly summaries = new Map<string, HistorySummary>();
  /** Modification time of each indexed run file, as it was when its summary was taken. */
  private readonly mtimes = new Map<string, number>();
  readonly file: string;

  constructor(dir: string) {
    this.file = path.join(dir, INDEX_FILE);
  }

  has(id: string): boolean {
    return this.summaries.has(id);
  }

  ids(): string[] {
    return [...this.summaries.keys()];
  }

  /** Every summary, newest first. */
  list(): HistorySummary[] {
    return [...this.summaries.values()].sort(
      (a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id),
    );
  }

  set(summary: HistorySummary, mtimeMs: number): void {
    this.summaries.set(summary.id, summary);
    this.mtimes.set(summary.id, mtimeMs);
  }

  /** False when the run was not indexed. */
  delete(id: string): boolean {
    this.mtimes.delete(id);
    return this.summaries.delete(id);
  }

  /** True when an indexed run file is still the regular file of the size and time indexed. */
  async unchanged(id: string, file: string): Promise<boolean> {
    const stat = await fsp.stat(file).catch(() => null);
    return (
      stat !== null &&
      stat.isFile() &&
      stat.size === this.summaries.get(id)?.bytes &&
      stat.mtimeMs === this.mtimes.get(id)
    );
  }

  /**
   * Reads index.json; false when it was missing or unreadable (it is then rebuilt from the
   * run files). A folder in its place is set aside and `onSetAside` told where it was kept.
   */
  async load(now: () => Date, onSetAside: (file: string, keptAs: string) => void): Promise<boolean> {
    let text: string;
    try {
      const stat = await fsp.stat(this.file);
      // A folder in its place would make every later write of the index fail.
      if (!stat.isFile()) {
        const keptAs = moveAside(this.file, now());
        if (keptAs) onSetAside(this.file, keptAs);
        return false;
      }
      text = textOf(await readBoundedFile(this.file, LIMITS.inputFileBytes.max, 'the history index'));
    } catch {
      return false;
    }
    const json = parseJsonText(text);
    const parsed = json.ok ? indexSchema.safeParse(json.value) : null;
    if (!parsed?.success) return false;
    for (const { summary, mtimeMs } of parsed.data.entries) this.set(summary, mtimeMs);
    return true;
  }

  /** write(), or false when the disk is full (ENOSPC, EDQUOT): the index stays in memory. */
  async writeUnlessFull(): Promise<boolean> {
    return this.write().then(
      () => true,
      (err: NodeJS.ErrnoException) =>
        err.code === 'ENOSPC' || err.code === 'EDQUOT' ? false : Promise.reject(err),
    );
  }

  async write(): Promise<void> {
    const doc: z.input<typeof indexSchema> = {
      format: INDEX_FORMAT,
      version: INDEX_VERSION,
      entries: [...this.summaries.values()].map((summary) => ({
        summary,
        mtimeMs: this.mtimes.get(summary.id) ?? 0,
      })),
    };
    await writeFileAtomic(this.file, JSON.stringify(doc));
  }
}
