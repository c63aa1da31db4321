/**
 * A saved result brought into History (a file dropped or picked in the History tab): the
 * record it becomes, and when it ran. A run's file holds its results only, so its scenario is
 * made again from them (each result carries its scenario's name, target, load and options).
 * Pure: the host's import (electron/stores/history-import.ts) saves what this makes.
 */
import { z } from 'zod';
import { LIMITS } from '../model/defaults.ts';
import type { RunResult, RunStatus } from '../model/result.ts';
import { SCENARIO_VERSION } from '../model/scenario.ts';
import { resultsOf, type HistorySummary, type RunRecordDraft } from './history.ts';
import { savedResultName, type SavedResult } from './result-file.ts';

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

type Draft = RunRecordDraft & { appVersion: string };

/** A run's status from its results': cancelled when one was stopped, failed when every one failed. */
function statusOf(results: readonly RunResult[]): RunStatus {
  if (results.some((r) => r.status === 'cancelled')) return 'cancelled';
  return results.length > 0 && results.every((r) => r.status === 'failed') ? 'failed' : 'completed';
}

/**
 * The History record a saved result becomes, named as savedResultName names it: a CLI run
 * without --name by the file it came from (`file`: one file's name) or its targets.
 */
export function importedDraft(saved: SavedResult, appVersion: string, file?: string): Draft {
  switch (saved.kind) {
    case 'run': {
      const first = saved.results[0]!;
      return {
        kind: 'scenario',
        name: savedResultName(saved, file),
        status: statusOf(saved.results),
        appVersion,
        scenario: {
          version: SCENARIO_VERSION,
          name: first.scenarioName,
          targets: saved.results.map((r) => r.target),
          load: first.load,
          options: first.options,
        },
        results: saved.results,
      };
    }
    case 'comparison': {
      const { plan, status, outcomes } = saved.comparison;
      return {
        kind: 'comparison',
        status: status ?? statusOf(outcomes.map((o) => o.result)),
        appVersion,
        plan,
        outcomes: [...outcomes],
      };
    }
    case 'capacity': {
      const { plan, status, steps } = saved.capacity;
      return {
        kind: 'capacity',
        status: status ?? statusOf(steps.map((s) => s.result)),
        appVersion,
        plan,
        steps: [...steps],
      };
    }
  }
}

/**
 * When an imported result ran: its earliest result's start, so it takes its place in History's
 * timeline (and counts as before or after a baseline) by when it ran, not when it was imported.
 * Null when no result says (an empty comparison).
 */
export function importedAt(draft: Pick<Draft, 'kind'> & Parameters<typeof resultsOf>[0]): Date | null {
  const starts = resultsOf(draft)
    .map((r) => Date.parse(r.startedAt))
    .filter((t) => !Number.isNaN(t));
  return starts.length > 0 ? new Date(Math.min(...starts)) : null;
}
