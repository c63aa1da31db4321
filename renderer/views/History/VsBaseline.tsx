import { useCallback } from 'react';
import type { TrebuchetApi } from '../../../shared/contract/api.ts';
import type { FigureDiff } from '../../../shared/diff/compare.ts';
import { DIFF_FIGURE_INFO } from '../../../shared/diff/figures.ts';
import {
  diffDeltaText,
  diffPercentText,
  diffValueText,
  diffVerdictText,
} from '../../../shared/format/diff-text.ts';
import { Alert } from '../../components/Alert.tsx';
import { useQuery } from '../../components/useQuery.ts';

/** Better or worse, for a change beyond noise: its colour. */
function toneOf(f: FigureDiff): string {
  if (f.verdict !== 'beyond-noise' || f.delta === null || f.delta === 0) return '';
  return f.delta > 0 === DIFF_FIGURE_INFO[f.figure].higherIsBetter ? ' good' : ' bad';
}

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
      {diff.data?.parts.map((part) => (
        <div className="table-scroll" key={part.label}>
          <table className="table" data-testid="vs-baseline-table" data-part={part.label}>
            <caption className="muted small">
              {part.label} ·{' '}
              {part.evidence === 'repetitions'
                ? `${part.nextRuns} vs ${part.baseRuns} runs (Welch's t-test)`
                : part.evidence === 'single'
                  ? 'one run each: less evidence (Kolmogorov–Smirnov on the latency histograms, Welch over the windows)'
                  : 'uneven runs: not tested'}
            </caption>
            <thead>
              <tr>
                <th scope="col">Figure</th>
                <th scope="col" className="num">
                  This run
                </th>
                <th scope="col" className="num">
                  Baseline
                </th>
                <th scope="col" className="num">
                  Δ
                </th>
                <th scope="col" className="num">
                  Δ %
                </th>
                <th scope="col">Noise</th>
              </tr>
            </thead>
            <tbody>
              {part.figures.map((f) => {
                const info = DIFF_FIGURE_INFO[f.figure];
                return (
                  <tr
                    key={f.figure}
                    data-testid="vs-baseline-row"
                    data-figure={f.figure}
                    data-verdict={f.verdict}
                  >
                    <th scope="row">
                      {info.label} <span className="muted small">({info.unit})</span>
                    </th>
                    <td className="num">{diffValueText(info, f.next)}</td>
                    <td className="num">{diffValueText(info, f.base)}</td>
                    <td className={`num${toneOf(f)}`} data-testid="vs-baseline-delta">
                      {diffDeltaText(f)}
                    </td>
                    <td className={`num${toneOf(f)}`} data-testid="vs-baseline-percent">
                      {diffPercentText(f)}
                    </td>
                    <td data-testid="vs-baseline-verdict">{diffVerdictText(f)}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      ))}
      {diff.data && diff.data.onlyNext.length > 0 && (
        <p className="muted small">Not in the baseline: {diff.data.onlyNext.join(', ')}</p>
      )}
    </section>
  );
}
