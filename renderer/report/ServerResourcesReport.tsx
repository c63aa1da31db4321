import { useMemo } from 'react';
import { serverResourcesTable } from '../../shared/format/resources-table.ts';
import type { ServerResources as Resources } from '../../shared/model/server-resources.ts';
import type { Verdict } from '../../shared/verdict/verdict.ts';
import { TableCard } from './ReportTables.tsx';
import './ServerResources.css';

/**
 * The report's Server resources (issue 11): the efficiency figure first (server CPU-seconds
 * per 10,000 requests: which server spent the least CPU for the same work), mean and max of
 * each figure, then what was sampled and how, gaps with their reasons, notes and the
 * monitor's own cost. The figures are flagged when the verdict says the load was not the
 * one asked for.
 */
export function ServerResourcesReport({ resources, verdict }: { resources: Resources; verdict: Verdict }) {
  const t = useMemo(() => serverResourcesTable(resources, verdict), [resources, verdict]);
  const sampled = resources.source.method !== 'none';
  return (
    <TableCard
      className="server-resources"
      testId="server-resources"
      title={
        <>
          Server resources{' '}
          <span className="muted">({sampled ? resources.source.method : 'not sampled'})</span>
        </>
      }
    >
      {sampled && (
        <div
          className={`server-efficiency${t.caveat ? ' server-efficiency--caveat' : ''}`}
          data-testid="server-efficiency"
          data-value={t.efficiency?.value}
          data-caveat={t.caveat ? 'true' : undefined}
          title={t.caveat ?? undefined}
        >
          <span className="server-efficiency__value">{t.efficiency?.text ?? '–'}</span>
          <span className="server-efficiency__label">
            server CPU-seconds per 10,000 requests
            {t.caveat && (
              <span className="caveat-mark" aria-label="not the server's figure">
                !
              </span>
            )}
          </span>
          {t.cpuSeconds && <span className="muted small">{t.cpuSeconds} of CPU while measured</span>}
        </div>
      )}
      <div className="server-resources__body">
        {t.rows.length > 0 && (
          <table className="table" data-testid="server-resources-table">
            <thead>
              <tr>
                <th>figure</th>
                <th className="num">mean</th>
                <th className="num">max</th>
              </tr>
            </thead>
            <tbody>
              {t.rows.map((r) => (
                <tr key={r.figure} data-figure={r.figure}>
                  <th scope="row">{r.label}</th>
                  <td className="num" data-value={r.mean}>
                    {r.meanText}
                  </td>
                  <td className="num" data-value={r.max}>
                    {r.maxText}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <div>
          <dl className="server-resources__facts">
            <div>
              <dt>Sampled</dt>
              <dd data-testid="server-resources-source">{t.source}</dd>
            </div>
            {t.workers && (
              <div>
                <dt>Workers</dt>
                <dd data-testid="server-resources-workers">{t.workers}</dd>
              </div>
            )}
            {sampled && (
              <div>
                <dt>Readings</dt>
                <dd>{t.readings}</dd>
              </div>
            )}
            {t.cost && (
              <div>
                <dt>Monitor cost</dt>
                <dd data-testid="server-resources-cost">{t.cost} (its readings, on the host)</dd>
              </div>
            )}
          </dl>
          {t.caveat && <p className="server-resources__caveat">{t.caveat}</p>}
          {t.gaps.length > 0 && (
            <ul className="server-resources__gaps" data-testid="server-resources-gaps">
              {t.gaps.map((g) => (
                <li key={g.reason} data-count={g.count}>
                  No reading for {g.text}
                </li>
              ))}
            </ul>
          )}
          {t.notes.length > 0 && (
            <ul className="server-resources__notes" data-testid="server-resources-notes">
              {t.notes.map((n) => (
                <li key={n}>{n}</li>
              ))}
            </ul>
          )}
        </div>
      </div>
    </TableCard>
  );
}
