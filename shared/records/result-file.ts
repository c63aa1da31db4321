/**
 * A saved result of any kind read back: a run's JSON (`--json`: one result, or an array),
 * a comparison's, a capacity search's, or a file of History's folder. The kind is told by
 * the file's shape and then checked strictly against that kind's schema; a file of a newer
 * format is refused naming its version, a history record of an older one is migrated
 * (readHistoryRecord). Pure: `trebuchet report` and `trebuchet diff` read files through this.
 */
import { z } from 'zod';
import { capacityPlanSchema, capacityStepSchema } from '../capacity/plan.ts';
import { cellOutcomeSchema } from '../comparison/cells.ts';
import { comparisonPlanSchema } from '../comparison/plan.ts';
import { preflightFailureSchema } from '../model/preflight.ts';
import { runOfPart } from '../contract/jobs.ts';
import { RESULT_VERSION, runResultSchema, runStatusSchema, type RunResult } from '../model/result.ts';
import { isRecord, newerVersionIssue, parseWith, type FieldIssue, type Parsed } from '../model/validation.ts';
import { HISTORY_RECORD_FORMAT, readHistoryRecord, type HistoryRecordOf } from './history.ts';
import { recordKind, type FileShape, type SavedKind, type SavedResult, type SavedResultOf } from './kinds.ts';
import { resultsArithmeticIssues } from './result-checks.ts';
import { readWithBulkApart } from './bulk.ts';

/** A comparison's JSON file (shared/export/comparison.ts comparisonJson). */
export const comparisonFileSchema = z.strictObject({
  kind: z.literal('comparison'),
  plan: comparisonPlanSchema,
  status: runStatusSchema.nullable(),
  /** The matrix, worked out again from the outcomes when the file is shown (never read). */
  table: z.unknown(),
  outcomes: z.array(cellOutcomeSchema),
  preflightFailures: z.array(preflightFailureSchema),
});

/** A capacity search's JSON file (shared/export/capacity.ts capacityJson). */
export const capacityFileSchema = z.strictObject({
  kind: z.literal('capacity'),
  plan: capacityPlanSchema,
  status: runStatusSchema.nullable(),
  /** Each target's answer, judged again from the steps when the file is shown (never read). */
  answers: z.unknown(),
  steps: z.array(capacityStepSchema),
});

const runListSchema = z.array(runResultSchema).min(1, 'holds no result');

/**
 * A result of a format version this app does not read: newer ones name the version and the
 * Trebuchet that wrote them; older ones (none exists yet: version 1 is the first) are refused.
 */
function resultVersionIssue(raw: unknown, path: string): FieldIssue | null {
  const newer = newerVersionIssue(raw, 'result', RESULT_VERSION, undefined);
  if (newer) return { path: path ? `${path}.version` : 'version', message: newer.message };
  const version = isRecord(raw) ? raw.version : undefined;
  if (typeof version === 'number' && version < RESULT_VERSION) {
    return {
      path: path ? `${path}.version` : 'version',
      message: `this result is format version ${version}, older than any this version of Trebuchet reads (${RESULT_VERSION})`,
    };
  }
  return null;
}

/** The first result inside a file whose format version is not read here, anywhere it holds results. */
function nestedVersionIssue(raw: unknown): FieldIssue | null {
  const lists: [string, unknown, string | null][] = [];
  if (Array.isArray(raw)) lists.push(['', raw, null]);
  else if (isRecord(raw)) {
    lists.push(
      ['results', raw.results, null],
      ['outcomes', raw.outcomes, 'result'],
      ['steps', raw.steps, 'result'],
    );
  }
  for (const [name, list, inner] of lists) {
    if (!Array.isArray(list)) continue;
    for (const [i, item] of list.entries()) {
      const at = [name, String(i), ...(inner ? [inner] : [])].filter((p) => p !== '').join('.');
      const issue = resultVersionIssue(inner && isRecord(item) ? item[inner] : item, at);
      if (issue) return issue;
    }
  }
  return null;
}

/**
 * The parsed value with its objects' fields in the order the file has them (the schema's
 * defaults, if any, after them): the schemas list fields in their own order, and the JSON
 * and HTML files made again must hold the same bytes as the ones first written. History
 * keeps its records in the order they came in too (electron/stores/history-store.ts).
 */
