/**
 * A saved result read from a file's JSON (a file's text, or its value read a chunk at a time,
 * json/file.ts): told apart by shared/records/result-file.ts (kind, strict schema, format
 * version, migration, its arithmetic), its histograms against its counts (result-histograms.ts).
 * The one reading `trebuchet report` and `trebuchet diff` (electron/cli/results/result-files.ts) and
 * History's import (history-import.ts) share, so a file reads the same everywhere.
 */
import { describeIssues } from '../../shared/model/validation.ts';
import type { SavedResult } from '../../shared/records/kinds.ts';
import { placedResults, readSavedResult } from '../../shared/records/result-file.ts';
import { parseJsonText } from './files.ts';
import { histogramIssues } from './result-histograms.ts';

/** Issues past this many are counted, not listed: a file of another kind fails at every field. */
const SHOWN_ISSUES = 5;

export type ReadResult = { ok: true; value: SavedResult } | { ok: false; message: string };

/** The saved result a file's JSON value holds, or why it holds none (its first bad fields named). */
export function savedResultFromJson(json: unknown): ReadResult {
  const saved = readSavedResult(json);
  const issues = saved.ok
    ? placedResults(saved.value, json).flatMap(({ result, at }) => histogramIssues(result, at))
    : saved.issues;
  if (saved.ok && issues.length === 0) return saved;
  const more = issues.length - SHOWN_ISSUES;
  const listed = describeIssues(issues.slice(0, SHOWN_ISSUES));
  return {
    ok: false,
    message: `not a result Trebuchet reads: ${listed}${more > 0 ? `; and ${more} more` : ''}`,
  };
}

/** The saved result a file's text holds, or why it holds none. */
export function savedResultFromText(text: string): ReadResult {
  const json = parseJsonText(text, null);
  return json.ok ? savedResultFromJson(json.value) : json;
}
