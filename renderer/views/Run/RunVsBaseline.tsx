import { useCallback } from 'react';
import type { TrebuchetApi } from '../../../shared/contract/api.ts';
import { baselineOf } from '../../../shared/records/baselines.ts';
import { useQuery } from '../../components/useQuery.ts';
import { VsBaseline } from '../../report/VsBaseline.tsx';

/**
 * The run just finished against the baseline of its scenario, on the Run tab as soon as History
 * has saved it: the same table History shows when the run is opened there (the host's
 * `trebuchet diff` computation). Nothing when its scenario has no baseline saved before it.
 */
export function RunVsBaseline({
  api,
  historyId,
  onOpenDiff,
}: {
  api: TrebuchetApi;
  /** The run's History entry; null until it is saved (at its end). */
  historyId: string | null;
  onOpenDiff: (id: string, baseId: string) => void;
}) {
  const load = useCallback(
    () => (historyId === null ? Promise.resolve(null) : api.history.list()),
    [api, historyId],
  );
  const list = useQuery(load);
  const summary = list.data?.runs.find((r) => r.id === historyId);
  if (!list.data || !summary || historyId === null) return null;
  const baseId = baselineOf(summary, list.data.baselines, list.data.runs);
  if (baseId === null) return null;
  return (
    <VsBaseline
      key={`${baseId}|${historyId}`}
      api={api}
      baseId={baseId}
      id={historyId}
      onOpenDiff={() => onOpenDiff(historyId, baseId)}
    />
  );
}
