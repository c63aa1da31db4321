import { useCallback, useMemo, useState } from 'react';
import type { TrebuchetApi } from '../../../shared/contract/api.ts';
import { compareSummaries, deltaText, verdictText } from '../../../shared/comparison/noise.ts';
import type { Stat } from '../../../shared/comparison/stats.ts';
import { comparableParts, type RunRecord } from '../../../shared/records/history.ts';
import { Alert } from '../../components/Alert.tsx';
import { formatCount, formatMsValue, formatRateValue, formatPercent } from '../../../shared/format/units.ts';
import { formatWhen } from '../../components/time.ts';
import { useQuery } from '../../components/useQuery.ts';
import { DiffOverlay } from './DiffOverlay.tsx';

/** A figure's value in its unit, for the table. */
export function formatFigure(unit: string, value: number): string {
  switch (unit) {
    case 'req/s':
      return formatRateValue(value);
    case 'ms':
      return formatMsValue(value);
    case 'ratio':
      return formatPercent(value);
    default:
      return formatCount(value);
  }
}

function statText(unit: string, s: Stat | null): string {
  if (!s) return '–';
  const spread = s.stdev === null ? '' : ` ± ${formatFigure(unit, s.stdev)}`;
  return `${formatFigure(unit, s.mean)}${spread}`;
}

/** Two saved runs side by side: delta per figure and whether it is larger than the noise. */
export function RunDiff({
  api,
  a,
  b,
  onClose,
}: {
  api: TrebuchetApi;
  a: string;
  b: string;
  onClose: () => void;
}) {
  const load = useCallback(
    () => Promise.all([api.history.get({ id: a }), api.history.get({ id: b })]),
    [api, a, b],
  );
  const records = useQuery(load);
  return (
    <section className="card diff" data-testid="run-diff">
      <div className="table-card__head">
        <h2 className="table-card__title">Compare two saved runs</h2>
        <button type="button" className="btn btn--ghost btn--sm" onClick={onClose}>
          Close
        </button>
      </div>
      <Alert tone="error">{records.error}</Alert>
      {records.data && (
        // A new pair starts from its own first parts, not from the indexes picked in the last.
        <DiffTable
          key={`${records.data[0].id}|${records.data[1].id}`}
          a={records.data[0]}
          b={records.data[1]}
        />
      )}
    </section>
  );
}

function DiffTable({ a, b }: { a: RunRecord; b: RunRecord }) {
  const partsA = useMemo(() => comparableParts(a), [a]);
  const partsB = useMemo(() => comparableParts(b), [b]);
  const [ia, setIa] = useState(0);
  // Start B on the part of the same name as A's, when there is one.
  const [ib, setIb] = useState(() =>
    Math.max(
      0,
      partsB.findIndex((p) => p.label === partsA[0]?.label),
    ),
  );
  const pa = partsA[ia];
  const pb = partsB[ib];
  if (!pa || !pb) return <p className="muted small">One of the runs has no results to compare.</p>;
  const rows = compareSummaries(pa.summary, pb.summary);
  return (
    <>
      <div className="diff__pick">
        <PartPicker side="A" record={a} labels={partsA.map((p) => p.label)} value={ia} onChange={setIa} />
        <PartPicker side="B" record={b} labels={partsB.map((p) => p.label)} value={ib} onChange={setIb} />
      </div>
      <div className="table-scroll">
        <table className="table" data-testid="diff-table">
          <thead>
            <tr>
              <th scope="col">Figure</th>
              <th scope="col" className="num">
                A ({pa.summary.runs} run{pa.summary.runs === 1 ? '' : 's'})
              </th>
              <th scope="col" className="num">
                B ({pb.summary.runs} run{pb.summary.runs === 1 ? '' : 's'})
              </th>
              <th scope="col" className="num">
                Δ
              </th>
              <th scope="col">Verdict</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((c) => (
              <tr key={c.figure} data-testid="diff-row" data-figure={c.figure} data-verdict={c.verdict}>
                <th scope="row">
                  {c.info.label} <span className="muted small">({c.info.unit})</span>
                </th>
                <td className="num">{statText(c.info.unit, c.a)}</td>
                <td className="num">{statText(c.info.unit, c.b)}</td>
                <td
                  className={`num${c.verdict === 'different' ? (c.better === 'b' ? ' good' : ' bad') : ''}`}
                  data-testid="diff-delta"
                >
                  {deltaText(c)}
                </td>
                <td>
                  <span
                    className={`diff-verdict diff-verdict--${c.verdict}`}
                    title={c.message}
                    data-testid="diff-verdict"
                  >
                    {verdictText(c)}
                  </span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <DiffOverlay a={pa.results} b={pb.results} />
      <p className="muted small">
        Δ is B against A. "Beyond noise": Welch's t-test at 95 % over the repetitions says the means differ by
        more than the run-to-run spread explains. A single run per side has no spread, so it cannot tell.
      </p>
    </>
  );
}

function PartPicker({
  side,
  record,
  labels,
  value,
  onChange,
}: {
  side: 'A' | 'B';
  record: RunRecord;
  labels: string[];
  value: number;
  onChange: (i: number) => void;
}) {
  return (
    <div className="diff__side">
      <span className="diff__badge">{side}</span>
      <div>
        <div className="strong">{record.name}</div>
        <div className="muted small">{formatWhen(record.createdAt)}</div>
        {labels.length > 1 && (
          <select
            className="input select"
            aria-label={`Part of run ${side}`}
            value={String(value)}
            data-testid={`diff-part-${side}`}
            onChange={(e) => onChange(Number(e.target.value))}
          >
            {labels.map((l, i) => (
              <option key={`${l}-${i}`} value={String(i)}>
                {l}
              </option>
            ))}
          </select>
        )}
        {labels.length === 1 && <div className="small">{labels[0]}</div>}
      </div>
    </div>
  );
}
