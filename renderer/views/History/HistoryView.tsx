import { useCallback, useEffect, useState } from 'react';
import type { TrebuchetApi } from '../../../shared/contract/api.ts';
import type { CapacityPlan } from '../../../shared/capacity/plan.ts';
import type { ComparisonPlan } from '../../../shared/comparison/plan.ts';
import type { HistorySummary, HistoryRecord } from '../../../shared/records/history.ts';
import { baselineOf } from '../../../shared/records/baselines.ts';
import type { Scenario } from '../../../shared/model/scenario.ts';
import { ActionButtons } from '../../components/ActionButtons.tsx';
import { Alert } from '../../components/Alert.tsx';
import { formatBytes, formatRateValue } from '../../../shared/figures/units.ts';
import { NameDialog } from '../../components/Dialog.tsx';
import { StoreProblems } from '../../components/StoreProblems.tsx';
import { formatWhen } from '../../components/time.ts';
import { useQuery } from '../../components/useQuery.ts';
import { RecordStatus } from './RecordStatus.tsx';
import { RecordView } from './RecordView.tsx';
import { ImportButton, ImportNote, useHistoryImport } from './HistoryImport.tsx';
import { byTime } from './diffPair.ts';
import { RunDiff } from './RunDiff.tsx';
import { errorText } from '../../lib/errors.ts';
import './history.css';

const KIND_LABELS: Record<HistorySummary['kind'], string> = {
  run: 'Run',
  comparison: 'Comparison',
  capacity: 'Capacity',
};

/** A saved run to open at once: its report, or (with a base) its diff against that base. */
export interface HistoryOpen {
  id: string;
  /** Open the diff of this entry (B) against `base` (A) instead of its report. */
  base?: string | undefined;
}

interface HistoryViewProps {
  api: TrebuchetApi;
  /** A saved run to open at once (e.g. the comparison that just finished). */
  toOpen: HistoryOpen | null;
  onOpened: () => void;
  onLoadScenario: (scenario: Scenario) => void;
  onLoadPlan: (plan: ComparisonPlan) => void;
  onLoadCapacity: (plan: CapacityPlan) => void;
}

