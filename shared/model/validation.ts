import type { z } from 'zod';

/** One problem with an input value: where it is (dotted path, e.g. "targets.0.url") and what is wrong. */
export interface FieldIssue {
  path: string;
  message: string;
}

/** The names an object schema knows, by the dotted path of each object that had unknown fields. */
type KnownFields = ReadonlyMap<string, readonly string[]>;

/** Unknown fields of one object reported one by one up to here; past it, one issue counts the rest. */
const MAX_UNKNOWN_FIELDS = 20;

/**
 * Edit distance between two names, case aside: insertions, deletions, substitutions and
 * swaps of two neighbours ("laod" is one swap from "load") each cost 1.
 */
export function editDistance(a: string, b: string): number {
  const s = a.toLowerCase();
  const t = b.toLowerCase();
  let before: number[] = [];
  let previous = Array.from({ length: t.length + 1 }, (_, j) => j);
  for (let i = 1; i <= s.length; i++) {
    const row = [i];
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      let d = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1])
        d = Math.min(d, before[j - 2]! + 1);
      row.push(d);
    }
    before = previous;
    previous = row;
  }
  return previous[t.length]!;
}

/**
 * The known name `name` is most likely a typo of: within a third of its length (at least 1)
 * of it, or the start of it ("p99" for "p99Ms"); null when none is.
 */
export function nearestName(name: string, known: readonly string[]): string | null {
  // Names of a few hundred characters are no typo of a field name; comparing them is wasted work.
  if (name.length > 64) return null;
  const lower = name.toLowerCase();
  const prefixOf = name.length >= 3 ? known.find((k) => k.toLowerCase().startsWith(lower)) : undefined;
  if (prefixOf !== undefined) return prefixOf;
  let best: string | null = null;
  let bestDistance = Math.max(1, Math.floor(name.length / 3)) + 1;
  for (const candidate of known) {
    const d = editDistance(name, candidate);
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

/** "unknown field; did you mean `load`?", or the names it could have been. */
export function unknownFieldMessage(name: string, known: readonly string[]): string {
  const near = nearestName(name, known);
  if (near !== null) return `unknown field; did you mean \`${near}\`?`;
  return known.length > 0
    ? `unknown field (the fields here are ${known.map((k) => `\`${k}\``).join(', ')})`
    : 'unknown field (nothing is expected here)';
}

const pathKey = (path: readonly PropertyKey[]): string => path.map(String).join('.');

/** The field names of the object schema that raised an unrecognized_keys issue. */
function shapeKeys(inst: unknown): string[] {
  const shape = (inst as { _zod?: { def?: { shape?: unknown } } } | undefined)?._zod?.def?.shape;
  return isRecord(shape) ? Object.keys(shape) : [];
}

/**
 * The issues of a failed parse, each at its field's dotted path. An unknown field is an issue
 * at its own path ("load.bogusField: unknown field ..."), with the nearest known name when
 * `known` holds the names of its object (parseWith collects them).
 */
export function issuesOf(error: z.ZodError, known: KnownFields = new Map()): FieldIssue[] {
  return error.issues.flatMap((issue): FieldIssue[] => {
    const path = issue.path.map(String);
    if (issue.code !== 'unrecognized_keys') return [{ path: path.join('.'), message: issue.message }];
    const names = known.get(pathKey(issue.path)) ?? [];
    const each = issue.keys.slice(0, MAX_UNKNOWN_FIELDS).map((key) => ({
      path: [...path, key].join('.'),
      message: unknownFieldMessage(key, names),
    }));
    const more = issue.keys.length - each.length;
    return more > 0 ? [...each, { path: path.join('.'), message: `and ${more} more unknown fields` }] : each;
  });
}

/** "targets.0.url: URL is not valid ...; load.connections: must be at most 10000" */
export function describeIssues(issues: readonly FieldIssue[]): string {
  return issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ');
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; issues: FieldIssue[] };

/**
 * Parses without throwing; every boundary (IPC, files, CLI) goes through this. Object schemas
 * are strict: an unknown field is an issue naming it and the nearest known name.
 */
export function parseWith<S extends z.ZodType>(schema: S, input: unknown): Parsed<z.output<S>> {
  const known = new Map<string, readonly string[]>();
  const r = schema.safeParse(input, {
    // Called for every issue without a message of its own, with its full path: the object
    // schema that met unknown fields is at hand only here.
    error: (issue) => {
      if (issue.code === 'unrecognized_keys') known.set(pathKey(issue.path ?? []), shapeKeys(issue.inst));
      return undefined;
    },
  });
  return r.success ? { ok: true, value: r.data } : { ok: false, issues: issuesOf(r.error, known) };
}

/**
 * The one issue to report for a file of a format version newer than this app reads (its
 * unknown fields are that version's, not typos), naming both versions; null otherwise.
 * `what` names the file ("scenario file"), `appVersion` the Trebuchet that wrote it when the
 * file says so.
 */
export function newerVersionIssue(
  input: unknown,
  what: string,
  newest: number,
  appVersion?: unknown,
): FieldIssue | null {
  const version = isRecord(input) ? input.version : undefined;
  if (typeof version !== 'number' || !Number.isInteger(version) || version <= newest) return null;
  const by = typeof appVersion === 'string' ? `Trebuchet ${appVersion}` : 'a newer version of Trebuchet';
  const reads = newest === 1 ? 'format version 1' : `format versions 1 to ${newest}`;
  return {
    path: 'version',
    message: `this ${what} is format version ${version}, written by ${by}; this version of Trebuchet reads ${reads}`,
  };
}

export class ValidationError extends Error {
  readonly issues: FieldIssue[];
  constructor(what: string, issues: FieldIssue[]) {
    super(`${what} is invalid: ${describeIssues(issues)}`);
    this.name = 'ValidationError';
    this.issues = issues;
  }
}

/** Parses or throws a ValidationError naming every bad field. */
export function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown, what: string): z.output<S> {
  const r = parseWith(schema, input);
  if (!r.ok) throw new ValidationError(what, r.issues);
  return r.value;
}

/** A JSON object (not null, not an array). */
export const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
