import type { HistorySummary } from '../../../shared/records/history.ts';

/**
 * Two ticked History entries as a diff's A and B: the one saved first is A, the later B, so
 * Δ reads as `trebuchet diff OLD NEW` and "vs baseline" read the same pair, whichever was
 * ticked first. Entries saved at the same moment stay in the order ticked.
 */
export function byTime(
  ids: readonly [string, string],
  runs: readonly Pick<HistorySummary, 'id' | 'createdAt'>[],
): [string, string] {
  const at = (id: string): string => runs.find((r) => r.id === id)?.createdAt ?? '';
  const [a, b] = ids;
  return at(b) < at(a) ? [b, a] : [a, b];
}
