import type { ReactNode } from 'react';
import type { Phase, PhaseStats, RunResult } from '../../shared/model/result.ts';
import { formatCount, formatMsValue, formatPercent } from '../../shared/figures/units.ts';
import { thresholdActualText, thresholdText } from '../../shared/format/report.ts';
import { errorRows, percentileRows, phaseRows, statusRows } from './reportModel.ts';
import { useScrollReach } from '../components/useScrollReach.ts';

/** ab's percentile table, with a bar per row so the tail stands out. */
export function LatencyPercentileTable({ percentiles }: { percentiles: Record<string, number> }) {
  return (
    <TableCard title="Requests served within (ms)">
      <table className="table table--bars" data-testid="percentile-table">
        <tbody>
          {percentileRows(percentiles).map((row) => (
            <tr key={row.p} data-p={row.p} title={row.p === 100 ? 'longest request' : undefined}>
              <th scope="row">{row.label}</th>
              <td className="num">{formatMsValue(row.ms)}</td>
              <td className="bar-cell" aria-hidden="true">
                <span className="bar" style={{ width: `${(row.share * 100).toFixed(1)}%` }} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableCard>
  );
}

const PHASE_COLUMNS = [
  ['min', 'min'],
  ['mean', 'mean'],
  ['stdev', '[+/-sd]'],
  ['median', 'median'],
  ['max', 'max'],
] as const satisfies readonly (readonly [keyof PhaseStats, string])[];

/** ab's "Connection Times (ms)": min, mean, [+/-sd], median, max per phase. */
export function ConnectionTimes({ phases }: { phases: Partial<Record<Phase, PhaseStats>> }) {
  const rows = phaseRows(phases);
  if (rows.length === 0) return null;
  return (
    <TableCard title="Connection times (ms)">
      <table className="table" data-testid="connection-times">
        <thead>
          <tr>
            <th />
            {PHASE_COLUMNS.map(([key, label]) => (
              <th className="num" key={key}>
                {label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map(({ phase, label, stats }) => (
            <tr key={phase} data-phase={phase} className={phase === 'total' ? 'is-total' : undefined}>
              <th scope="row">{label}</th>
              {PHASE_COLUMNS.map(([key]) => (
                <td className="num" key={key}>
                  {formatMsValue(stats[key])}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </TableCard>
  );
}

export function StatusTable({ result }: { result: RunResult }) {
  const rows = statusRows(result.statusCodes).map((r) => ({
    key: r.code,
    head: <span className={`code code--${r.tone}`}>{r.code}</span>,
    count: r.count,
    share: r.share,
  }));
  return (
    <TableCard title="Status codes">
      <CountTable rows={rows} what="code" count="responses" keyAttr="data-code" testId="status-table">
        <p className="muted empty-note">No responses.</p>
      </CountTable>
    </TableCard>
  );
}

export function ErrorSet({ result }: { result: RunResult }) {
  const rows = errorRows(result).map((r) => ({
    key: r.kind,
    head: (
      <>
        <span className="error-kind">{r.label}</span>
        <span className="error-message">{r.message}</span>
      </>
    ),
    count: r.count,
    share: r.share,
  }));
  return (
    <TableCard title="Error set">
      <CountTable rows={rows} what="error" count="count" keyAttr="data-kind" testId="error-set">
        <p className="muted empty-note" data-testid="error-set-empty">
          No errors.
        </p>
      </CountTable>
    </TableCard>
  );
}

interface CountRow {
  key: string;
  head: ReactNode;
  count: number;
  share: number;
}

/** Rows of "what, how many, what share" (status codes, error kinds); children stand in when there are none. */
function CountTable(props: {
  rows: readonly CountRow[];
  what: string;
  count: string;
  /** The data attribute that carries each row's key, for tests and styles. */
  keyAttr: 'data-code' | 'data-kind';
  testId: string;
  children: ReactNode;
}) {
  if (props.rows.length === 0) return props.children;
  return (
    <table className="table" data-testid={props.testId}>
      <thead>
        <tr>
          <th>{props.what}</th>
          <th className="num">{props.count}</th>
          <th className="num">share</th>
        </tr>
      </thead>
      <tbody>
        {props.rows.map((r) => (
          <tr key={r.key} {...{ [props.keyAttr]: r.key }}>
            <th scope="row">{r.head}</th>
            <td className="num">{formatCount(r.count)}</td>
            <td className="num">{formatPercent(r.share, 1)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** A table with its title, as a card of the report. */
export function TableCard({
  title,
  children,
  className,
  testId,
}: {
  title: ReactNode;
  children: ReactNode;
  className?: string;
  testId?: string;
}) {
  const reach = useScrollReach<HTMLElement>();
  return (
    <figure ref={reach} className={`card table-card${className ? ` ${className}` : ''}`} data-testid={testId}>
      <figcaption className="table-card__title">{title}</figcaption>
      {children}
    </figure>
  );
}

export function Thresholds({ result }: { result: RunResult }) {
  if (result.thresholds.length === 0) return null;
  const passed = result.thresholds.filter((t) => t.passed).length;
  return (
    <TableCard
      title={
        <>
          Thresholds{' '}
          <span className="muted">
            ({formatCount(passed)} of {result.thresholds.length} passed)
          </span>
        </>
      }
    >
      <table className="table" data-testid="thresholds">
        <tbody>
          {result.thresholds.map((t, i) => (
            <tr key={i} data-passed={t.passed}>
              <th scope="row">{thresholdText(t)}</th>
              <td className="num">{thresholdActualText(t)}</td>
              <td className="num">
                <span className={`badge badge--${t.passed ? 'completed' : 'failed'}`}>
                  {t.passed ? 'pass' : 'fail'}
                </span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableCard>
  );
}
