import type { RunResult } from './result.ts';

/*
 * A job the host never finished (killed, crashed, power lost): its journal made it a History
 * entry with status 'interrupted' (electron/jobs/journal/). Every view says when, in the same
 * words, from the same instant. Pure.
 */

/** An instant as every view prints it: ISO 8601 in UTC to the second ("2025-01-02T03:04:05Z"). */
function instant(iso: string): string {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? iso : new Date(Math.floor(t / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/** "interrupted at 2025-01-02T03:04:05Z (the host stopped)": what every view says of it. */
export function interruptionText(at: string): string {
  return `interrupted at ${instant(at)} (the host stopped)`;
}

/**
 * When a set of results was interrupted, as far as they tell: the latest end among them (the
 * interrupted part's end is the journal's last word). Null when none is interrupted.
 */
export function interruptedAt(results: readonly Pick<RunResult, 'status' | 'endedAt'>[]): string | null {
  const ends = results.filter((r) => r.status === 'interrupted').map((r) => Date.parse(r.endedAt));
  const known = ends.filter((t) => !Number.isNaN(t));
  return known.length > 0 ? new Date(Math.max(...known)).toISOString() : null;
}

/** A status as a line says it: "interrupted at … (the host stopped)" for an interrupted one. */
export function jobStatusText(
  status: RunResult['status'],
  results: readonly Pick<RunResult, 'status' | 'endedAt'>[],
): string {
  if (status !== 'interrupted') return status;
  const at = interruptedAt(results);
  return at === null ? 'interrupted (the host stopped)' : interruptionText(at);
}

/**
 * A saved record's status as its views say it (History's list and header, `trebuchet history`):
 * an interrupted one's at its time, which is when its journal last spoke (the record is listed then).
 */
export function recordStatusText(record: { status: RunResult['status']; createdAt: string }): string {
  return record.status === 'interrupted' ? interruptionText(record.createdAt) : record.status;
}
