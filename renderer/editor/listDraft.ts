import { LIMITS } from '../../shared/model/defaults.ts';
import { originOf } from '../../shared/model/request-list.ts';
import type { ListRequest, ListRequestInput, RequestOrder, Target } from '../../shared/model/scenario.ts';
import { parseTargets, type TargetsFormat } from '../../shared/targets-file/formats.ts';
import { problemText } from '../../shared/targets-file/problem.ts';
import { targetsText } from '../../shared/targets-file/write.ts';
import type { FieldIssue } from '../../shared/model/validation.ts';

/*
 * A target's list of requests as a card holds it: the text pasted or imported (read by the
 * same parsers as the CLI's --targets, shared/targets-file/), the format chosen or detected,
 * the order and its seed as typed. A saved list no text holds the same (one with bodies) is
 * kept as it came.
 */

export type ListFormatChoice = 'auto' | TargetsFormat;
export type ListOrderKind = RequestOrder['kind'];

export interface ListDraft {
  /** The list as written; null: a saved list kept as it came (`saved`). */
  text: string | null;
  saved: readonly ListRequest[];
  format: ListFormatChoice;
  /** The imported file's name; null when pasted or opened. */
  file: string | null;
  order: ListOrderKind;
  /** A random order's seed as typed. */
  seed: string;
}

/** A seed for a new random order, as http_load draws one; shown, so a run can be repeated. */
export function newSeed(): string {
  return String(Math.floor(Math.random() * LIMITS.seed.max));
}

export function newListDraft(text = '', file: string | null = null): ListDraft {
  return { text, saved: [], format: 'auto', file, order: 'round-robin', seed: '' };
}

/** A saved target's list as the card shows it: as text when a text holds it, else as saved. */
export function listDraftOf(t: Pick<Target, 'requests' | 'order'>): ListDraft | undefined {
  if (!t.requests) return undefined;
  const written = targetsText(t.requests);
  return {
    text: written?.text ?? null,
    saved: written ? [] : t.requests,
    format: written?.format ?? 'auto',
    file: null,
    order: t.order?.kind ?? 'round-robin',
    seed: t.order?.kind === 'random' ? String(t.order.seed) : '',
  };
}

export type ListParse =
  | { ok: true; format: TargetsFormat | null; requests: readonly ListRequestInput[] }
  | { ok: false; format: TargetsFormat; message: string };

// The check runs at every keystroke of any field: a long list is parsed once per text.
let last: { text: string; format: ListFormatChoice; parse: ListParse } | null = null;

/**
 * The list's requests, or why its text is not a list, naming the line. A vegeta body file
 * (`@path`) is refused here: pasted text has no folder to read a relative path from, and a
 * page of the web host reads no file of the host's; vegeta's JSON lines carry a body inline.
 */
export function parseList(list: ListDraft): ListParse {
  if (list.text === null) return { ok: true, format: null, requests: list.saved };
  if (last && last.text === list.text && last.format === list.format) return last.parse;
  const parsed = parseTargets(list.text, list.format === 'auto' ? null : list.format);
  let parse: ListParse;
  if (!parsed.ok) {
    parse = { ok: false, format: parsed.format, message: problemText(parsed.problem) };
  } else {
    const fileAt = parsed.requests.findIndex((r) => r.body?.kind === 'file');
    parse =
      fileAt < 0
        ? { ok: true, format: parsed.format, requests: parsed.requests }
        : {
            ok: false,
            format: parsed.format,
            message: `request ${fileAt + 1}: a body file (@path) is read by trebuchet run --targets FILE, next to the file; in the app put the body inline (vegeta's JSON lines, "body" in base64)`,
          };
  }
  last = { text: list.text, format: list.format, parse };
  return parse;
}

/** The order as the schema's input: a random one with its seed as typed (the schema names a bad one). */
function orderInput(list: ListDraft): unknown {
  if (list.order === 'round-robin') return undefined;
  const t = list.seed.trim();
  return { kind: 'random', seed: t !== '' && Number.isFinite(Number(t)) ? Number(t) : t };
}

/**
 * A target's list fields for the schema, and its URL: the list's first origin (the CLI's
 * rule), so the card asks for no URL beside the list. A text that is no list gives none:
 * checkDraft reports it at the list's field (listIssue).
 */
export function listInput(list: ListDraft): { url: string | null; requests?: unknown; order?: unknown } {
  const parsed = parseList(list);
  if (!parsed.ok) return { url: null };
  const first = parsed.requests[0]?.url;
  const origin = first === undefined ? null : originOf(first);
  const order = orderInput(list);
  return {
    url: origin === null ? null : new URL('/', first).href,
    requests: parsed.requests,
    ...(order === undefined ? {} : { order }),
  };
}

/** The lists whose text is no list, as issues at their field (the schema saw no list there). */
export function listParseIssues(targets: readonly { list?: ListDraft }[]): FieldIssue[] {
  return targets.flatMap((t, i) => {
    const parsed = t.list ? parseList(t.list) : null;
    return parsed && !parsed.ok ? [{ path: `targets.${i}.requests`, message: parsed.message }] : [];
  });
}

/** A request's own issue (targets.i.requests.j.url) at the one list field (targets.i.requests), naming the request. */
export function withListIssues(issues: ReadonlyMap<string, string>): Map<string, string> {
  const out = new Map<string, string>();
  for (const [path, message] of issues) {
    const m = /^(targets\.\d+\.requests)\.(\d+)(\..*)?$/.exec(path);
    const at = m ? m[1]! : path;
    if (!out.has(at)) out.set(at, m ? `request ${Number(m[2]) + 1}: ${message}` : message);
  }
  return out;
}

/** What the card shows of a parsed list: how many requests, how many distinct URLs, the first few. */
export function listSummary(requests: readonly ListRequestInput[], shown = 3) {
  return {
    count: requests.length,
    distinctUrls: new Set(requests.map((r) => r.url)).size,
    first: requests.slice(0, shown).map((r) => `${r.method ?? 'GET'} ${r.url}`),
  };
}

/** A row (a target card, a server of Compare or Capacity) with its list set, or without one. */
export function withList<T extends { list?: ListDraft }>(row: T, list: ListDraft | undefined): T {
  if (list) return { ...row, list };
  const { list: _dropped, ...rest } = row;
  return rest as T;
}
