import { useMemo, useState } from 'react';
import type { TrebuchetApi } from '../../../shared/contract/api.ts';
import { rateText } from '../../../shared/capacity/search.ts';
import { targetLabel } from '../../../shared/model/scenario.ts';
import { Alert } from '../../components/Alert.tsx';
import { JobTab } from '../../components/JobTab.tsx';
import { RunStopButton } from '../../components/RunStopButton.tsx';
import { SavedNote } from '../../components/SavedNote.tsx';
import { formatLiveRate } from '../../../shared/figures/units.ts';
import { isBusy } from '../../jobs/jobStore.ts';
import type { Job } from '../../jobs/useJob.ts';
import { SavePresetButton } from '../Presets/SavePresetButton.tsx';
import { CapacityEditor } from './CapacityEditor.tsx';
import { checkCapacityDraft, type CapacityDraft } from './capacityDraft.ts';
import { CapacityResults } from './CapacityResults.tsx';
import { capacityRun, reportsOf, type CapacityRunState, type CapacitySlice } from './capacityRun.ts';
import './capacity.css';

interface CapacityViewProps {
  api: TrebuchetApi;
  draft: CapacityDraft;
  onDraftChange: (change: (d: CapacityDraft) => CapacityDraft) => void;
  /** The draft was saved as a preset (it is no longer unsaved). */
  onSaved?: () => void;
  run: Job<'capacity', CapacitySlice>;
  /** Shows the saved search in History. */
  onOpenHistory: (historyId: string) => void;
  /** The preset the draft came from, whose description says what to fill in. */
  source: { name: string; description: string } | null;
}

/** The Capacity mode: servers and a goal on the left; the steps, the knee and the answer on the right. */
export function CapacityView({
  api,
  draft,
  onDraftChange,
  onSaved,
  run,
  onOpenHistory,
  source,
}: CapacityViewProps) {
  const check = useMemo(() => checkCapacityDraft(draft), [draft]);
  const [revealed, setRevealed] = useState(false);
  const state = useMemo(() => capacityRun(run.state), [run.state]);
  const active = isBusy(state.phase);
  const reports = useMemo(() => reportsOf(state), [state]);
  const start = () => {
    if (!check.ok) {
      setRevealed(true);
      return;
    }
    run.start(check.plan);
  };
  return (
    <JobTab
      testId="capacity-view"
      label="Capacity search"
      toolbar={
        <>
          <SavePresetButton
            api={api}
            content={check.ok ? { kind: 'capacity', plan: check.plan } : null}
            defaultName={draft.name}
            onSaved={onSaved}
            testId="save-capacity-preset"
          />
          <RunStopButton
            active={active}
            stopping={state.phase === 'stopping'}
            onRun={start}
            onStop={run.stop}
            runLabel="Find capacity"
            testIds={{ run: 'capacity-run', stop: 'capacity-stop' }}
          />
        </>
      }
      editor={
        <CapacityEditor
          draft={draft}
          check={check}
          onChange={onDraftChange}
          revealed={revealed}
          disabled={active}
        />
      }
      alerts={state.errors.map((e) => (
        <Alert key={e} tone="error" testId="capacity-error">
          {e}
        </Alert>
      ))}
      idle={state.phase === 'idle'}
      welcome={<CapacityWelcome />}
      preset={{ source, testId: 'capacity-source' }}
    >
      <CapacityProgress state={state} />
      {state.phase === 'done' && (
        <SavedNote historyId={state.historyId} testId="capacity-saved" onOpen={onOpenHistory} />
      )}
      {state.plan && state.steps.length > 0 && (
        <CapacityResults
          result={{ plan: state.plan, status: state.status, steps: state.steps }}
          reports={reports}
          running={state.phase === 'done' ? null : state.searchIndex}
          name={state.plan.name}
        />
      )}
    </JobTab>
  );
}

/** Where the job stands: the search and step running now with its live rate, or how it ended. */
function CapacityProgress({ state }: { state: CapacityRunState }) {
  const { plan, current } = state;
  if (!plan) return null;
  const label = current ? targetLabel(plan.targets[current.searchIndex] ?? { name: '', url: '' }) : null;
  const title = isBusy(state.phase)
    ? state.phase === 'stopping'
      ? 'Stopping'
      : 'Searching'
    : state.status === 'completed'
      ? 'Done'
      : state.status === 'cancelled'
        ? 'Stopped'
        : state.status === 'interrupted'
          ? 'Interrupted (the host stopped)'
          : 'Failed';
  return (
    <section
      className="card capacity-progress"
      data-testid="capacity-progress"
      data-phase={state.phase}
      data-steps={state.steps.length}
    >
      <h2 className="capacity-progress__title">
        {title}
        <span className="muted">
          {' '}
          · {state.steps.length} step{state.steps.length === 1 ? '' : 's'} measured
        </span>
      </h2>
      {current && label !== null && (
        <p className="muted small" data-testid="capacity-current">
          {label} · step {current.stepIndex + 1} · {rateText(current.rate)} ({current.phase})
          {current.rps !== null && <> · now {formatLiveRate(current.rps)} req/s</>}
        </p>
      )}
      {state.machine !== null && (
        <p className="small" data-testid="capacity-machine">
          {label ?? targetLabel(plan.targets[state.searchIndex] ?? { name: '', url: '' })}: {state.machine}
        </p>
      )}
    </section>
  );
}

function CapacityWelcome() {
  return (
    <section className="welcome card" data-testid="capacity-welcome">
      <h1>How much can each server take?</h1>
      <ol>
        <li>Name each server and give its URL.</li>
        <li>
          Set the goal: a p99 latency (e.g. <code>10</code> ms) and the share of errors allowed.
        </li>
        <li>
          Press <strong>Find capacity</strong>: each server gets open-model steps until the highest rate that
          holds the goal is known within 5%.
        </li>
      </ol>
      <p className="muted small">
        The answer reads &ldquo;nginx holds N req/s, Apache M req/s at p99 &lt; 10 ms&rdquo;, with the knee
        (latency against throughput) and every step&rsquo;s run. When the load generator, not the server, is
        the limit, the answer says &ldquo;at least&rdquo; and why.
      </p>
    </section>
  );
}
