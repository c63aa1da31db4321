import { useState } from 'react';
import type { TrebuchetApi } from '../shared/contract/api.ts';
import type { Preset } from '../shared/records/presets.ts';
import { defaultUiSettings, type UiSettings } from '../shared/records/settings.ts';
import { StoreProblems } from './components/StoreProblems.tsx';
import { useStartupProblems } from './components/useStartupProblems.ts';
import { ViewTabs, type View } from './components/ViewTabs.tsx';
import { MatrixColumnsContext } from './views/Compare/matrixColumns.ts';
import { MetricsOutButton } from './settings/MetricsOutButton.tsx';
import { ReplaceDraftDialog } from './settings/ReplaceDraftDialog.tsx';
import { useKeptSettings } from './settings/useSettingsSaver.ts';
import { presetView, useJobTabs } from './useJobTabs.ts';
import { CapacityView } from './views/Capacity/CapacityView.tsx';
import { CompareView } from './views/Compare/CompareView.tsx';
import { HistoryView } from './views/History/HistoryView.tsx';
import { useHistoryOpen } from './views/History/useHistoryOpen.ts';
import { PresetsView } from './views/Presets/PresetsView.tsx';
import { RunTopbar } from './views/Run/RunTopbar.tsx';
import { RunView } from './views/Run/RunView.tsx';
import './App.css';

/** Without kept settings (a test), the app starts as a fresh install. */
const START = defaultUiSettings();

/**
 * The window: five views under one top bar. Run: scenario editor on the left; run progress,
 * live charts and the report on the right. Compare: the comparison editor and its report.
 * Capacity: servers and a latency goal, the search's steps, knee and answer. History and
 * Presets: what was kept. Jobs go on while another view is shown (useJobTabs).
 */
export function App({ api, settings = START }: { api: TrebuchetApi; settings?: UiSettings }) {
  const [view, setView] = useState<View>(settings.view);
  const tabs = useJobTabs(api, settings, setView);
  const { work, run } = tabs;
  const [replacing, setReplacing] = useState<Preset | null>(null);
  const history = useHistoryOpen(setView);
  const startupProblems = useStartupProblems(api);
  const [problemsSeen, setProblemsSeen] = useState(false);
  const check = run.editor.check;
  useKeptSettings(api, settings, { view, run: check.ok ? check.scenario : null, work });

  const openPresetNow = (preset: Preset) => {
    setReplacing(null);
    tabs.openPreset(preset);
  };
  const openPreset = (preset: Preset) =>
    tabs.replaces(preset) ? setReplacing(preset) : openPresetNow(preset);
  const keepEditing = (preset: Preset) => {
    setReplacing(null);
    setView(presetView(preset));
  };

  const page = (
    <div className="app">
      <header className="topbar">
        <div className="brand">
          <span className="brand__mark" aria-hidden="true" />
          <span className="brand__name">Trebuchet</span>
        </div>
        <ViewTabs view={view} onChange={setView} busy={tabs.busy} />
        <MetricsOutButton api={api} initial={settings.metrics} />
        {view === 'run' && <RunTopbar api={api} tab={run} />}
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
          draft={work.plan.draft}
          onDraftChange={work.plan.set}
          onSaved={() => work.plan.settle(work.plan.draft)}
          run={tabs.comparison}
          onOpenHistory={history.open}
          source={work.plan.source}
          onFindCapacity={tabs.findCapacity}
        />
      )}
      {view === 'capacity' && (
        <CapacityView
          api={api}
          draft={work.capacity.draft}
          onDraftChange={work.capacity.set}
          onSaved={() => work.capacity.settle(work.capacity.draft)}
          run={tabs.capacity}
          onOpenHistory={history.open}
          source={work.capacity.source}
        />
      )}
      {view === 'history' && (
        <HistoryView
          api={api}
          toOpen={history.toOpen}
          onOpened={history.clear}
          onLoadScenario={tabs.openScenario}
          onLoadPlan={tabs.openPlan}
          onLoadCapacity={tabs.openCapacity}
        />
      )}
      {view === 'presets' && <PresetsView api={api} onOpen={openPreset} />}
      {view === 'run' && (
        <RunView api={api} tab={run} onOpenPreset={openPreset} onOpenHistory={history.open} />
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
