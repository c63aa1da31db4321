/**
 * A saved result brought into History (a file dropped or picked in the History tab): the
 * record it becomes (its kind's spec's `draft`, kinds.ts), and when it ran. Pure: the host's import (electron/stores/history-import.ts) saves what this makes.
 */
import { z } from 'zod';
import { LIMITS } from '../model/defaults.ts';
import type { HistoryRecordDraft, HistorySummary } from './history.ts';
import { recordKind, resultsOf, type SavedKind, type SavedResultOf } from './kinds.ts';

const MAX_IMPORT = LIMITS.importBytes.max;

/** An imported file's name, as the page gives it. */
export const importFileNameSchema = z
  .string()
  .min(1, 'a file needs a name')
  .max(1024, 'a file name is at most 1024 characters');

/** Files one import takes at most. */
export const MAX_IMPORT_FILES = 1000;

/** The files of one import (history.import's input): their names and texts, at most importBytes in all. */
export const importFilesSchema = z
  .array(z.strictObject({ name: importFileNameSchema, text: z.string() }))
  .min(1, 'give at least one result file')
  .max(MAX_IMPORT_FILES, `at most ${MAX_IMPORT_FILES} files at once`)
  .refine(
    (files) => files.reduce((n, f) => n + f.text.length, 0) <= MAX_IMPORT,
    `the files of one import are at most ${MAX_IMPORT / 1024 / 1024} MiB together`,
  );
export type ImportFile = z.infer<typeof importFilesSchema>[number];

export interface ImportOutcome {
  /** One entry per result saved: the files it came from (several for merged shards). */
  imported: { files: string[]; summary: HistorySummary }[];
  /** Files that were not imported, and why (the file and its first bad fields named). */
  problems: { file: string; message: string }[];
}

/**
 * The History record a saved result becomes, named as savedResultName names it: a CLI run
 * without --name by the file it came from (`file`: one file's name) or its targets.
 */
export function importedDraft<K extends SavedKind>(
  saved: SavedResultOf<K>,
  appVersion: string,
  file?: string,
): HistoryRecordDraft {
  return recordKind(saved.kind).fromSaved(saved, appVersion, file);
}

/**
 * When an imported result ran: its earliest result's start, so it takes its place in History's
 * timeline (and counts as before or after a baseline) by when it ran, not when it was imported.
 * Null when no result says (an empty comparison).
 */
export function importedAt(draft: HistoryRecordDraft): Date | null {
  const starts = resultsOf(draft)
    .map((r) => Date.parse(r.startedAt))
    .filter((t) => !Number.isNaN(t));
  return starts.length > 0 ? new Date(Math.min(...starts)) : null;
}
