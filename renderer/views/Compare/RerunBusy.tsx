import { useMemo } from 'react';
import type { CellOutcome } from '../../../shared/comparison/cells.ts';
import { busyCells } from '../../../shared/comparison/rerun.ts';

/**
 * Under a finished comparison some of whose runs were measured on a busy machine (marked in
 * the matrix, "machine busy"): how many, and "Re-run the marked cells", which measures only
 * those again and keeps the rest (a new History entry). Needs the comparison saved in History.
 */
export function RerunBusy({
  outcomes,
  historyId,
  onRerun,
}: {
  outcomes: readonly CellOutcome[];
  historyId: string | null;
  onRerun: (cells: number[]) => void;
}) {
  const cells = useMemo(() => busyCells(outcomes), [outcomes]);
  if (cells.length === 0) return null;
  const runs = `${cells.length} run${cells.length === 1 ? '' : 's'}`;
  return (
    <div className="card rerun-busy" data-testid="rerun-busy" data-cells={cells.join(',')}>
      <p>
        <strong>{runs}</strong> {cells.length === 1 ? 'was' : 'were'} measured while the machine was busy with
        other work (marked <em>machine busy</em>):{' '}
        {cells.length === 1 ? 'its figures are' : 'their figures are'} the machine’s, not the server’s. Close
        what else is running, then run {cells.length === 1 ? 'it' : 'them'} again; the other runs are kept.
      </p>
      <button
        type="button"
        className="btn btn--primary btn--sm"
        data-testid="rerun-busy-cells"
        disabled={historyId === null}
        title={historyId === null ? 'The comparison was not saved in History: run it whole again' : undefined}
        onClick={() => onRerun(cells)}
      >
        Re-run the marked cells
      </button>
    </div>
  );
}
