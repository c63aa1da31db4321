import { originGroups } from '../model/request-list.ts';
import type { RunResult } from '../model/result.ts';
import { targetLabel } from '../model/scenario.ts';

/** Names one line shows at most; the rest are counted ("+ 2 more"). */
export const NAMED_AT_MOST = 3;

/** "a, b, c", or "a, b, c + 2 more" past NAMED_AT_MOST. */
export function namedList(names: readonly string[]): string {
  const shown = names.slice(0, NAMED_AT_MOST).join(', ');
  return names.length > NAMED_AT_MOST ? `${shown} + ${names.length - NAMED_AT_MOST} more` : shown;
}

/** The origins of a target's list, in order of first appearance, when they are more than one; else null. */
export function listOrigins(target: RunResult['target']): URL[] | null {
  if (target.requests === undefined) return null;
  const { origins } = originGroups(target.requests.map((q) => q.url));
  return origins.length > 1 ? origins.map((o) => new URL(o)) : null;
}

/** What a report heading calls a target: its name, its URL's host and path, or every origin of a list over several. */
export function reportTargetLabel(target: RunResult['target']): string {
  const origins = target.name.trim() ? null : listOrigins(target);
  return origins === null ? targetLabel(target) : namedList(origins.map((u) => u.host));
}

/** An origin of a list as the reports name it: "http://a.test:80: 4 connections opened (to 127.0.0.1:8080)". */
export function originText(o: {
  origin: string;
  connectedTo?: string | undefined;
  connections: number;
}): string {
  const to = o.connectedTo === undefined ? '' : ` (to ${o.connectedTo})`;
  return `${o.origin}: ${o.connections} connection${o.connections === 1 ? '' : 's'} opened${to}`;
}

/** A result with the name it goes by in a report or file (e.g. "nginx · https · c=100"). */
export interface LabelledResult {
  label: string;
  result: RunResult;
}

/**
 * A run's results with the names every export gives them: the target's label, and when a
 * label repeats, each of its results numbered ("x #1", "x #2") so columns and sections stay distinct.
 */
export function labelResults(results: readonly RunResult[]): LabelledResult[] {
  const counts = new Map<string, number>();
  for (const r of results) counts.set(targetLabel(r.target), (counts.get(targetLabel(r.target)) ?? 0) + 1);
  const seen = new Map<string, number>();
  return results.map((result) => {
    const name = targetLabel(result.target);
    const n = (seen.get(name) ?? 0) + 1;
    seen.set(name, n);
    return { label: (counts.get(name) ?? 0) > 1 ? `${name} #${n}` : name, result };
  });
}

/** The longest URL a message shows whole; seed 003's carries a 1 KB query string. */
export const URL_SHOWN_CHARS = 100;

/** A URL as a message names it: whole, or its first URL_SHOWN_CHARS characters and "…". */
export function shownUrl(url: string): string {
  return url.length > URL_SHOWN_CHARS ? `${url.slice(0, URL_SHOWN_CHARS - 1)}…` : url;
}
