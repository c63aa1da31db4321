/**
 * A saved result's bulk (each run's samples and server readings: 99 % of a day-long run's file)
 * set apart while its schema reads the rest, then checked one item at a time and put back as
 * read. A schema's parse copies what it reads; copied whole, a 60 MB file's tree was held twice
 * at once (three times with the copy that puts fields back in file order). Pure.
 */
import { isRecord, parseWith, type FieldIssue, type Parsed } from '../model/validation.ts';
import { sampleSchema, type RunResult } from '../model/result.ts';
import { resourceSampleSchema } from '../model/server-resources.ts';
import type { z } from 'zod';

/** Issues past this many in one list are not looked for: a list of another kind fails at every item. */
const SHOWN_ISSUES = 5;

/** The results a saved result's JSON holds, in the order its readers list them (placedResults, resultsOf). */
function rawResults(raw: unknown): { result: Record<string, unknown>; at: string }[] {
  const out: { result: Record<string, unknown>; at: string }[] = [];
  const add = (value: unknown, at: string) => {
    if (isRecord(value)) out.push({ result: value, at });
  };
  if (Array.isArray(raw)) raw.forEach((r, i) => add(r, String(i)));
  else if (isRecord(raw)) {
    if (Array.isArray(raw.results)) raw.results.forEach((r, i) => add(r, `results.${i}`));
    else if (Array.isArray(raw.outcomes))
      raw.outcomes.forEach((o, i) => add(isRecord(o) ? o.result : null, `outcomes.${i}.result`));
    else if (Array.isArray(raw.steps))
      raw.steps.forEach((s, i) => add(isRecord(s) ? s.result : null, `steps.${i}.result`));
    else add(raw, '');
  }
  return out;
}

const join = (at: string, field: string): string => (at ? `${at}.${field}` : field);

function itemIssues(items: readonly unknown[], schema: z.ZodType, at: string): FieldIssue[] {
  const issues: FieldIssue[] = [];
  for (let i = 0; i < items.length && issues.length < SHOWN_ISSUES; i++) {
    // The quick check first: a valid item's copy is dropped at once; only a bad one is read for its words.
    if (schema.safeParse(items[i]).success) continue;
    const r = parseWith(schema, items[i]);
    if (!r.ok)
      issues.push(
        ...r.issues.map((x) => ({ path: `${at}.${i}${x.path ? `.${x.path}` : ''}`, message: x.message })),
      );
  }
  return issues;
}

/**
 * Reads a saved result's JSON with `read` (its schemas, migrations) while each result's samples
 * and server readings are set apart, then checks those item by item and gives them back: the
 * value read holds the items as they were in the file (the schemas of both copy nothing they
 * would change). `resultsOf` lists the value's results in the order of the file's. `checkItems`
 * false leaves the items unchecked: a record of results read (checked) or made (typed) here.
 */
export function readWithBulkApart<T>(
  raw: unknown,
  read: (light: unknown) => Parsed<T>,
  resultsOf: (value: T) => RunResult[],
  checkItems = true,
): Parsed<T> {
  const places = rawResults(raw).map((r) => r.at);
  const aside = bulkAside(raw);
  let parsed: Parsed<T>;
  try {
    parsed = read(raw);
  } finally {
    // The JSON read is the caller's: it is left as it was.
    aside.restore();
  }
  if (!parsed.ok) return parsed;
  const issues = (checkItems ? aside.lists : []).flatMap((l, i) => [
    ...(l.samples ? itemIssues(l.samples, sampleSchema, join(places[i]!, 'samples')) : []),
    ...(l.readings
      ? itemIssues(l.readings, resourceSampleSchema, join(places[i]!, 'serverResources.samples'))
      : []),
  ]);
  if (issues.length > 0) return { ok: false, issues };
  resultsOf(parsed.value).forEach((r, i) => {
    const l = aside.lists[i];
    if (l?.samples) r.samples = l.samples as RunResult['samples'];
    if (l?.readings && r.serverResources)
      r.serverResources.samples = l.readings as NonNullable<RunResult['serverResources']>['samples'];
  });
  return parsed;
}

/** One result's bulk, set aside: its samples and server readings (null: it has none). */
export interface BulkLists {
  samples: unknown[] | null;
  readings: unknown[] | null;
}

/**
 * Sets each result's bulk of a saved result's tree aside, `placeholder` in its place; restore()
 * puts it back. Lists come in the order rawResults finds results (the same for two trees of one shape).
 */
export function bulkAside(
  tree: unknown,
  placeholder: (index: number, kind: keyof BulkLists) => unknown = () => [],
) {
  const found = rawResults(tree);
  const lists: BulkLists[] = found.map(({ result }, i) => {
    const samples = Array.isArray(result.samples) ? result.samples : null;
    const resources = isRecord(result.serverResources) ? result.serverResources : null;
    const readings = resources && Array.isArray(resources.samples) ? resources.samples : null;
    if (samples) result.samples = placeholder(i, 'samples');
    if (readings) resources!.samples = placeholder(i, 'readings');
    return { samples, readings };
  });
  return {
    lists,
    restore(): void {
      found.forEach(({ result }, i) => {
        const l = lists[i]!;
        if (l.samples) result.samples = l.samples;
        if (l.readings) (result.serverResources as Record<string, unknown>).samples = l.readings;
      });
    },
  };
}

/** Items stringified per piece: a piece of a list's JSON is about this many items' text. */
const ITEMS_PER_PIECE = 2000;

/**
 * The text JSON.stringify(tree) gives, in pieces of about a megabyte, with each result's bulk
 * taken from `lists` (in rawResults' order of `tree`, whose own bulk is then ignored): a large
 * record is written as it is made, never held as one text. `nonce` keeps the placeholders
 * unlike any text of the tree.
 */
export function* jsonPieces(tree: unknown, lists: readonly BulkLists[], nonce: string): Generator<string> {
  const mark = (i: number, kind: keyof BulkLists) => `\u0000bulk-${nonce}-${kind}-${i}\u0000`;
  const aside = bulkAside(tree, mark);
  let text: string;
  try {
    text = JSON.stringify(tree);
  } finally {
    aside.restore();
  }
  const marks = new RegExp(`"\\\\u0000bulk-${nonce}-(samples|readings)-(\\d+)\\\\u0000"`, 'g');
  let from = 0;
  for (const m of text.matchAll(marks)) {
    yield text.slice(from, m.index);
    from = m.index + m[0].length;
    const items = lists[Number(m[2])]?.[m[1] as keyof BulkLists] ?? [];
    yield '[';
    for (let i = 0; i < items.length; i += ITEMS_PER_PIECE) {
      const piece = JSON.stringify(items.slice(i, i + ITEMS_PER_PIECE));
      yield `${i > 0 ? ',' : ''}${piece.slice(1, -1)}`;
    }
    yield ']';
  }
  yield text.slice(from);
}

/**
 * A copy of a saved result's tree made by `copy` (a JSON copy, secrets unsealed) of all but its
 * bulk, which the copy shares with the tree (no copy changes a sample).
 */
export function copyLight<T>(tree: T, copy: (light: T) => T): T {
  const aside = bulkAside(tree);
  let light: T;
  try {
    light = copy(tree);
  } finally {
    aside.restore();
  }
  const copied = bulkAside(light).lists;
  rawResults(light).forEach(({ result }, i) => {
    const from = aside.lists[i];
    if (from?.samples && copied[i]?.samples) result.samples = from.samples;
    if (from?.readings && copied[i]?.readings)
      (result.serverResources as Record<string, unknown>).samples = from.readings;
  });
  return light;
}
