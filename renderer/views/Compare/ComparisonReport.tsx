import { useCallback, useMemo, useState } from 'react';
import type { CellOutcome } from '../../../shared/comparison/cells.ts';
import {
  aggregateComparison,
  comparisonPercentileTable,
  type ComparisonTable,
} from '../../../shared/comparison/table.ts';
import { levelLabel, type ComparisonPlan, type ProtocolVariant } from '../../../shared/comparison/plan.ts';
import { matrixColumns } from '../../../shared/comparison/columns.ts';
import { matrixCells } from '../../../shared/comparison/matrix.ts';
import {
  columnHasData,
  columnMarks,
  columnSeries,
  markedCells,
  marksNote,
} from '../../../shared/comparison/column-series.ts';
import { repetitionRows } from '../../../shared/comparison/repetitions.ts';
import { comparisonExport } from '../../../shared/export/comparison.ts';
import { withoutSecrets } from '../../../shared/model/secret-headers.ts';
import { LAYOUT_NAMES, planReport, type MatrixColumnId } from '../../../shared/comparison/report-settings.ts';
import type { Palette } from '../../charts/palette.ts';
import { formatMsValue } from '../../../shared/figures/units.ts';
import { ChartCard } from '../../components/ChartCard.tsx';
import type { RunStatus } from '../../../shared/model/result.ts';
import { aboutComparison, levelsTag } from '../../charts/chartSubject.ts';
import { ExportBar } from '../../export/ExportBar.tsx';
import { cpuPer10kBarChart, percentileCurvesChart, rpsBarChart, scalingChart } from './chartData.ts';
import { CaveatList, ColumnPicker, MatrixTable, RepetitionTable } from './MatrixTables.tsx';
import { shownAt, type At } from './percentileAt.ts';
import { TableScroll } from '../../components/TableScroll.tsx';

interface ComparisonReportProps {
  plan: ComparisonPlan;
  outcomes: readonly CellOutcome[];
  status: RunStatus | null;
  /** Opens one cell run's full report (by its cellIndex). */
  onOpenRun: (cellIndex: number) => void;
  /** The run whose report was just closed: its cell's open button gets the focus back. */
  returnFocus?: number | null;
  /**
   * The matrix columns picked, held by the caller so they outlive this report while a cell's
   * run is open; null: the plan's.
   */
  shownColumns: MatrixColumnId[] | null;
  onColumns: (columns: MatrixColumnId[]) => void;
}

/**
 * A comparison side by side: the matrix (columns to pick, caveats marked, every cell opening
 * its run), the per-repetition table, the charts, the seed-001 percentile table, exports.
 */