/** Every finished or stopped run, newest first: open, rename, delete, and compare any two. */
export function HistoryView({
  api,
  toOpen,
  onOpened,
  onLoadScenario,
  onLoadPlan,
  onLoadCapacity,
}: HistoryViewProps) {
  const load = useCallback(() => api.history.list(), [api]);
  const list = useQuery(load);
  const { reload } = list;
  const [selected, setSelected] = useState<string[]>([]);
  const [diff, setDiff] = useState<[string, string] | null>(null);
  const [record, setRecord] = useState<HistoryRecord | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [renaming, setRenaming] = useState<HistorySummary | null>(null);
  const [renameError, setRenameError] = useState<string | null>(null);

  const open = useCallback(
    (id: string) => {
      setDiff(null);
      api.history.get({ id }).then(
        (r) => {
          setRecord(r);
          setError(null);
        },
        (e: unknown) => {
          setError(errorText(e));
          // A broken file was set aside: the list and its problems changed.
          reload();
        },
      );
    },
    [api, reload],
  );

  // A run to show at once (the one just finished), or its diff against its baseline. It is
  // handed over only once shown: the request must not be dropped by toOpen going back to null,
  // or History shows its empty card.
  useEffect(() => {
    if (toOpen === null) return;
    let live = true;
    const { id, base } = toOpen;
    api.history.get({ id }).then(
      (r) => {
        if (!live) return;
        setDiff(base === undefined ? null : [base, id]);
        setRecord(base === undefined ? r : null);
        setError(null);
        onOpened();
      },
      (e: unknown) => {
        if (!live) return;
        setError(errorText(e));
        onOpened();
      },
    );
    return () => {
      live = false;
    };
  }, [api, toOpen, onOpened]);

  const remove = (s: HistorySummary) => {
    if (!window.confirm(`Delete the saved run "${s.name}"? This cannot be undone.`)) return;
    api.history.delete({ id: s.id }).then(
      () => {
        if (record?.id === s.id) setRecord(null);
        setSelected((sel) => sel.filter((x) => x !== s.id));
        list.reload();
      },
      (e: unknown) => setError(errorText(e)),
    );
  };

  const rename = (name: string) => {
    if (!renaming) return;
    api.history.rename({ id: renaming.id, name }).then(
      (saved) => {
        setRenaming(null);
        setRenameError(null);
        if (record?.id === saved.id) setRecord({ ...record, name: saved.name });
        list.reload();
      },
      (e: unknown) => setRenameError(errorText(e)),
    );
  };

  const toggle = (id: string, on: boolean) =>
    setSelected((sel) => (on ? [...sel.filter((x) => x !== id), id].slice(-2) : sel.filter((x) => x !== id)));

  const imports = useHistoryImport(api, (ids) => {
    list.reload();
    if (ids[0] !== undefined) open(ids[0]);
  });

  const runs = list.data?.runs ?? [];
  const baselines = list.data?.baselines ?? [];
  const isBaseline = (id: string): boolean => baselines.some((b) => b.id === id);
  const baselineFor = (id: string): string | null => {
    const summary = runs.find((r) => r.id === id);
    return summary ? baselineOf(summary, baselines, runs) : null;
  };
  const mark = (s: HistorySummary, on: boolean) => {
    api.history.baseline({ id: s.id, on }).then(
      () => list.reload(),
      (e: unknown) => setError(errorText(e)),
    );
  };
  return (
    <main className="workspace workspace--history" data-testid="history-view" {...imports.dropProps}>
      <aside className="editor-pane history-pane" aria-label="Saved runs">
        <div className="pane-toolbar pane-toolbar--spread">
          <h1 className="pane-title">History</h1>
          <ImportButton busy={imports.state.busy} onFiles={(files) => void imports.importFiles(files)} />
          <button
            type="button"
            className="btn btn--secondary btn--sm"
            disabled={selected.length !== 2}
            title="Tick two runs to compare them"
            data-testid="history-compare"
            onClick={() => {
              setRecord(null);
              setDiff(byTime([selected[0]!, selected[1]!], runs));
            }}
          >
            Compare selected ({selected.length}/2)
          </button>
        </div>
        <ImportNote state={imports.state} />
        <StoreProblems problems={list.data?.problems ?? []} />
        <Alert tone="error">{list.error}</Alert>
        {runs.length === 0 && !list.loading && (
          <p className="muted small empty-note" data-testid="history-empty">
            Nothing here yet: every run and comparison you finish or stop is saved here. Drop result JSON
            files here (or press Import…) to add runs from the CLI or another machine.
          </p>
        )}
        <ul className="history-list" data-testid="history-list">
          {runs.map((s) => (
            <li
              key={s.id}
              className={`history-item${record?.id === s.id ? ' is-open' : ''}`}
              data-testid="history-row"
              data-history-id={s.id}
            >
              <input
                type="checkbox"
                aria-label={`Select ${s.name} for comparing`}
                checked={selected.includes(s.id)}
                data-testid="history-select"
                onChange={(e) => toggle(s.id, e.target.checked)}
              />
              <button
                type="button"
                className="history-item__main"
                data-testid="history-open"
                onClick={() => open(s.id)}
              >
                <span className="history-item__title">
                  <span className={`kind kind--${s.kind}`}>{KIND_LABELS[s.kind]}</span>
                  {isBaseline(s.id) && (
                    <span className="kind kind--baseline" data-testid="history-baseline-badge">
                      Baseline
                    </span>
                  )}
                  <span className="history-item__name" data-testid="history-name">
                    {s.name}
                  </span>
                </span>
                <span className="history-item__ran" data-testid="history-ran">
                  {s.ran}
                </span>
                <span className="history-item__meta muted small">
                  {formatWhen(s.createdAt)} · <RecordStatus summary={s} /> ·{' '}
                  {s.kind === 'run'
                    ? s.perTarget
                        .map((t) => `${t.target} ${t.rps === null ? '–' : `${formatRateValue(t.rps)} req/s`}`)
                        .join(' · ')
                    : s.kind === 'capacity'
                      ? `${s.perTarget.map((t) => `${t.target}: ${t.answer ?? 'not measured'}`).join(' · ')} · ${s.results} step${s.results === 1 ? '' : 's'}`
                      : `${s.targets.join(' vs ')} · ${s.results} runs`}
                </span>
              </button>
              <ActionButtons
                className="history-item__actions"
                size="xs"
                actions={[
                  isBaseline(s.id)
                    ? {
                        label: 'Unset baseline',
                        testId: 'history-unset-baseline',
                        look: 'ghost',
                        onClick: () => mark(s, false),
                      }
                    : {
                        label: 'Set as baseline',
                        testId: 'history-set-baseline',
                        look: 'ghost',
                        onClick: () => mark(s, true),
                      },
                  { label: 'Rename', testId: 'history-rename', look: 'ghost', onClick: () => setRenaming(s) },
                  { label: 'Delete', testId: 'history-delete', look: 'danger', onClick: () => remove(s) },
                ]}
              />
            </li>
          ))}
        </ul>
        {list.data && (
          <p className="muted small history-dir">
            Kept in <code>{list.data.dir}</code>
            {runs.length > 0 && <> · {formatBytes(runs.reduce((n, r) => n + r.bytes, 0))}</>}
          </p>
        )}
      </aside>
      <div className="results-pane">
        <Alert tone="error" testId="history-error">
          {error}
        </Alert>
        {diff ? (
          <RunDiff
            api={api}
            a={diff[0]}
            b={diff[1]}
            onClose={() => setDiff(null)}
            onSwap={() => setDiff([diff[1], diff[0]])}
          />
        ) : record ? (
          <RecordView
            api={api}
            record={record}
            baselineId={baselineFor(record.id)}
            onOpenDiff={(baseId, id) => {
              setRecord(null);
              setDiff([baseId, id]);
            }}
            onLoadScenario={onLoadScenario}
            onLoadPlan={onLoadPlan}
            onLoadCapacity={onLoadCapacity}
          />
        ) : (
          <section className="welcome card">
            <h1>Saved runs</h1>
            <p>
              Open a run to see its report again and export it. Tick two runs (or two comparisons) and press{' '}
              <strong>Compare selected</strong> to see the change of every figure from the older (A) to the
              newer (B) and whether it is larger than the run-to-run noise.
            </p>
          </section>
        )}
      </div>
      {renaming && (
        <NameDialog
          title="Rename saved run"
          label="Name"
          initial={renaming.name}
          action="Rename"
          error={renameError}
          onSubmit={rename}
          onClose={() => {
            setRenaming(null);
            setRenameError(null);
          }}
        />
      )}
    </main>
  );
}
