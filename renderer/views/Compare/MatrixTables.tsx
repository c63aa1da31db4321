import { useEffect, useRef } from 'react';
import type { CellOutcome } from '../../../shared/comparison/cells.ts';
import type { ComparisonTable } from '../../../shared/comparison/table.ts';
import { cellLabel, levelLabel, type ComparisonPlan } from '../../../shared/comparison/plan.ts';
import { columnAffected, columnText } from '../../../shared/comparison/columns.ts';
import { cellsWithCaveats, type MatrixCell, type MatrixColumn } from '../../../shared/comparison/matrix.ts';
import { REPETITION_COLUMNS, type RepetitionRow } from '../../../shared/comparison/repetitions.ts';
import type { MatrixColumnId } from '../../../shared/comparison/report-settings.ts';
import { verdictSummary, verdictTone, verdictWord } from '../../../shared/verdict/verdict.ts';
import { columnChoices, firstRunOf, toggleColumn } from './matrixView.ts';
import './matrix.css';
import { TableScroll } from '../../components/TableScroll.tsx';

/*
 * The comparison report's tables of cells: the matrix with its column picker and caveats,
 * and one row per repetition. Each cell's name opens its run's full report.
 */

/** Which of the registry's columns the matrix shows: a menu of checkboxes. */
export function ColumnPicker({
  columns,
  onChange,
}: {
  columns: readonly MatrixColumnId[];
  onChange: (columns: MatrixColumnId[]) => void;
}) {
  return (
    <details className="column-picker" data-testid="column-picker">
      <summary className="btn btn--secondary btn--sm" data-testid="column-picker-toggle">
        Columns ({columns.length})
      </summary>
      <fieldset className="column-picker__menu">
        <legend className="sr-only">Matrix columns</legend>
        {columnChoices(columns).map((c) => (
          <label key={c.id} className="column-picker__item" title={c.description}>
            <input
              type="checkbox"
              checked={c.on}
              data-testid={`column-${c.id}`}
              // The matrix needs one column at least besides the cell's name.
              disabled={c.on && columns.length === 1}
              onChange={(e) => onChange(toggleColumn(columns, c.id, e.target.checked))}
            />
            <span>{c.label}</span>
            <span className="muted small">{c.description}</span>
          </label>
        ))}
      </fieldset>
    </details>
  );
}

/** The button that opens a cell's (or a repetition's) run, or its plain name before it ran. */
function OpenRun({
  cellIndex,
  label,
  title,
  onOpenRun,
  focus,
}: {
  cellIndex: number | null;
  label: string;
  title: string;
  onOpenRun: (cellIndex: number) => void;
  focus?: boolean;
}) {
  const ref = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (focus) ref.current?.focus();
  }, [focus]);
  if (cellIndex === null) return <>{label}</>;
  return (
    <button
      ref={ref}
      type="button"
      className="link-btn cell-open"
      title={`Open the full report of ${title}`}
      data-testid="open-run"
      data-cell-index={cellIndex}
      onClick={() => onOpenRun(cellIndex)}
    >
      {label}
    </button>
  );
}

