import { useCallback } from 'react';
import type { TrebuchetApi } from '../../shared/contract/api.ts';
import { pairedLine } from '../../shared/format/diff-text.ts';
import { Alert } from '../components/Alert.tsx';
import { useQuery } from '../components/useQuery.ts';
import { FigureDiffTable } from './FigureDiffTable.tsx';

/**
 * A saved run against the baseline of its subject: per part and figure, this run's value, the
 * baseline's, the change and whether it is beyond noise, computed by the host with
 * `trebuchet diff`'s computation (history.diff).
 */
export function VsBaseline({
  api,
  baseId,
  id,
  onOpenDiff,
}: {
  api: TrebuchetApi;
  baseId: string;
  id: string;
  onOpenDiff: () => void;
}) {
  const load = useCallback(() => api.history.diff({ base: baseId, next: id }), [api, baseId, id]);
  const diff = useQuery(load);
  return (
    <section className="card diff vs-baseline" data-testid="vs-baseline">
      <div className="table-card__head">
        <h2 className="table-card__title">vs baseline</h2>
        <button
          type="button"
          className="btn btn--secondary btn--sm"
          data-testid="vs-baseline-open"
          onClick={onOpenDiff}
        >
          Open the diff with charts
        </button>
      </div>
      <Alert tone="error">{diff.error}</Alert>
      {diff.data?.paired && <p className="muted small">{pairedLine(diff.data.paired)}</p>}
      {diff.data?.parts.map((part) => (
        <FigureDiffTable
          key={part.label}
          part={part}
          heads={{ next: 'This run', base: 'Baseline' }}
          testId="vs-baseline"
        />
      ))}
      {diff.data && diff.data.onlyNext.length > 0 && (
        <p className="muted small">Not in the baseline: {diff.data.onlyNext.join(', ')}</p>
      )}
    </section>
  );
}
