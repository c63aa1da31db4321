import { useMemo } from 'react';
import type { TrebuchetApi } from '../../../shared/contract/api.ts';
import type { RunResult } from '../../../shared/model/result.ts';
import type { Preset } from '../../../shared/records/presets.ts';
import { Alert } from '../../components/Alert.tsx';
import { JobTab } from '../../components/JobTab.tsx';
import { SavedNote } from '../../components/SavedNote.tsx';
import { ScenarioEditor } from '../../editor/ScenarioEditor.tsx';
import { LiveCharts } from '../../live/LiveCharts.tsx';
import { RunPanels } from '../../live/RunPanels.tsx';
import { ReportDetails, ReportSummary } from '../../report/Report.tsx';
import { aboutTarget } from '../../charts/chartSubject.ts';
import { ResultExports } from '../../export/ResultExports.tsx';
import { SeedPresets } from '../Presets/SeedPresets.tsx';
import { RunPanel } from './RunPanel.tsx';
import { RunVsBaseline } from './RunVsBaseline.tsx';
import { ShardsChoice } from './ShardsChoice.tsx';
import { runShortcutLabel } from '../../lib/shortcuts.ts';
import { shownTarget } from './targetStatus.ts';
import type { RunTab } from './useRunTab.ts';
import { useShortcuts } from './useShortcuts.ts';
import { Welcome } from './Welcome.tsx';

const isResult = (r: RunResult | null): r is RunResult => r !== null;

interface RunViewProps {
  api: TrebuchetApi;
  tab: RunTab;
  /** A seed preset picked on the welcome screen. */
  onOpenPreset: (preset: Preset) => void;
  /** Shows a saved run in History (with base: its diff against that run). */
  onOpenHistory: (historyId: string, base?: string) => void;
}

/**
 * The Run tab: the scenario editor and where it runs on the left; on the right the run's
 * progress, the shown target's summary and its diff against the baseline, live charts, the
 * server's and machine's panels, the report and its exports. Ctrl+Enter (⌘↵) runs and Escape
 * stops while it is shown.
 */
export function RunView({ api, tab, onOpenPreset, onOpenHistory }: RunViewProps) {
  const { editor, job, active } = tab;
  const { state: run, store: runStore } = job;
  // The keys act on the run view only; elsewhere they keep their usual meaning.
  useShortcuts({ run: tab.start, stop: tab.stop });

  const shown = shownTarget(run, tab.picked);
  const savedId = run.saved?.historyId ?? null;
  const shownResult = shown === null ? null : (run.results[shown] ?? null);
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

  return (
    <JobTab
      label="Scenario"
      editor={
        <>
          <ScenarioEditor state={editor} disabled={active} />
          <ShardsChoice api={api} draft={tab.shards.draft} onChange={tab.shards.set} disabled={active} />
        </>
      }
      alerts={
        <>
          <Alert tone="error" testId="run-failed">
            {run.errors.length > 0 ? run.errors.map((e) => e.message).join(' ') : null}
          </Alert>
          <Alert tone="warn">{tab.notice}</Alert>
          {tab.kubeDialog}
        </>
      }
      idle={run.phase === 'idle'}
      welcome={
        <Welcome
          runKey={runShortcutLabel(navigator.platform)}
          seeds={<SeedPresets api={api} onOpen={onOpenPreset} />}
        />
      }
    >
      <RunPanel state={run} shown={shown} onPick={tab.setPicked} />
      {shownResult && <ReportSummary result={shownResult} onRunAnyway={tab.runAnyway} />}
      <RunVsBaseline api={api} historyId={savedId} onOpenDiff={onOpenHistory} />
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
            error={run.saved?.error ?? null}
            testId="run-saved"
            onOpen={onOpenHistory}
          />
        </>
      )}
    </JobTab>
  );
}