export function MatrixTable({
  plan,
  cells,
  table,
  columns,
  onOpenRun,
  returnFocus,
}: {
  plan: ComparisonPlan;
  cells: readonly MatrixCell[];
  table: ComparisonTable;
  columns: readonly MatrixColumn[];
  onOpenRun: (cellIndex: number) => void;
  returnFocus: number | null;
}) {
  const several = table.protocols.length > 1;
  return (
    <TableScroll>
      <table className="table table--matrix" data-testid="comparison-table">
        <thead>
          <tr>
            <th scope="col">Target</th>
            {several && <th scope="col">Protocol</th>}
            <th scope="col">{table.levelKind === 'connections' ? 'Connections' : 'Rate'}</th>
            {columns.map((c) => (
              <th
                scope="col"
                className={c.unit === '' ? undefined : 'num'}
                key={c.id}
                title={c.description}
                data-column={c.id}
              >
                {c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {cells.map((cell) => {
            const first = firstRunOf(cell);
            const tone = cell.results.length === 0 ? 'none' : verdictTone(cell.verdict);
            return (
              <tr
                key={cell.key}
                data-testid="comparison-cell"
                data-target={cell.target}
                data-level={cell.level}
                data-protocol={cell.protocol}
                data-runs={cell.runs}
                data-rps={cell.figures.rps?.mean ?? ''}
                data-failed={cell.failedRequests}
                data-verdict={cell.results.length === 0 ? '' : cell.verdict.state}
                className={tone === 'bad' ? 'has-caveat' : undefined}
              >
                <th scope="row">
                  {tone === 'bad' && (
                    <span className="caveat-mark" aria-label="caveat" title={cell.verdict.headline}>
                      !
                    </span>
                  )}
                  <OpenRun
                    cellIndex={first}
                    label={cell.target}
                    title={cellLabel(plan, cell)}
                    onOpenRun={onOpenRun}
                    focus={first !== null && cell.outcomes.some((o) => o.cellIndex === returnFocus)}
                  />
                </th>
                {several && <td>{cell.protocol}</td>}
                <td>{levelLabel(table.levelKind, cell.level)}</td>
                {columns.map((c) =>
                  c.id === 'verdict' ? (
                    <td key={c.id} data-testid="cell-verdict">
                      {cell.results.length === 0 ? (
                        '–'
                      ) : (
                        <span
                          className={`verdict-badge verdict-badge--${tone}`}
                          title={cell.verdict.headline}
                        >
                          {verdictSummary(cell.verdict)}
                        </span>
                      )}
                    </td>
                  ) : (
                    <td
                      key={c.id}
                      className={`${c.unit === '' ? '' : 'num'}${columnAffected(c, cell) ? ' is-caveat' : ''}`}
                      data-testid={`cell-${c.id}`}
                      title={columnAffected(c, cell) ? cell.verdict.headline : undefined}
                    >
                      {columnText(c, cell)}
                    </td>
                  ),
                )}
              </tr>
            );
          })}
        </tbody>
      </table>
    </TableScroll>
  );
}

/** Every cell with a caveat, in words under the matrix (not only in a tooltip). */
export function CaveatList({
  plan,
  cells,
  onOpenRun,
}: {
  plan: ComparisonPlan;
  cells: readonly MatrixCell[];
  onOpenRun: (cellIndex: number) => void;
}) {
  const said = cellsWithCaveats(cells);
  if (said.length === 0) return null;
  return (
    <ul className="caveat-list" data-testid="matrix-caveats">
      {said.map((cell) => (
        <li
          key={cell.key}
          className={`caveat caveat--${verdictTone(cell.verdict)}`}
          data-testid="matrix-caveat"
          data-key={cell.key}
          data-verdict={cell.verdict.state}
        >
          <span className="caveat__where">
            <OpenRun
              cellIndex={firstRunOf(cell)}
              label={cellLabel(plan, cell)}
              title={cellLabel(plan, cell)}
              onOpenRun={onOpenRun}
            />
            <span
              className={`verdict-badge verdict-badge--${verdictTone(cell.verdict)}`}
              data-testid="caveat-word"
            >
              {verdictWord(cell.verdict)}
            </span>
          </span>
          <span className="caveat__what">{cell.verdict.caveats.map((c) => c.message).join(' ')}</span>
        </li>
      ))}
    </ul>
  );
}

/** Seed 002's Résumé: each repetition's time taken, req/s and time per request, a row per run. */
export function RepetitionTable({
  rows,
  outcomes,
  several,
  onOpenRun,
}: {
  rows: readonly RepetitionRow[];
  outcomes: readonly CellOutcome[];
  several: boolean;
  onOpenRun: (cellIndex: number) => void;
}) {
  const cellIndexOf = new Map(outcomes.map((o) => [o.result.runId, o.cellIndex]));
  return (
    <div className="card table-card">
      <div className="table-card__head">
        <h2 className="table-card__title">Each repetition</h2>
        <span className="muted small">one row per run, as ab prints it each time</span>
      </div>
      <TableScroll>
        <table className="table table--matrix" data-testid="repetition-table">
          <thead>
            <tr>
              <th scope="col">Target</th>
              {several && <th scope="col">Protocol</th>}
              <th scope="col">Level</th>
              <th scope="col" className="num">
                run
              </th>
              {REPETITION_COLUMNS.map((c) => (
                <th scope="col" className={c.unit === '' ? undefined : 'num'} key={c.id}>
                  {c.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr
                key={r.key}
                data-testid="repetition-row"
                data-target={r.target}
                data-level={r.level}
                data-repetition={r.repetition}
                data-verdict={r.verdict.state}
              >
                <th scope="row">
                  <OpenRun
                    cellIndex={cellIndexOf.get(r.result.runId) ?? null}
                    label={r.target}
                    title={`${r.target} · ${r.levelText} · #${r.repetition}`}
                    onOpenRun={onOpenRun}
                  />
                </th>
                {several && <td>{r.protocol}</td>}
                <td>{r.levelText}</td>
                <td className="num">{r.repetition}</td>
                {REPETITION_COLUMNS.map((c) => (
                  <td key={c.id} className={c.unit === '' ? undefined : 'num'} data-testid={`rep-${c.id}`}>
                    {c.format(c.value(r))}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
    </div>
  );
}
