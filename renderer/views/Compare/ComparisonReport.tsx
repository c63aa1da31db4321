import { useCallback, useMemo, useState } from 'react';
import {
  aggregateComparison,
  comparisonPercentileTable,
  levelLabel,
  type CellAggregate,
  type CellOutcome,
  type ComparisonPlan,
  type ComparisonTable,
  type ProtocolVariant,
  type Stat,
} from '../../../shared/comparison.ts';
import {
  comparisonMatrixCsv,
  percentileTableCsv,
  summaryCsv,
  timeSeriesCsv,
} from '../../../shared/format/csv.ts';
import type { Palette } from '../../charts/palette.ts';
import { formatCount, formatMsValue, formatRate } from '../../lib/format.ts';
import { ChartCard } from '../common/ChartCard.tsx';
import { fileSlug } from '../../../shared/file-name.ts';
import { MIME } from '../Export/download.ts';
import { downloadAction, ExportBar, type ExportAction } from '../Export/ExportBar.tsx';
import { labelOutcomes, resultJson } from '../Export/exports.ts';
import { percentileCurvesChart, rpsBarChart, scalingChart } from './chartData.ts';
import { shownAt, type At } from './percentileAt.ts';
import { aboutComparison, levelsTag } from '../Export/chartSubject.ts';

interface ComparisonReportProps {
  plan: ComparisonPlan;
  outcomes: readonly CellOutcome[];
  status: 'completed' | 'cancelled' | 'failed' | null;
}