export function ComparisonReport({
  plan,
  outcomes,
  status,
  onOpenRun,
  returnFocus = null,
  shownColumns,
  onColumns,
}: ComparisonReportProps) {
  const table = useMemo(() => aggregateComparison(plan, outcomes), [plan, outcomes]);
  const cells = useMemo(() => matrixCells(table, outcomes), [table, outcomes]);
  const columns = shownColumns ?? planReport(plan).columns;
  const [picked, setAt] = useState<At | null>(null);
  const at = useMemo(() => shownAt(table, picked), [table, picked]);
  const atLabel = `${table.protocols.length > 1 ? `${at.protocol} · ` : ''}${levelLabel(table.levelKind, at.level)}`;

  // Which cells each chart marks, and how many: the HTML report counts them the same way.
  const rpsSeries = useMemo(() => columnSeries(table, cells, 'rps'), [table, cells]);
  const p99Series = useMemo(() => columnSeries(table, cells, 'p99'), [table, cells]);
  const slowed = useMemo(() => markedCells(rpsSeries), [rpsSeries]);
  const skewed = useMemo(() => markedCells(p99Series), [p99Series]);
  const bar = useCallback((p: Palette) => rpsBarChart(table, p, slowed), [table, slowed]);
  const rps = useCallback((p: Palette) => scalingChart(table, 'rps', p, slowed), [table, slowed]);
  const p99 = useCallback((p: Palette) => scalingChart(table, 'p99', p, skewed), [table, skewed]);
  const curves = useCallback((p: Palette) => percentileCurvesChart(table, at, p), [table, at]);
  const cpuSeries = useMemo(() => columnSeries(table, cells, 'serverCpuPer10k'), [table, cells]);
  const cpu = useCallback((p: Palette) => cpuPer10kBarChart(table, cpuSeries, p), [table, cpuSeries]);
  const about = useMemo(() => aboutComparison(plan, outcomes), [plan, outcomes]);
  const aboutAt = useMemo(
    () => ({ ...about, load: levelsTag(table.levelKind, [at.level]) }),
    [about, table.levelKind, at.level],
  );
  // The text reports and the HTML follow the columns on screen.
  const bundle = useMemo(
    () => comparisonExport(withoutSecrets({ plan, outcomes, status }), { columns }),
    [plan, outcomes, status, columns],
  );
  const rpsMarks = columnMarks(rpsSeries);
  const p99Marks = columnMarks(p99Series);

  return (
    <section className="compare-report" data-testid="comparison-report">
      <div className="card table-card">
        <div className="table-card__head">
          <h2 className="table-card__title">Side by side</h2>
          <span className="muted small">
            mean over {plan.repetitions} repetition{plan.repetitions === 1 ? '' : 's'} per cell; ± is the
            sample standard deviation; open a cell for its full report
          </span>
          <ColumnPicker columns={columns} onChange={onColumns} />
        </div>
        <MatrixTable
          plan={plan}
          cells={cells}
          table={table}
          columns={matrixColumns(columns)}
          onOpenRun={onOpenRun}
          returnFocus={returnFocus}
        />
        <CaveatList plan={plan} cells={cells} onOpenRun={onOpenRun} />
      </div>

      {plan.repetitions > 1 && outcomes.length > 0 && (
        <RepetitionTable
          rows={repetitionRows(table, outcomes)}
          outcomes={outcomes}
          several={table.protocols.length > 1}
          onOpenRun={onOpenRun}
        />
      )}

      <ExportBar
        bundle={bundle}
        date={typeof about.date === 'string' ? about.date : about.date.toISOString()}
        textTitle={(p) =>
          `${plan.name}: each cell in ${LAYOUT_NAMES[p.layout ?? 'text']}'s layout, then the matrix`
        }
      />

      <div className="chart-grid">
        <ChartCard
          title="Requests per second by level"
          testId="chart-compare-bars"
          slug="rps-by-level"
          about={about}
          build={bar}
          marks={rpsMarks}
          note={marksNote(rpsMarks, 'Hatched bar')}
        />
        {columnHasData(cpuSeries) && (
          <ChartCard
            title="Server CPU-seconds per 10,000 requests by level"
            testId="chart-compare-cpu"
            slug="cpu-per-10k-by-level"
            about={about}
            build={cpu}
            marks={columnMarks(cpuSeries)}
            note={marksNote(columnMarks(cpuSeries), 'Hatched bar')}
          />
        )}
        <ChartCard
          title="Scaling: requests per second"
          testId="chart-compare-rps"
          slug="scaling-rps"
          about={about}
          build={rps}
          marks={rpsMarks}
          note={marksNote(rpsMarks, 'Hollow triangle, dashed line')}
        />
        <ChartCard
          title="Scaling: p99 latency"
          testId="chart-compare-p99"
          slug="scaling-p99"
          about={about}
          build={p99}
          marks={p99Marks}
          note={marksNote(p99Marks, 'Hollow triangle, dashed line')}
        />
        <ChartCard
          title={`Latency by percentile · ${atLabel}`}
          testId="chart-compare-percentiles"
          slug={`percentiles${table.protocols.length > 1 ? `-${at.protocol}` : ''}`}
          about={aboutAt}
          build={curves}
        />
      </div>

      <div className="card table-card">
        <div className="table-card__head">
          <h2 className="table-card__title">Percentiles (ms) · {atLabel}</h2>
          <AtPicker table={table} at={at} onChange={setAt} />
        </div>
        <PercentileColumns table={table} at={at} />
      </div>
    </section>
  );
}

function AtPicker({ table, at, onChange }: { table: ComparisonTable; at: At; onChange: (at: At) => void }) {
  return (
    <div className="at-picker">
      {table.protocols.length > 1 && (
        <select
          className="input select"
          aria-label="Protocol"
          value={at.protocol}
          data-testid="at-protocol"
          onChange={(e) => onChange({ ...at, protocol: e.target.value as ProtocolVariant })}
        >
          {table.protocols.map((p) => (
            <option key={p} value={p}>
              {p}
            </option>
          ))}
        </select>
      )}
      <select
        className="input select"
        aria-label="Level"
        value={String(at.level)}
        data-testid="at-level"
        onChange={(e) => onChange({ ...at, level: Number(e.target.value) })}
      >
        {[...table.levels]
          .sort((a, b) => a - b)
          .map((l) => (
            <option key={l} value={String(l)}>
              {levelLabel(table.levelKind, l)}
            </option>
          ))}
      </select>
    </div>
  );
}

/** Seed 001's table: ab's percentiles as rows, one column per server. */
function PercentileColumns({ table, at }: { table: ComparisonTable; at: At }) {
  const pt = comparisonPercentileTable(table, at);
  return (
    <TableScroll>
      <table className="table table--compact" data-testid="comparison-percentiles">
        <thead>
          <tr>
            <th scope="col">Percentile</th>
            {pt.columns.map((c, i) => (
              <th scope="col" className="num" key={`${c}-${i}`}>
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {pt.rows.map((r) => (
            <tr key={r.label}>
              <th scope="row">{r.percentile === 100 ? '100% (longest)' : r.label}</th>
              {r.values.map((v, i) => (
                <td className="num" key={i}>
                  {v === null ? '–' : formatMsValue(v)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
