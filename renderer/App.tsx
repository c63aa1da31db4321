import { useCallback, useMemo, useState } from 'react';
import type { TrebuchetApi } from '../shared/contract/api.ts';
import type { ComparisonPlan } from '../shared/comparison/plan.ts';
import type { Preset } from '../shared/records/presets.ts';
import type { RunResult } from '../shared/model/result.ts';
import type { Scenario } from '../shared/model/scenario.ts';
import { Alert } from './components/Alert.tsx';
import { RunStopButton } from './components/RunStopButton.tsx';
import { ScenarioEditor } from './editor/ScenarioEditor.tsx';
import { useScenarioDraft } from './editor/useScenarioDraft.ts';
import { refusedFields } from './lib/errors.ts';
import { LiveCharts } from './live/LiveCharts.tsx';
import { RunPanels } from './live/RunPanels.tsx';
import { ReportDetails, ReportSummary } from './report/Report.tsx';
import { isBusy } from './jobs/jobStore.ts';
import { useJob } from './jobs/useJob.ts';
import { RunPanel } from './run/RunPanel.tsx';
import { RunVsBaseline } from './run/RunVsBaseline.tsx';
import { Welcome } from './run/Welcome.tsx';
import { ShardsChoice } from './run/ShardsChoice.tsx';
import { useKubeConfirm } from './run/useKubeConfirm.tsx';
import { defaultShardsDraft, placementOf, type ShardsDraft } from './run/shards.ts';
import { RUN_VIEW } from './run/runJob.ts';
import { runShortcutLabel } from './run/shortcuts.ts';
import { shownTarget } from './run/targetStatus.ts';
import { useShortcuts } from './run/useShortcuts.ts';
import type { CapacityPlan } from '../shared/capacity/plan.ts';
import { CapacityView } from './views/Capacity/CapacityView.tsx';
import { draftFromComparison } from './views/Capacity/capacityDraft.ts';
import { CAPACITY_VIEW } from './views/Capacity/capacityRun.ts';
import { CompareView } from './views/Compare/CompareView.tsx';
import { defaultUiSettings, type UiSettings } from '../shared/records/settings.ts';
import { MatrixColumnsContext } from './settings/matrixColumns.ts';
import { MetricsOutButton } from './settings/MetricsOutButton.tsx';
import { ReplaceDraftDialog } from './settings/ReplaceDraftDialog.tsx';
import { useKeptSettings } from './settings/useSettingsSaver.ts';
import { useSettledWhileRunning } from './settings/useEdited.ts';
import { startRunDraft, useWorkDrafts } from './settings/useWorkDrafts.ts';
import { COMPARISON_VIEW } from './views/Compare/comparisonRun.ts';
import { SavedNote } from './components/SavedNote.tsx';
import { StoreProblems } from './components/StoreProblems.tsx';
import { useStartupProblems } from './components/useStartupProblems.ts';
import { ViewTabs, type View } from './components/ViewTabs.tsx';
import { aboutTarget } from './views/Export/chartSubject.ts';
import { ResultExports } from './views/Export/ResultExports.tsx';
import { HistoryView } from './views/History/HistoryView.tsx';
import { useHistoryOpen } from './views/History/useHistoryOpen.ts';
import { PresetsView } from './views/Presets/PresetsView.tsx';
import { SavePresetButton } from './views/Presets/SavePresetButton.tsx';
import { SeedPresets } from './views/Presets/SeedPresets.tsx';
import './App.css';

const isResult = (r: RunResult | null): r is RunResult => r !== null;
/** Without kept settings (a test), the app starts as a fresh install. */
const START = defaultUiSettings();

/**
 * The window: five views under one top bar. Run: scenario editor on the left; run progress,
 * live charts and the report on the right. Compare: the comparison editor and its report.
 * Capacity: servers and a latency goal, the search's steps, knee and answer. History and
 * Presets: what was kept. Jobs go on while another view is shown.
 */
