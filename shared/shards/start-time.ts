/**
 * A plan's common start as people write it and Kubernetes annotations hold it: RFC 3339 (a
 * date, a time with seconds, an optional fraction, and Z or an offset). Pure.
 */

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/** The time as epoch ms; null when the text is not an RFC 3339 time. */
export function rfc3339Ms(text: string): number | null {
  const t = text.trim();
  if (!RFC3339.test(t)) return null;
  const at = Date.parse(t.replace(' ', 'T'));
  return Number.isNaN(at) ? null : at;
}