/** A comparison side by side: the matrix table, the charts, the seed-001 percentile table, exports. */
export function ComparisonReport({ plan, outcomes, status }: ComparisonReportProps) {
  const table = useMemo(() => aggregateComparison(plan, outcomes), [plan, outcomes]);
  const [picked, setAt] = useState<At | null>(null);
  const at = useMemo(() => shownAt(table, picked), [table, picked]);
  const base = fileSlug(plan.name, 'comparison');
  const atLabel = `${table.protocols.length > 1 ? `${at.protocol} · ` : ''}${levelLabel(table.levelKind, at.level)}`;

  const bar = useCallback((p: Palette) => rpsBarChart(table, p), [table]);
  const rps = useCallback((p: Palette) => scalingChart(table, 'rps', p), [table]);
  const p99 = useCallback((p: Palette) => scalingChart(table, 'p99', p), [table]);
  const curves = useCallback((p: Palette) => percentileCurvesChart(table, at, p), [table, at]);
  const labelled = useMemo(() => labelOutcomes(plan, outcomes), [plan, outcomes]);
  const about = useMemo(() => aboutComparison(plan, outcomes), [plan, outcomes]);
  const aboutAt = useMemo(
    () => ({ ...about, load: levelsTag(table.levelKind, [at.level]) }),
    [about, table.levelKind, at.level],
  );
  const exports: ExportAction[] = [
    downloadAction('Matrix CSV', 'export-matrix-csv', `${base}.matrix.csv`, MIME.csv, () =>
      comparisonMatrixCsv(table),
    ),
    downloadAction(
      'Percentiles CSV',
      'export-percentiles-csv',
      `${base}.percentiles-${fileSlug(atLabel)}.csv`,
      MIME.csv,
      () => percentileTableCsv(comparisonPercentileTable(table, at)),
    ),
    downloadAction('Runs summary CSV', 'export-summary-csv', `${base}.summary.csv`, MIME.csv, () =>
      summaryCsv(labelled),
    ),
    downloadAction('Time series CSV', 'export-timeseries-csv', `${base}.timeseries.csv`, MIME.csv, () =>
      timeSeriesCsv(labelled),
    ),
    downloadAction('JSON', 'export-json', `${base}.json`, MIME.json, () =>
      resultJson({ kind: 'comparison', status, plan, outcomes }),
    ),
  ];

  return (
    <section className="compare-report" data-testid="comparison-report">
      <div className="card table-card">
        <div className="table-card__head">
          <h2 className="table-card__title">Side by side</h2>
          <span className="muted small">
            mean over {plan.repetitions} repetition{plan.repetitions === 1 ? '' : 's'} per cell; ± is the
            sample standard deviation
          </span>
        </div>
        <MatrixTable table={table} />
      </div>

      <ExportBar groups={[{ label: 'Export', actions: exports }]} />

      <div className="chart-grid">
        <ChartCard
          title="Requests per second by level"
          testId="chart-compare-bars"
          slug="rps-by-level"
          about={about}
          build={bar}
        />
        <ChartCard
          title="Scaling: requests per second"
          testId="chart-compare-rps"
          slug="scaling-rps"
          about={about}
          build={rps}
        />
        <ChartCard
          title="Scaling: p99 latency"
          testId="chart-compare-p99"
          slug="scaling-p99"
          about={about}
          build={p99}
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
          className="input select input--sm"
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
        className="input select input--sm"
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

const MATRIX_FIGURES = ['req/s', '± stdev', 'min', 'max', 'p50 ms', 'p95 ms', 'p99 ms', 'Errors', 'Runs'];

const ms = (s: Stat | null) => (s ? formatMsValue(s.mean) : '–');

function MatrixTable({ table }: { table: ComparisonTable }) {
  const several = table.protocols.length > 1;
  return (
    <div className="table-scroll">
      <table className="table table--matrix" data-testid="comparison-table">
        <thead>
          <tr>
            <th scope="col">Target</th>
            {several && <th scope="col">Protocol</th>}
            <th scope="col">{table.levelKind === 'connections' ? 'Connections' : 'Rate'}</th>
            {MATRIX_FIGURES.map((label) => (
              <th scope="col" className="num" key={label}>
                {label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {table.cells.map((c) => (
            <MatrixRow key={c.key} cell={c} several={several} kind={table.levelKind} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function MatrixRow({
  cell: c,
  several,
  kind,
}: {
  cell: CellAggregate;
  several: boolean;
  kind: ComparisonTable['levelKind'];
}) {
  const rps = c.figures.rps;
  const errorShare = c.requests > 0 ? c.failedRequests / c.requests : 0;
  return (
    <tr
      data-testid="comparison-cell"
      data-target={c.target}
      data-level={c.level}
      data-protocol={c.protocol}
      data-runs={c.runs}
      data-rps={rps?.mean ?? ''}
      data-failed={c.failedRequests}
    >
      <th scope="row">{c.target}</th>
      {several && <td>{c.protocol}</td>}
      <td>{levelLabel(kind, c.level)}</td>
      <td className="num strong" data-testid="cell-rps">
        {rps ? formatRate(rps.mean) : '–'}
      </td>
      <td className="num muted">{rps?.stdev != null ? formatRate(rps.stdev) : '–'}</td>
      <td className="num">{rps ? formatRate(rps.min) : '–'}</td>
      <td className="num">{rps ? formatRate(rps.max) : '–'}</td>
      <td className="num">{ms(c.figures.p50)}</td>
      <td className="num">{ms(c.figures.p95)}</td>
      <td className="num" data-testid="cell-p99">
        {ms(c.figures.p99)}
      </td>
      <td
        className={`num${c.failedRequests > 0 ? ' bad' : ''}`}
        title={`${formatCount(c.failedRequests)} of ${formatCount(c.requests)} requests failed`}
      >
        {c.runs === 0
          ? '–'
          : c.failedRequests === 0
            ? '0'
            : `${formatCount(c.failedRequests)} (${(errorShare * 100).toFixed(1)}%)`}
      </td>
      <td className="num" title={c.failures.join('\n') || undefined}>
        {c.runs}/{c.planned}
        {c.skipped > 0 && <span className="bad"> ({c.skipped} left out)</span>}
      </td>
    </tr>
  );
}

/** Seed 001's table: ab's percentiles as rows, one column per server. */
function PercentileColumns({ table, at }: { table: ComparisonTable; at: At }) {
  const pt = comparisonPercentileTable(table, at);
  return (
    <div className="table-scroll">
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
    </div>
  );
}
