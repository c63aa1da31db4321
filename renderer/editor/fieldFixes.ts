import { DURATION_EXAMPLES, parseDuration, type DurationUnit } from '../../shared/model/duration.ts';
import { httpUrlMeant } from '../../shared/model/http-url.ts';

/*
 * What a field says better than the schema about what a person typed, and the corrections
 * it offers beside its message: a duration's accepted forms, the URL they meant without its
 * scheme, a whole header line typed into the name. Pure.
 */

/** "localhost:8181" in a URL field: "Use http://localhost:8181". */
export function urlFix(text: string): { label: string; value: string } | null {
  const meant = httpUrlMeant(text);
  return meant === null ? null : { label: `Use ${meant}`, value: meant };
}

/** "X-Test: 1" typed as a header's name: the name and the value it holds, split at the first colon. */
export function splitHeaderLine(name: string): { name: string; value: string } | null {
  const colon = name.indexOf(':');
  // ":authority" and friends start with one: HTTP/2 pseudo-headers are no header a person sends.
  if (colon <= 0) return null;
  const head = name.slice(0, colon).trim();
  return head === '' ? null : { name: head, value: name.slice(colon + 1).trim() };
}

/** "abc" in a duration field: what it takes instead, said at the field (the schema would say "a number"). */
export function durationProblem(text: string, unit: DurationUnit): string | null {
  const t = text.trim();
  if (t === '' || parseDuration(t, unit) !== null) return null;
  return `"${t}" is not a duration: type ${DURATION_EXAMPLES[unit]}`;
}
