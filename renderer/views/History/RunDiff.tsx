import { useCallback, useMemo, useState } from 'react';
import type { TrebuchetApi } from '../../../shared/contract/api.ts';
import { namedParts } from '../../../shared/diff/compare.ts';
import { diffExport } from '../../../shared/export/diff.ts';
import { pairedLine } from '../../../shared/format/diff-text.ts';
import type { HistoryRecord } from '../../../shared/records/history.ts';
import { savedOfRecord } from '../../../shared/records/result-file.ts';
import { whatRan } from '../../../shared/records/kinds.ts';
import { Alert } from '../../components/Alert.tsx';
import { formatWhenExact, laterText } from '../../components/time.ts';
import { useQuery } from '../../components/useQuery.ts';
import { useRevealWhenStacked } from '../../components/useRevealWhenStacked.ts';
import { ExportBar } from '../../export/ExportBar.tsx';
import { DiffOverlay } from './DiffOverlay.tsx';
import { FigureDiffTable } from '../../report/FigureDiffTable.tsx';

/**
 * Two saved runs side by side: delta per figure and whether it is larger than the noise. A is
 * the one the caller put first (History puts the older first: diffPair.ts), B the other.
 */
export function RunDiff({
  api,
  a,
  b,
  onClose,
  onSwap,
}: {
  api: TrebuchetApi;
  a: string;
  b: string;
  onClose: () => void;
  onSwap: () => void;
}) {
  const load = useCallback(
    () => Promise.all([api.history.get({ id: a }), api.history.get({ id: b })]),
    [api, a, b],
  );
  const records = useQuery(load);
  const reveal = useRevealWhenStacked<HTMLElement>(`${a}|${b}`);
  return (
    <section ref={reveal} className="card diff" data-testid="run-diff">
      <div className="table-card__head">
        <h2 className="table-card__title">Compare two saved runs</h2>
        <div className="record__actions">
          <button
            type="button"
            className="btn btn--ghost btn--sm"
            title="Make B the base the change is measured from"
            data-testid="diff-swap"
            onClick={onSwap}
          >
            Swap A and B
          </button>
          <button type="button" className="btn btn--ghost btn--sm" onClick={onClose}>
            Close
          </button>
        </div>
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

function DiffTable({ api, a, b }: { api: TrebuchetApi; a: HistoryRecord; b: HistoryRecord }) {
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
  const bundle = useMemo(
    () =>
      diff.data && pa && pb
        ? diffExport({
            diff: diff.data,
            sides: {
              base: { name: a.name, at: a.createdAt, file: null },
              next: { name: b.name, at: b.createdAt, file: null },
            },
            rules: [],
            moves: [],
            runs: { base: [pa], next: [pb] },
          })
        : null,
    [diff.data, a, b, pa, pb],
  );
  if (!pa || !pb) return <p className="muted small">One of the runs has no results to compare.</p>;
  const order = a.createdAt < b.createdAt ? 'time' : a.createdAt > b.createdAt ? 'swapped' : 'same';
  return (
    <>
      <div className="diff__pick">
        <PartPicker
          side="A"
          record={a}
          when={order === 'time' ? 'older' : order === 'swapped' ? 'newer' : null}
          labels={partsA.map((p) => p.label)}
          value={ia}
          onChange={setIa}
        />
        <PartPicker
          side="B"
          record={b}
          when={order === 'time' ? 'newer' : order === 'swapped' ? 'older' : null}
          after={laterText(a.createdAt, b.createdAt)}
          labels={partsB.map((p) => p.label)}
          value={ib}
          onChange={setIb}
        />
      </div>
      <Alert tone="error">{diff.error}</Alert>
      {diff.data?.paired && (
        <p className="muted small" data-testid="diff-paired">
          {pairedLine(diff.data.paired)}
        </p>
      )}
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
      <p className="muted small" data-testid="diff-direction">
        Δ is B against A, as <code>trebuchet diff A.json B.json</code> and “vs baseline” compute it
        {order === 'swapped' ? ': A is the newer run here' : ''}.
      </p>
      {bundle && (
        <ExportBar bundle={bundle} date={b.createdAt} textTitle={() => 'As trebuchet diff prints it'} />
      )}
    </>
  );
}

function PartPicker({
  side,
  record,
  when,
  after,
  labels,
  value,
  onChange,
}: {
  side: 'A' | 'B';
  record: HistoryRecord;
  /** Which of the two ran first; null when they were saved at the same moment. */
  when: 'older' | 'newer' | null;
  /** B's time after A's ("4 min 12 s later"). */
  after?: string | null;
  labels: string[];
  value: number;
  onChange: (i: number) => void;
}) {
  return (
    <div className="diff__side" data-testid={`diff-side-${side}`}>
      <span className="diff__badge" aria-hidden="true">
        {side}
      </span>
      <div>
        <div className="strong">
          <span className="sr-only">{side}: </span>
          {record.name}
          {when && <span className="muted small"> · {when}</span>}
        </div>
        <div className="small">{whatRan(record)}</div>
        <div className="muted small" data-testid={`diff-when-${side}`}>
          {formatWhenExact(record.createdAt)}
          {after ? ` · ${after}` : ''} ·{' '}
          <span className={`status status--${record.status}`}>{record.status}</span>
        </div>
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
