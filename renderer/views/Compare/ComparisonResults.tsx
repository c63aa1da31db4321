import { useState } from 'react';
import type { CellOutcome } from '../../../shared/comparison/cells.ts';
import { cellLabel, type ComparisonPlan } from '../../../shared/comparison/plan.ts';
import { formatRunReport } from '../../../shared/format/report.ts';
import { LAYOUT_NAMES, planReport } from '../../../shared/comparison/report-settings.ts';
import { runVerdict, verdictTone } from '../../../shared/verdict/verdict.ts';
import { TargetStrip } from '../../components/TargetStrip.tsx';
import { formatRateValue } from '../../../shared/figures/units.ts';
import { RunReport } from '../../report/RunReport.tsx';
import { ComparisonReport } from './ComparisonReport.tsx';
import { openedRun } from './matrixView.ts';
import { useMatrixColumns } from './matrixColumns.ts';
import type { RunStatus } from '../../../shared/model/result.ts';

interface ComparisonResultsProps {
  plan: ComparisonPlan;
  outcomes: readonly CellOutcome[];
  status: RunStatus | null;
  /** The cell run whose report is open (its cellIndex), or null for the matrix. */
  opened: number | null;
  onOpen: (cellIndex: number | null) => void;
}

/** A comparison's report, or one of its cell runs' full report with the way back to the matrix. */
export function ComparisonResults({ plan, outcomes, status, opened, onOpen }: ComparisonResultsProps) {
  // The run just closed, so its cell's button gets the focus back.
  const [closed, setClosed] = useState<number | null>(null);
  // The columns as last picked, kept in the settings: the same after a cell's run, a reload, another comparison.
  const picked = useMatrixColumns();
  const run = opened === null ? null : openedRun(outcomes, opened);
  if (run === null || opened === null) {
    return (
      <ComparisonReport
        plan={plan}
        outcomes={outcomes}
        status={status}
        onOpenRun={onOpen}
        returnFocus={closed}
        shownColumns={picked.columns}
        onColumns={picked.onColumns}
      />
    );
  }
  const { outcome, siblings } = run;
  const { repetition, ...cell } = outcome.coordinates;
  // The run as the tool the plan is named after prints it (vegeta for seed 000, ab for 001).
  const layout = planReport(plan).format;
  const back = () => {
    setClosed(opened);
    onOpen(null);
  };
  return (
    <section className="cell-run" data-testid="cell-run" data-cell-index={opened}>
      <header className="card cell-run__head">
        <button
          type="button"
          className="btn btn--secondary btn--sm"
          data-testid="cell-back"
          // The person came here with a click or a key: they go on from the way back.
          autoFocus
          onClick={back}
        >
          ← Back to the matrix
        </button>
        <div className="cell-run__what">
          <h2 className="cell-run__title" data-testid="cell-run-title">
            {cellLabel(plan, cell)}
          </h2>
          <p className="muted small">
            {plan.name} · repetition {repetition + 1} of {plan.repetitions}
          </p>
        </div>
      </header>
      {siblings.length > 1 && (
        <TargetStrip
          label="Repetitions"
          targets={siblings.map((o) => ({
            label: `Run ${o.coordinates.repetition + 1}`,
            status:
              o.result.status === 'completed' && verdictTone(runVerdict(o.result)) === 'bad'
                ? 'caveat'
                : o.result.status,
            meta: `${formatRateValue(o.result.throughput.requestsPerSecond)} req/s`,
          }))}
          shown={siblings.indexOf(outcome)}
          onPick={(i) => onOpen(siblings[i]?.cellIndex ?? opened)}
          testIds
        />
      )}
      <RunReport
        key={opened}
        results={[outcome.result]}
        name={`${plan.name} ${cellLabel(plan, outcome.coordinates)}`}
      />
      <figure className="card table-card" data-testid="cell-tool-report-card">
        <figcaption className="table-card__title">As {LAYOUT_NAMES[layout]} prints it</figcaption>
        <pre className="text-report" data-testid="cell-tool-report" data-layout={layout} tabIndex={0}>
          {formatRunReport(outcome.result, layout)}
        </pre>
      </figure>
    </section>
  );
}
