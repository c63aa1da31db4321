/**
 * Pointing a preset at the user's servers: `--target name=url` (by the target's name) or
 * URLs given in order replace the preset's URLs (built-in presets hold placeholders). The
 * preset keeps its load and each target its method, headers and body; targets given no
 * URL are left out, so a built-in preset runs against the one or two servers a user has.
 */
import {
  PROTOCOL_VARIANTS,
  comparisonTargetLabel,
  urlFor,
  type ComparisonTarget,
  type ProtocolVariant,
} from '../../../shared/comparison/plan.ts';
import { targetLabel, type Target } from '../../../shared/model/scenario.ts';
import { CliInputError } from '../values.ts';

/** A URL the user gave: for the target of that name, or (name null) for the next target in order. */
export interface TargetPointer {
  name: string | null;
  url: string;
}

/** `name=http://host:port/path`: the name is everything before the `=` that starts the URL. */
export function parseTargetPointer(flag: string, text: string): TargetPointer {
  const m = /^(.*?)=(https?:\/\/.*)$/i.exec(text);
  if (!m || m[1]!.trim() === '') {
    throw new CliInputError(
      flag,
      `"${text}" is not name=url (e.g. --target nginx=http://127.0.0.1:8080/; URLs alone, without --target, replace the targets in order)`,
    );
  }
  return { name: m[1]!.trim(), url: m[2]! };
}

const ORIGIN_ONLY = /^https?:\/\/[^/?#]+$/i;

/**
 * A URL written without a path (http://127.0.0.1:8080) keeps the preset's path and query
 * (seed 003's 1 KB query string, seed 001's image); one with a path is taken as it is.
 */
function withPresetPath(given: string, preset: string | undefined): string {
  if (!ORIGIN_ONLY.test(given) || preset === undefined || !URL.canParse(preset)) return given;
  const p = new URL(preset);
  return `${given}${p.pathname}${p.search}`;
}

const schemeOf = (url: string): 'http' | 'https' => (/^https:/i.test(url) ? 'https' : 'http');

/** Which target each pointer names, by position or by name (case-insensitive). */
function resolveIndexes(
  flag: string,
  pointers: readonly TargetPointer[],
  labels: readonly string[],
): number[] {
  const named = pointers.filter((p) => p.name !== null).length;
  if (named > 0 && named < pointers.length) {
    throw new CliInputError(flag, 'give URLs either in order or as --target name=url, not both');
  }
  if (named === 0 && pointers.length > labels.length) {
    throw new CliInputError(
      '<url>',
      `the preset has ${labels.length} target(s) (${labels.join(', ')}); got ${pointers.length} URLs`,
    );
  }
  return pointers.map((p, i) => {
    if (p.name === null) return i;
    const index = labels.findIndex((l) => l.toLowerCase() === p.name!.toLowerCase());
    if (index < 0) {
      throw new CliInputError(
        flag,
        `the preset has no target named "${p.name}" (its targets: ${labels.join(', ')})`,
      );
    }
    return index;
  });
}

export interface Pointed<T> {
  targets: T[];
  /** What changed beyond the URLs (targets left out, protocols dropped), for stderr. */
  notes: string[];
}

function leftOutNote(labels: readonly string[], kept: ReadonlySet<number>): string[] {
  const out = labels.filter((_, i) => !kept.has(i));
  return out.length === 0 ? [] : [`left out (no URL given): ${out.join(', ')}`];
}

/** A scenario preset's targets pointed at the given URLs; each target takes one URL. */
export function pointScenarioTargets<T extends Target>(
  flag: string,
  targets: readonly T[],
  pointers: readonly TargetPointer[],
): Pointed<T> {
  if (pointers.length === 0) return { targets: [...targets], notes: [] };
  const labels = targets.map(targetLabel);
  const indexes = resolveIndexes(flag, pointers, labels);
  const urls = new Map<number, string>();
  indexes.forEach((index, i) => {
    if (urls.has(index)) throw new CliInputError(flag, `${labels[index]} is given two URLs`);
    urls.set(index, withPresetPath(pointers[i]!.url, targets[index]!.url));
  });
  const kept = [...urls.keys()].sort((a, b) => a - b);
  return {
    targets: kept.map((i) => ({ ...targets[i]!, url: urls.get(i)! })),
    notes: leftOutNote(labels, new Set(kept)),
  };
}

export interface PointedPlan extends Pointed<ComparisonTarget> {
  protocols: ProtocolVariant[];
}

/**
 * A comparison preset's targets pointed at the given URLs: an http:// URL is the target's
 * http URL, an https:// one its https URL (and its h2 URL: one TLS port offering both
 * through ALPN). The plan keeps the protocols every kept target got a URL for; when none
 * is left, those the given URLs cover.
 */
export function pointPlanTargets(
  flag: string,
  targets: readonly ComparisonTarget[],
  protocols: readonly ProtocolVariant[],
  pointers: readonly TargetPointer[],
): PointedPlan {
  if (pointers.length === 0) return { targets: [...targets], protocols: [...protocols], notes: [] };
  const labels = targets.map(comparisonTargetLabel);
  const indexes = resolveIndexes(flag, pointers, labels);
  const given = new Map<number, { http?: string; https?: string }>();
  indexes.forEach((index, i) => {
    const url = pointers[i]!.url;
    const scheme = schemeOf(url);
    const urls = given.get(index) ?? {};
    if (urls[scheme] !== undefined)
      throw new CliInputError(flag, `${labels[index]} is given two ${scheme} URLs`);
    const preset = targets[index]!.urls;
    urls[scheme] = withPresetPath(url, preset[scheme] ?? preset.http ?? preset.https);
    given.set(index, urls);
  });
  const keptIndexes = [...given.keys()].sort((a, b) => a - b);
  const kept = keptIndexes.map((i) => ({ ...targets[i]!, urls: given.get(i)! }));

  const has = (p: ProtocolVariant) => kept.filter((t) => urlFor(t, p) !== null).length;
  const partial = protocols.find((p) => has(p) > 0 && has(p) < kept.length);
  if (partial !== undefined) {
    const missing = kept.filter((t) => urlFor(t, partial) === null).map(comparisonTargetLabel);
    const scheme = partial === 'http' ? 'http' : 'https';
    throw new CliInputError(
      flag,
      `the preset compares ${partial}: give ${missing.join(', ')} an ${scheme}:// URL too, or give no target one`,
    );
  }
  let chosen = protocols.filter((p) => has(p) === kept.length);
  if (chosen.length === 0) chosen = PROTOCOL_VARIANTS.filter((p) => p !== 'h2' && has(p) === kept.length);
  if (chosen.length === 0) {
    throw new CliInputError(
      flag,
      'give every target a URL with the same scheme (all http:// or all https://)',
    );
  }
  const dropped = protocols.filter((p) => !chosen.includes(p));
  const notes = leftOutNote(labels, new Set(keptIndexes));
  if (dropped.length > 0) notes.push(`protocols left out (no URL given for them): ${dropped.join(', ')}`);
  const added = chosen.filter((p) => !protocols.includes(p));
  if (added.length > 0) notes.push(`protocols measured instead: ${added.join(', ')}`);
  return { targets: kept, protocols: chosen, notes };
}
