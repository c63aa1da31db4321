import { useCallback, type Dispatch, type SetStateAction } from 'react';
import type { TrebuchetApi } from '../shared/contract/api.ts';
import type { CapacityPlan } from '../shared/capacity/plan.ts';
import type { JobKind } from '../shared/contract/jobs.ts';
import type { ComparisonPlan } from '../shared/comparison/plan.ts';
import type { Scenario } from '../shared/model/scenario.ts';
import type { Preset } from '../shared/records/presets.ts';
import type { UiSettings } from '../shared/records/settings.ts';
import type { View } from './components/ViewTabs.tsx';
import { useScenarioDraft } from './editor/useScenarioDraft.ts';
import { isBusy } from './jobs/jobStore.ts';
import { useJob } from './jobs/useJob.ts';
import { useSettledWhileRunning } from './settings/useEdited.ts';
import { startRunDraft, useWorkDrafts } from './settings/useWorkDrafts.ts';
import { draftFromComparison } from './views/Capacity/capacityDraft.ts';
import { CAPACITY_VIEW } from './views/Capacity/capacityRun.ts';
import { COMPARISON_VIEW } from './views/Compare/comparisonRun.ts';
import { useRunTab } from './views/Run/useRunTab.ts';

/** The tab each kind's job runs in, and its presets open in. */
const KIND_VIEWS: { readonly [K in JobKind]: View } = {
  run: 'run',
  comparison: 'compare',
  capacity: 'capacity',
};

/** The tab a preset opens in. */
export const presetView = (preset: Preset): View => KIND_VIEWS[preset.kind];

/**
 * The three tabs that run a job (Run, Compare, Capacity): their drafts and jobs, kept while
 * another view is shown, which of them is busy, and the ways to open a scenario, plan or
 * preset into its tab (a tab whose job runs keeps its draft).
 */
export function useJobTabs(api: TrebuchetApi, settings: UiSettings, setView: Dispatch<SetStateAction<View>>) {
  const editor = useScenarioDraft(() => startRunDraft(settings));
  const work = useWorkDrafts(settings, editor);
  const { plan: compareWork, capacity: capacityWork } = work;
  const run = useRunTab(api, editor, work.run);
  const runStore = run.job.store;
  const { open: openPlanDraft, setSource: setPlanSource, settle: settlePlan } = compareWork;
  const { open: openCapacityDraft, set: setCapacityDraft, setSource: setCapacitySource } = capacityWork;
  const { settle: settleCapacity } = capacityWork;
  // After a reload, the job taken up again shows its own plan; with no run going on, its tab
  // is what the page was showing.
  const adoptPlan = useCallback(
    (plan: ComparisonPlan) => {
      openPlanDraft(plan);
      setView((v) => (v === 'run' && runStore.getState().phase === 'idle' ? 'compare' : v));
    },
    [runStore, openPlanDraft, setView],
  );
  const adoptCapacity = useCallback(
    (plan: CapacityPlan) => {
      openCapacityDraft(plan);
      setView((v) => (v === 'run' && runStore.getState().phase === 'idle' ? 'capacity' : v));
    },
    [runStore, openCapacityDraft, setView],
  );
  const comparison = useJob(api, COMPARISON_VIEW, adoptPlan);
  const capacity = useJob(api, CAPACITY_VIEW, adoptCapacity);

  const comparing = isBusy(comparison.state.phase);
  const searching = isBusy(capacity.state.phase);
  useSettledWhileRunning(run.active, editor.draft, work.run.settle);
  useSettledWhileRunning(comparing, compareWork.draft, settlePlan);
  useSettledWhileRunning(searching, capacityWork.draft, settleCapacity);

  const { open: openInRun } = run;
  const openScenario = useCallback(
    (scenario: Scenario) => {
      openInRun(scenario);
      setView('run');
    },
    [openInRun, setView],
  );
  const openPlan = useCallback(
    (plan: ComparisonPlan) => {
      if (!comparing) {
        openPlanDraft(plan);
        comparison.reset();
      }
      setView('compare');
    },
    [comparing, comparison, openPlanDraft, setView],
  );
  const openCapacity = useCallback(
    (plan: CapacityPlan) => {
      if (!searching) {
        openCapacityDraft(plan);
        capacity.reset();
      }
      setView('capacity');
    },
    [searching, capacity, openCapacityDraft, setView],
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
  const openPreset = (preset: Preset) => {
    if (preset.kind === 'run') return openScenario(preset.scenario);
    const source = { name: preset.name, description: preset.description };
    if (preset.kind === 'capacity') {
      openCapacity(preset.plan);
      if (!searching) setCapacitySource(source);
      return;
    }
    openPlan(preset.plan);
    if (!comparing) setPlanSource(source);
  };
  // A preset replaces the draft of its kind (unless that kind's job is running): an edited,
  // unsaved draft is not replaced without asking.
  const replaces = (preset: Preset): boolean =>
    preset.kind === 'run'
      ? work.run.edited && !run.active
      : preset.kind === 'capacity'
        ? capacityWork.edited && !searching
        : compareWork.edited && !comparing;

  return {
    work,
    run,
    comparison,
    capacity,
    busy: { run: run.active, compare: comparing, capacity: searching },
    openScenario,
    openPlan,
    openCapacity,
    findCapacity,
    openPreset,
    replaces,
  };
}