export function App({ api, settings = START }: { api: TrebuchetApi; settings?: UiSettings }) {
  const editor = useScenarioDraft(() => startRunDraft(settings));
  const [picked, setPicked] = useState<number | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [view, setView] = useState<View>(settings.view);
  const work = useWorkDrafts(settings, editor);
  const { run: runWork, plan: compareWork, capacity: capacityWork } = work;
  const { open: openRunDraft, settle: settleRun } = runWork;
  const {
    open: openPlanDraft,
    set: setPlanDraft,
    setSource: setPlanSource,
    settle: settlePlan,
  } = compareWork;
  const { open: openCapacityDraft, set: setCapacityDraft, setSource: setCapacitySource } = capacityWork;
  const { settle: settleCapacity } = capacityWork;
  const [replacing, setReplacing] = useState<Preset | null>(null);
  const [shardsDraft, setShardsDraft] = useState<ShardsDraft>(defaultShardsDraft);
  // After a reload, the job taken up again shows its own scenario or plan.
  const adoptScenario = openRunDraft;
  const editorRefused = useCallback(
    // A file the host cannot read (a body file that does not exist): said at its field.
    (e: unknown) => editor.showRefused(refusedFields(e, 'plan')),
    [editor],
  );
  const runJob = useJob(api, RUN_VIEW, adoptScenario, editorRefused);
  const { state: run, store: runStore } = runJob;
  const adoptPlan = useCallback(
    (plan: ComparisonPlan) => {
      openPlanDraft(plan);
      // With no run going on, the comparison is what the page was showing.
      setView((v) => (v === 'run' && runStore.getState().phase === 'idle' ? 'compare' : v));
    },
    [runStore, openPlanDraft],
  );
  const adoptCapacity = useCallback(
    (plan: CapacityPlan) => {
      openCapacityDraft(plan);
      setView((v) => (v === 'run' && runStore.getState().phase === 'idle' ? 'capacity' : v));
    },
    [runStore, openCapacityDraft],
  );
  const comparison = useJob(api, COMPARISON_VIEW, adoptPlan);
  const capacity = useJob(api, CAPACITY_VIEW, adoptCapacity);
  const history = useHistoryOpen(setView);
  const startupProblems = useStartupProblems(api);
  const [problemsSeen, setProblemsSeen] = useState(false);

  const { start: startPlaced, dialog: kubeDialog } = useKubeConfirm(api, setNotice);
  const active = isBusy(run.phase);
  const check = editor.check;
  const canRun = check.ok && !active;
  const firstIssue = check.ok ? null : check.list[0];

  const start = useCallback((): boolean => {
    if (active) return false;
    if (!check.ok) {
      editor.revealAll();
      return true;
    }
    const placed = placementOf(shardsDraft);
    if (!placed.ok) {
      setNotice(placed.message);
      return true;
    }
    setPicked(null);
    setNotice(null);
    return startPlaced(placed.placement, (shards) => runJob.start(check.scenario, shards));
  }, [active, check, editor, runJob, shardsDraft, startPlaced]);
  const stop = runJob.stop;
  // The pre-flight's error status, measured on purpose: what ran, again, with the check off.
  const runAnyway = () => {
    if (!run.plan || active) return;
    editor.update((d) => ({ ...d, checkStatus: false }));
    setPicked(null);
    const placed = placementOf(shardsDraft);
    const plan = { ...run.plan, options: { ...run.plan.options, checkStatus: false } };
    startPlaced(placed.ok ? placed.placement : undefined, (shards) => runJob.start(plan, shards));
  };

  // The keys act on the run view only; elsewhere they keep their usual meaning.
  useShortcuts({ run: () => view === 'run' && start(), stop: () => view === 'run' && stop() });

  const comparing = isBusy(comparison.state.phase);
  const searching = isBusy(capacity.state.phase);
  useSettledWhileRunning(active, editor.draft, settleRun);
  useSettledWhileRunning(comparing, compareWork.draft, settlePlan);
  useSettledWhileRunning(searching, capacityWork.draft, settleCapacity);

  const loadScenario = useCallback(
    (scenario: Scenario) => {
      if (active) {
        setNotice('Stop the run before opening another scenario.');
      } else {
        openRunDraft(scenario);
        setNotice(null);
      }
      setView('run');
    },
    [active, openRunDraft],
  );
  const loadPlan = useCallback(
    (plan: ComparisonPlan) => {
      if (!comparing) {
        openPlanDraft(plan);
        comparison.reset();
      }
      setView('compare');
    },
    [comparing, comparison, openPlanDraft],
  );
  const loadCapacity = useCallback(
    (plan: CapacityPlan) => {
      if (!searching) {
        openCapacityDraft(plan);
        capacity.reset();
      }
      setView('capacity');
    },
    [searching, capacity, openCapacityDraft],
  );
  // A comparison's servers and protocols, one search each, with the goal the Capacity mode holds.
  const findCapacity = (plan: ComparisonPlan) => {
    if (!searching) {
      setCapacityDraft((d) => draftFromComparison(plan, d));
      setCapacitySource(null);
      capacity.reset();
    }
    setView('capacity');
  };
  const openPresetNow = (preset: Preset) => {
    setReplacing(null);
    if (preset.kind === 'scenario') return loadScenario(preset.scenario);
    const source = { name: preset.name, description: preset.description };
    if (preset.kind === 'capacity') {
      loadCapacity(preset.plan);
      if (!searching) setCapacitySource(source);
      return;
    }
    loadPlan(preset.plan);
    if (!comparing) setPlanSource(source);
  };
  // A preset replaces the draft of its kind (unless that kind's job is running): an edited,
  // unsaved draft is not replaced without asking.
  const replaces = (preset: Preset): boolean =>
    preset.kind === 'scenario'
      ? runWork.edited && !active
      : preset.kind === 'capacity'
        ? capacityWork.edited && !searching
        : compareWork.edited && !comparing;
  const openPreset = (preset: Preset) => (replaces(preset) ? setReplacing(preset) : openPresetNow(preset));
  const keepEditing = (preset: Preset) => {
    setReplacing(null);
    setView(preset.kind === 'scenario' ? 'run' : preset.kind === 'capacity' ? 'capacity' : 'compare');
  };

  useKeptSettings(api, settings, { view, run: check.ok ? check.scenario : null, work });
  const openHistory = history.open;

  const shown = shownTarget(run, picked);
  const savedId = run.saved?.historyId ?? null;
  const saveError = run.saved?.error ?? null;
  const shownResult = shown === null ? null : (run.results[shown] ?? null);
  const runKey = runShortcutLabel(navigator.platform);
  // A finished target without a single sample (refused before any load) has no timeline to draw.
  const hasTimeline = shown !== null && (shownResult === null || runStore.feeds.engine.all(shown).length > 0);
  const shownTargetSpec = shown === null ? undefined : run.plan?.targets[shown];
  const load = run.plan?.load;
  const startedAt = shownResult?.startedAt;
  // Until the target has a result, the charts are of now.
  const chartAbout = useMemo(
    () => (shownTargetSpec && load ? aboutTarget(shownTargetSpec, load, startedAt ?? new Date()) : null),
    [shownTargetSpec, load, startedAt],
  );

  const page = (
    <div className="app">
      <header className="topbar">
        <div className="brand">
          <span className="brand__mark" aria-hidden="true" />
          <span className="brand__name">Trebuchet</span>
        </div>
        <ViewTabs
          view={view}
          onChange={setView}
          busy={{ run: active, compare: comparing, capacity: searching }}
        />
        <MetricsOutButton api={api} initial={settings.metrics} />
        {view === 'run' && (
          <>
            <input
              className="input input--ghost topbar__name"
              aria-label="Scenario name"
              value={editor.draft.name}
              disabled={active}
              data-testid="scenario-name"
              onChange={(e) => editor.update((d) => ({ ...d, name: e.target.value }))}
            />
            <div className="topbar__actions">
              <SavePresetButton
                api={api}
                content={check.ok ? { kind: 'scenario', scenario: check.scenario } : null}
                defaultName={editor.draft.name}
                onSaved={() => settleRun(editor.draft)}
                testId="save-scenario-preset"
              />
              {!canRun && !active && firstIssue && (
                <span className="topbar__hint" data-testid="run-blocked">
                  {firstIssue.path === 'targets.0.url' && editor.draft.targets[0]?.url.trim() === ''
                    ? 'Type a target URL to run'
                    : 'Fix the highlighted fields to run'}
                </span>
              )}
              <RunStopButton
                active={active}
                stopping={run.phase === 'stopping'}
                canRun={canRun}
                onRun={start}
                onStop={stop}
                runLabel="Run"
                testIds={{ run: 'run-button', stop: 'stop-button' }}
                keys={{ run: runKey, stop: 'Esc' }}
              />
            </div>
          </>
        )}
      </header>

      {startupProblems.length > 0 && !problemsSeen && (
        <div className="app-problems">
          <StoreProblems problems={startupProblems} />
          <button type="button" className="btn btn--ghost btn--sm" onClick={() => setProblemsSeen(true)}>
            Dismiss
          </button>
        </div>
      )}

      {view === 'compare' && (
        <CompareView
          api={api}
          draft={compareWork.draft}
          onDraftChange={setPlanDraft}
          onSaved={() => settlePlan(compareWork.draft)}
          run={comparison}
          onOpenHistory={openHistory}
          source={compareWork.source}
          onFindCapacity={findCapacity}
        />
      )}
      {view === 'capacity' && (
        <CapacityView
          api={api}
          draft={capacityWork.draft}
          onDraftChange={setCapacityDraft}
          onSaved={() => settleCapacity(capacityWork.draft)}
          run={capacity}
          onOpenHistory={openHistory}
          source={capacityWork.source}
        />
      )}
      {view === 'history' && (
        <HistoryView
          api={api}
          toOpen={history.toOpen}
          onOpened={history.clear}
          onLoadScenario={loadScenario}
          onLoadPlan={loadPlan}
          onLoadCapacity={loadCapacity}
        />
      )}
      {view === 'presets' && <PresetsView api={api} onOpen={openPreset} />}
      {view === 'run' && (
        <main className="workspace">
          <aside className="editor-pane" aria-label="Scenario">
            <ScenarioEditor state={editor} disabled={active} />
            <ShardsChoice api={api} draft={shardsDraft} onChange={setShardsDraft} disabled={active} />
          </aside>

          <div className="results-pane">
            <Alert tone="error" testId="run-failed">
              {run.errors.length > 0 ? run.errors.map((e) => e.message).join(' ') : null}
            </Alert>
            <Alert tone="warn">{notice}</Alert>
            {kubeDialog}
            {run.phase === 'idle' ? (
              <Welcome runKey={runKey} seeds={<SeedPresets api={api} onOpen={openPreset} />} />
            ) : (
              <>
                <RunPanel state={run} shown={shown} onPick={setPicked} />
                {shownResult && <ReportSummary result={shownResult} onRunAnyway={runAnyway} />}
                <RunVsBaseline api={api} historyId={savedId} onOpenDiff={openHistory} />
                {hasTimeline && chartAbout && (
                  <LiveCharts
                    feeds={runStore.feeds}
                    targetIndex={shown}
                    generation={run.generation}
                    about={chartAbout}
                    load={run.plan?.load ?? null}
                  />
                )}
                {shown !== null && chartAbout && (
                  <RunPanels
                    feeds={runStore.feeds}
                    targetIndex={shown}
                    generation={run.generation}
                    about={chartAbout}
                    monitor={shownTargetSpec?.monitor}
                    live={run.live[shown]}
                    resources={shownResult?.serverResources}
                  />
                )}
                {shown !== null && <ReportDetails results={run.results} shown={shown} />}
                {run.phase === 'done' && run.results.some(isResult) && (
                  <>
                    <ResultExports results={run.results.filter(isResult)} name={run.plan?.name ?? 'run'} />
                    <SavedNote
                      historyId={savedId}
                      error={saveError}
                      testId="run-saved"
                      onOpen={openHistory}
                    />
                  </>
                )}
              </>
            )}
          </div>
        </main>
      )}
      {replacing && (
        <ReplaceDraftDialog
          preset={replacing}
          onReplace={() => openPresetNow(replacing)}
          onKeep={() => keepEditing(replacing)}
        />
      )}
    </div>
  );
  return <MatrixColumnsContext.Provider value={work.columnChoice}>{page}</MatrixColumnsContext.Provider>;
}
