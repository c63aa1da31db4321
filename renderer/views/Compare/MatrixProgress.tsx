import { comparisonTargetLabel, levelKindOf, levelLabel } from '../../../shared/comparison/plan.ts';
import { Alert } from '../../components/Alert.tsx';
import { cellKey } from '../../../shared/comparison/cells.ts';
import { matrixCells } from '../../../shared/comparison/matrix.ts';
import { aggregateComparison } from '../../../shared/comparison/table.ts';
import { isBusy } from '../../jobs/jobStore.ts';
import { statusBadge } from '../Run/targetStatus.ts';
import { cellsFinished, type CellProgress, type ComparisonRunState } from './comparisonRun.ts';
import { gridFigures } from './matrixView.ts';
import './matrix.css';
import { TableScroll } from '../../components/TableScroll.tsx';

const STATUS_TEXT: Record<CellProgress['status'], string> = {
  pending: 'waiting',
  running: 'running',
  completed: 'done',
  cancelled: 'stopped',
  interrupted: 'interrupted',
  failed: 'failed',
  error: 'could not run',
};

/**
 * The whole matrix at a glance: one row per target (and protocol), one column per level,
 * one square per repetition in each, coloured by its state, with the live req/s and the
 * server's CPU (target.monitor).
 */
export function MatrixProgress({
  state,
  onOpenRun,
}: {
  state: ComparisonRunState;
  /** Opens a finished repetition's full report (by its cellIndex). */
  onOpenRun: (cellIndex: number) => void;
}) {
  const { plan, cells } = state;
  if (!plan) return null;
  const kind = levelKindOf(plan.load);
  const levels = plan.levels;
  const several = plan.protocols.length > 1;
  const finished = cellsFinished(state);
  const total = cells.length;
  const current = state.current === null ? null : cells[state.current];
  const running = isBusy(state.phase);
  const matrix = new Map(
    matrixCells(aggregateComparison(plan, state.outcomes), state.outcomes).map((c) => [c.key, c]),
  );
  const currentText =
    current && plan.targets[current.coordinates.targetIndex]
      ? [
          comparisonTargetLabel(plan.targets[current.coordinates.targetIndex]!),
          ...(several ? [current.coordinates.protocol] : []),
          levelLabel(kind, current.coordinates.level),
          `repetition ${current.coordinates.repetition + 1} of ${plan.repetitions}`,
        ].join(' · ')
      : null;

  return (
    <section
      className="card matrix"
      data-testid="matrix-progress"
      data-finished={finished}
      data-total={total}
    >
      <div className="matrix__head">
        <div>
          <h2 className="matrix__title">
            {running ? (state.pausing ? 'Pausing between cells' : 'Running') : statusTitle(state)}
            <span className="muted">
              {' '}
              · {finished} of {total} runs
            </span>
          </h2>
          {running && currentText && (
            <p className="muted small" data-testid="matrix-current">
              {state.pausing ? `next: ${currentText}` : currentText}
            </p>
          )}
        </div>
      </div>
      <div
        className="progress"
        role="progressbar"
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={finished}
        aria-label="Comparison progress"
      >
        <div className="progress__bar" style={{ width: `${total === 0 ? 0 : (finished / total) * 100}%` }} />
      </div>
      <TableScroll>
        <table className="table matrix__grid">
          <thead>
            <tr>
              <th scope="col">Target</th>
              {levels.map((l) => (
                <th scope="col" key={l}>
                  {levelLabel(kind, l)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {plan.protocols.flatMap((protocol) =>
              plan.targets.map((t, targetIndex) => (
                <tr key={`${protocol}-${targetIndex}`}>
                  <th scope="row">
                    {comparisonTargetLabel(t)}
                    {several && <span className="muted"> · {protocol}</span>}
                  </th>
                  {levels.map((level) => {
                    const reps = cells.filter(
                      (c) =>
                        c.coordinates.targetIndex === targetIndex &&
                        c.coordinates.protocol === protocol &&
                        c.coordinates.level === level,
                    );
                    const shown = gridFigures(
                      matrix.get(cellKey({ targetIndex, protocol, level })),
                      reps.find((c) => c.status === 'running'),
                    );
                    return (
                      <td key={level}>
                        <div className="reps">
                          {reps.map((c) => {
                            const status =
                              state.phase === 'done' && c.status === 'pending' ? 'skipped' : c.status;
                            const title = `repetition ${c.coordinates.repetition + 1}: ${status === 'skipped' ? 'skipped' : STATUS_TEXT[c.status]}`;
                            const index = cells.indexOf(c);
                            const outcome = state.outcomes.find((o) => o.cellIndex === index);
                            // A finished run whose figures are not the server's: the caveat's colour, and why.
                            const badge = outcome ? statusBadge(outcome.result.status, outcome.result) : null;
                            return outcome && badge ? (
                              <button
                                type="button"
                                key={c.coordinates.repetition}
                                className={`rep rep--${badge.look === 'caveat' ? 'caveat' : status}`}
                                title={`repetition ${c.coordinates.repetition + 1}: ${badge.text}: open its report`}
                                aria-label={`Open ${comparisonTargetLabel(t)} · ${protocol} · ${levelLabel(kind, level)} ${title}`}
                                data-testid="open-repetition"
                                data-verdict={badge.look === 'caveat' ? 'caveat' : undefined}
                                onClick={() => onOpenRun(index)}
                              />
                            ) : (
                              <span
                                key={c.coordinates.repetition}
                                className={`rep rep--${status}`}
                                title={title}
                              />
                            );
                          })}
                          <span className="reps__rate" data-testid="matrix-progress-rps">
                            {shown.rps ?? ''}
                          </span>
                          {shown.cpu !== null && (
                            <span
                              className="reps__rate"
                              title="server CPU, % of one core"
                              data-testid="matrix-server-cpu"
                            >
                              {shown.cpu}
                            </span>
                          )}
                        </div>
                      </td>
                    );
                  })}
                </tr>
              )),
            )}
          </tbody>
        </table>
      </TableScroll>
      {state.errors.length > 0 && (
        <Alert tone="error" testId="comparison-errors">
          {state.errors.map((e) => (
            <p key={e}>{e}</p>
          ))}
        </Alert>
      )}
    </section>
  );
}

function statusTitle(state: ComparisonRunState): string {
  switch (state.status) {
    case 'completed':
      return 'Comparison finished';
    case 'cancelled':
      return 'Comparison stopped';
    case 'interrupted':
      return 'Comparison interrupted (the host stopped)';
    case 'failed':
      return 'Comparison failed';
    case null:
      return 'Comparison';
  }
}
