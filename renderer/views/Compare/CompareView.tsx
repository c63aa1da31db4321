import { useMemo, useState } from 'react';
import type { TrebuchetApi } from '../../../shared/contract/api.ts';
import type { ComparisonPlan } from '../../../shared/comparison/plan.ts';
import type { PreflightFix } from '../../../shared/model/preflight.ts';
import { caFileInputId } from '../../editor/OptionsEditors.tsx';
import { JobTab } from '../../components/JobTab.tsx';
import { RunStopButton } from '../../components/RunStopButton.tsx';
import { isBusy } from '../../jobs/jobStore.ts';
import type { Job } from '../../jobs/useJob.ts';
import { SavedNote } from '../../components/SavedNote.tsx';
import { SavePresetButton } from '../Presets/SavePresetButton.tsx';
import { ComparisonResults } from './ComparisonResults.tsx';
import { MatrixProgress } from './MatrixProgress.tsx';
import { PlanEditor } from './PlanEditor.tsx';
import { checkPlanDraft, withPreflightFix, type PlanDraft } from './planDraft.ts';
import { PreflightFailures } from './PreflightFailures.tsx';
import { RerunBusy } from './RerunBusy.tsx';
import { comparisonRun, type ComparisonSlice } from './comparisonRun.ts';
import './compare.css';

interface CompareViewProps {
  api: TrebuchetApi;
  draft: PlanDraft;
  onDraftChange: (change: (d: PlanDraft) => PlanDraft) => void;
  /** The draft was saved as a preset (it is no longer unsaved). */
  onSaved?: () => void;
  run: Job<'comparison', ComparisonSlice>;
  /** Shows a saved run (the finished comparison) in History. */
  onOpenHistory: (historyId: string) => void;
  /** The preset the draft came from, whose description says what to fill in. */
  source: { name: string; description: string } | null;
  /** Opens the plan's targets and protocols in the Capacity mode, one search each. */
  onFindCapacity: (plan: ComparisonPlan) => void;
}

/** Comparison editor on the left; the matrix's progress and the side-by-side report on the right. */
export function CompareView({
  api,
  draft,
  onDraftChange,
  onSaved,
  run,
  onOpenHistory,
  source,
  onFindCapacity,
}: CompareViewProps) {
  const check = useMemo(() => checkPlanDraft(draft), [draft]);
  const [revealed, setRevealed] = useState(false);
  const state = useMemo(() => comparisonRun(run.state), [run.state]);
  // The cell run whose full report is open, of the comparison shown.
  const [openedRun, setOpened] = useState<{ comparison: string | null; cellIndex: number } | null>(null);
  const opened = openedRun?.comparison === state.comparisonId ? openedRun.cellIndex : null;
  const open = (cellIndex: number | null) =>
    setOpened(cellIndex === null ? null : { comparison: state.comparisonId, cellIndex });
  const active = isBusy(state.phase);

  const start = () => {
    if (!check.ok) {
      setRevealed(true);
      return;
    }
    run.start(check.plan);
  };

  // A fix for what the pre-flight found: applied to the plan, and the comparison runs again;
  // a CA file is the person's to give, so its field gets the focus.
  const fix = (f: PreflightFix) => {
    if (f === 'choose-ca-file') {
      const field = document.getElementById(caFileInputId('plan-tls'));
      field?.focus();
      field?.scrollIntoView({ block: 'center' });
      return;
    }
    const next = withPreflightFix(draft, f);
    onDraftChange(() => next);
    const fixed = checkPlanDraft(next);
    if (fixed.ok) run.start(fixed.plan);
    else setRevealed(true);
  };

  return (
    <JobTab
      testId="compare-view"
      label="Comparison"
      toolbar={
        <>
          <SavePresetButton
            api={api}
            content={check.ok ? { kind: 'comparison', plan: check.plan } : null}
            defaultName={draft.name}
            onSaved={onSaved}
            testId="save-comparison-preset"
          />
          <button
            type="button"
            className="btn btn--secondary btn--sm"
            data-testid="compare-find-capacity"
            title="A capacity search per server and protocol: the highest rate each holds within a p99 goal"
            disabled={!check.ok}
            onClick={() => check.ok && onFindCapacity(check.plan)}
          >
            Find capacity…
          </button>
          <RunStopButton
            active={active}
            stopping={state.phase === 'stopping'}
            onRun={start}
            onStop={run.stop}
            runLabel="Run comparison"
            testIds={{ run: 'compare-run', stop: 'compare-stop' }}
          />
        </>
      }
      editor={
        <PlanEditor
          draft={draft}
          check={check}
          onChange={onDraftChange}
          revealed={revealed}
          disabled={active}
        />
      }
      idle={state.phase === 'idle'}
      welcome={<CompareWelcome />}
      preset={{ source, testId: 'compare-source' }}
    >
      {state.preflight.length > 0 ? (
        <PreflightFailures failures={state.preflight} onFix={fix} />
      ) : (
        <MatrixProgress state={state} onOpenRun={open} />
      )}
      {state.phase === 'done' && (
        <SavedNote historyId={state.historyId} testId="comparison-saved" onOpen={onOpenHistory} />
      )}
      {state.phase === 'done' && state.plan && (
        <RerunBusy
          outcomes={state.outcomes}
          historyId={state.historyId}
          onRerun={(cells) =>
            state.plan &&
            state.historyId &&
            run.start(state.plan, undefined, { historyId: state.historyId, cells })
          }
        />
      )}
      {state.plan && state.outcomes.length > 0 && (
        <ComparisonResults
          plan={state.plan}
          outcomes={state.outcomes}
          status={state.status}
          opened={opened}
          onOpen={open}
        />
      )}
    </JobTab>
  );
}

function CompareWelcome() {
  return (
    <section className="welcome card" data-testid="compare-welcome">
      <h1>Compare servers side by side</h1>
      <ol>
        <li>Name each server and give its URL for every protocol you compare (http, https, h2).</li>
        <li>
          List the load levels, e.g. <code>10, 100, 1000</code> connections, or rates for the open model.
        </li>
        <li>
          Choose repetitions (2 or more tell a real difference from run-to-run noise), then press{' '}
          <strong>Run comparison</strong>.
        </li>
      </ol>
      <p className="muted small">
        Cells run one after another, never at once, so servers do not compete for the machine. Start from a
        built-in preset under Presets to reproduce a seed article's experiment against your own servers.
      </p>
    </section>
  );
}