export function inOrderOf<T>(value: T, like: unknown): T {
  // What the schema gave back as it was read (a result's samples, bulk.ts) is in order already.
  if (value === like) return value;
  if (Array.isArray(value)) {
    return value.map((v: unknown, i) => inOrderOf(v, Array.isArray(like) ? like[i] : undefined)) as T;
  }
  if (!isRecord(value) || !isRecord(like)) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(like))
    if (Object.hasOwn(value, key)) out[key] = inOrderOf(value[key], like[key]);
  for (const key of Object.keys(value)) if (!Object.hasOwn(out, key)) out[key] = value[key];
  return out as T;
}

/** The runs a saved result holds, whatever its kind. */
export function resultsOfSaved<K extends SavedKind>(saved: SavedResultOf<K>): RunResult[] {
  return recordKind(saved.kind)
    .savedParts(saved)
    .map((part) => runOfPart(saved.kind, part));
}

/**
 * What a saved result is called: its scenario's or plan's name; a run nobody named (the CLI's
 * without --name) by the file it came from, or else by its targets, not "Untitled scenario".
 */
export function savedResultName<K extends SavedKind>(saved: SavedResultOf<K>, file?: string): string {
  return recordKind(saved.kind).savedName(saved, file);
}

/** What a History record holds, as the saved result its reports and diffs are made of. */
export function savedOfRecord<K extends SavedKind>(record: HistoryRecordOf<K>): SavedResult {
  return recordKind(record.kind).saved(record);
}

/**
 * Each result of a saved result with its place in the file (`raw`, the JSON read), as its
 * fields' paths begin: "0" in a list of runs, "outcomes.2.result" in a comparison.
 */
export function placedResults(saved: SavedResult, raw: unknown): { result: RunResult; at: string }[] {
  const shape: FileShape =
    isRecord(raw) && raw.format === HISTORY_RECORD_FORMAT ? 'record' : Array.isArray(raw) ? 'list' : 'single';
  const spec = recordKind(saved.kind);
  return resultsOfSaved(saved).map((result, i) => ({ result, at: spec.runPath(i, shape) }));
}

/**
 * A saved result from a file's JSON value, of whichever kind it is, its every result's
 * arithmetic checked (result-checks.ts); issues name the fields.
 */
export function readSavedResult(raw: unknown): Parsed<SavedResult> {
  const read = readWithBulkApart(raw, readSavedShape, (saved) =>
    placedResults(saved, raw).map((p) => p.result),
  );
  if (!read.ok) return read;
  const issues = resultsArithmeticIssues(placedResults(read.value, raw));
  return issues.length > 0 ? { ok: false, issues } : read;
}

/** A saved result from a file's JSON value, by its shape and schema alone. */
function readSavedShape(raw: unknown): Parsed<SavedResult> {
  const version = nestedVersionIssue(raw) ?? (Array.isArray(raw) ? null : resultVersionIssue(raw, ''));
  if (isRecord(raw) && raw.format === HISTORY_RECORD_FORMAT) {
    const r = readHistoryRecord(raw);
    // A result of a newer format inside a record of a known one: its version says why.
    if (!r.ok) return version && r.issues[0]?.path !== 'version' ? { ok: false, issues: [version] } : r;
    return { ok: true, value: savedOfRecord(inOrderOf(r.value, raw)) };
  }
  if (version) return { ok: false, issues: [version] };
  if (isRecord(raw) && raw.kind === 'comparison') {
    const r = parseWith(comparisonFileSchema, raw);
    if (!r.ok) return r;
    const { plan, status, outcomes, preflightFailures } = inOrderOf(r.value, raw);
    return {
      ok: true,
      value: { kind: 'comparison', comparison: { plan, status, outcomes, preflightFailures } },
    };
  }
  if (isRecord(raw) && raw.kind === 'capacity') {
    const r = parseWith(capacityFileSchema, raw);
    if (!r.ok) return r;
    const { plan, status, steps } = inOrderOf(r.value, raw);
    return { ok: true, value: { kind: 'capacity', capacity: { plan, status, steps } } };
  }
  if (!Array.isArray(raw) && !isRecord(raw)) {
    return {
      ok: false,
      issues: [
        {
          path: '',
          message: 'is not a saved result (a run, a comparison, a capacity search or a history file)',
        },
      ],
    };
  }
  if (Array.isArray(raw)) {
    const r = parseWith(runListSchema, raw);
    return r.ok ? { ok: true, value: { kind: 'run', results: inOrderOf(r.value, raw) } } : r;
  }
  const r = parseWith(runResultSchema, raw);
  return r.ok ? { ok: true, value: { kind: 'run', results: [inOrderOf(r.value, raw)] } } : r;
}
