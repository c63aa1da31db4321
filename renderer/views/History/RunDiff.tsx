import { useCallback, useMemo, useState } from 'react';
import type { TrebuchetApi } from '../../../shared/contract/api.ts';
import { namedParts } from '../../../shared/diff/compare.ts';
import type { RunRecord } from '../../../shared/records/history.ts';
import { savedOfRecord } from '../../../shared/records/result-file.ts';
import { Alert } from '../../components/Alert.tsx';
import { formatWhen } from '../../components/time.ts';
import { useQuery } from '../../components/useQuery.ts';
import { DiffOverlay } from './DiffOverlay.tsx';
import { FigureDiffTable } from './FigureDiffTable.tsx';

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
          api={api}
          a={records.data[0]}
          b={records.data[1]}
        />
      )}
    </section>
  );
}

function DiffTable({ api, a, b }: { api: TrebuchetApi; a: RunRecord; b: RunRecord }) {
  // The parts by the names `trebuchet diff` matches them by; any two may be picked.
  const partsA = useMemo(() => namedParts(savedOfRecord(a)), [a]);
  const partsB = useMemo(() => namedParts(savedOfRecord(b)), [b]);
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
  const baseLabel = pa?.label;
  const nextLabel = pb?.label;
  const load = useCallback(
    () =>
      baseLabel === undefined || nextLabel === undefined
        ? Promise.resolve(null)
        : api.history.diff({ base: a.id, next: b.id, parts: { base: baseLabel, next: nextLabel } }),
    [api, a.id, b.id, baseLabel, nextLabel],
  );
  const diff = useQuery(load);
  if (!pa || !pb) return <p className="muted small">One of the runs has no results to compare.</p>;
  return (
    <>
      <div className="diff__pick">
        <PartPicker side="A" record={a} labels={partsA.map((p) => p.label)} value={ia} onChange={setIa} />
        <PartPicker side="B" record={b} labels={partsB.map((p) => p.label)} value={ib} onChange={setIb} />
      </div>
      <Alert tone="error">{diff.error}</Alert>
      {diff.data?.parts.map((part) => (
        <FigureDiffTable
          key={part.label}
          part={part}
          heads={{ next: 'B', base: 'A' }}
          baseFirst
          testId="diff"
        />
      ))}
      <DiffOverlay a={pa.results} b={pb.results} />
      <p className="muted small">Δ is B against A, computed as `trebuchet diff` computes it.</p>
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
