import type { Phase, PhaseStats, RunResult } from '../../shared/result.ts';
import { formatDecimal, formatInt, formatMsValue, formatRatio } from '../lib/format.ts';
import {
  errorRows,
  percentileRows,
  phaseRows,
  statusRows,
  thresholdActual,
  thresholdText,
} from './reportModel.ts';

/** ab's percentile table, with a bar per row so the tail stands out. */
export function PercentileTable({ percentiles }: { percentiles: Record<string, number> }) {
  return (
    <figure className="card table-card">
      <figcaption className="table-card__title">Requests served within (ms)</figcaption>
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
    </figure>
  );
}

/** ab's "Connection Times (ms)": min, mean, [+/-sd], median, max per phase. */
export function ConnectionTimes({ phases }: { phases: Partial<Record<Phase, PhaseStats>> }) {
  const rows = phaseRows(phases);
  if (rows.length === 0) return null;
  return (
    <figure className="card table-card">
      <figcaption className="table-card__title">Connection times (ms)</figcaption>
      <table className="table" data-testid="connection-times">
        <thead>
          <tr>
            <th />
            <th className="num">min</th>
            <th className="num">mean</th>
            <th className="num">[+/-sd]</th>
            <th className="num">median</th>
            <th className="num">max</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(({ phase, label, stats }) => (
            <tr key={phase} data-phase={phase} className={phase === 'total' ? 'is-total' : undefined}>
              <th scope="row">{label}</th>
              <td className="num">{formatMsValue(stats.min)}</td>
              <td className="num">{formatMsValue(stats.mean)}</td>
              <td className="num">{formatMsValue(stats.stdev)}</td>
              <td className="num">{formatMsValue(stats.median)}</td>
              <td className="num">{formatMsValue(stats.max)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}

export function StatusTable({ result }: { result: RunResult }) {
  const rows = statusRows(result.statusCodes);
  return (
    <figure className="card table-card">
      <figcaption className="table-card__title">Status codes</figcaption>
      {rows.length === 0 ? (
        <p className="muted empty-note">No responses.</p>
      ) : (
        <table className="table" data-testid="status-table">
          <thead>
            <tr>
              <th>code</th>
              <th className="num">responses</th>
              <th className="num">share</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.code} data-code={r.code}>
                <th scope="row">
                  <span className={`code code--${r.tone}`}>{r.code}</span>
                </th>
                <td className="num">{formatInt(r.count)}</td>
                <td className="num">{formatRatio(r.share, 1)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </figure>
  );
}

export function ErrorSet({ result }: { result: RunResult }) {
  const rows = errorRows(result);
  return (
    <figure className="card table-card">
      <figcaption className="table-card__title">Error set</figcaption>
      {rows.length === 0 ? (
        <p className="muted empty-note" data-testid="error-set-empty">
          No errors.
        </p>
      ) : (
        <table className="table" data-testid="error-set">
          <thead>
            <tr>
              <th>error</th>
              <th className="num">count</th>
              <th className="num">share</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.kind} data-kind={r.kind}>
                <th scope="row">
                  <span className="error-kind">{r.label}</span>
                  <span className="error-message">{r.message}</span>
                </th>
                <td className="num">{formatInt(r.count)}</td>
                <td className="num">{formatRatio(r.share, 1)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </figure>
  );
}

export function Thresholds({ result }: { result: RunResult }) {
  if (result.thresholds.length === 0) return null;
  const passed = result.thresholds.filter((t) => t.passed).length;
  return (
    <figure className="card table-card">
      <figcaption className="table-card__title">
        Thresholds{' '}
        <span className="muted">
          ({formatDecimal(passed, 0)} of {result.thresholds.length} passed)
        </span>
      </figcaption>
      <table className="table" data-testid="thresholds">
        <tbody>
          {result.thresholds.map((t, i) => (
            <tr key={i} data-passed={t.passed}>
              <th scope="row">{thresholdText(t)}</th>
              <td className="num">{thresholdActual(t)}</td>
              <td className="num">
                <span className={`badge badge--${t.passed ? 'completed' : 'failed'}`}>
                  {t.passed ? 'pass' : 'fail'}
                </span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
