import { useCallback, useMemo, useState } from 'react';
import type { CapacityPlan } from '../../shared/capacity/plan.ts';
import type { ComparisonPlan } from '../../shared/comparison/plan.ts';
import type { Scenario } from '../../shared/model/scenario.ts';
import type { UiSettings } from '../../shared/records/settings.ts';
import type { ScenarioDraft } from '../editor/draft.ts';
import { defaultDraft } from '../editor/draft.ts';
import { draftFromScenario } from '../views/Presets/scenarioDraft.ts';
import {
  checkCapacityDraft,
  defaultCapacityDraft,
  draftFromCapacityPlan,
  type CapacityDraft,
} from '../views/Capacity/capacityDraft.ts';
import {
  checkPlanDraft,
  defaultPlanDraft,
  draftFromPlan,
  type PlanDraft,
} from '../views/Compare/planDraft.ts';
import { useEdited } from './useEdited.ts';

/** A preset's name and description, shown over the draft it opened. */
export type DraftSource = { name: string; description: string } | null;

/** The Run draft the page starts with: the kept one, else the blank form. */
export function startRunDraft(settings: UiSettings): ScenarioDraft {
  const kept = settings.drafts.run;
  return kept ? draftFromScenario(kept.content) : defaultDraft();
}

/**
 * The Compare and Capacity drafts, started from the kept ones: each with the preset it came
 * from, whether it was edited since (useEdited) and its plan when it validates (what is kept);
 * whether the Run draft (the editor's) was edited; the ways to open a scenario or plan into
 * them (unedited until the person changes it); the matrix's column choice.
 */
export function useWorkDrafts(
  settings: UiSettings,
  run: { draft: ScenarioDraft; update: (change: (d: ScenarioDraft) => ScenarioDraft) => void },
) {
  const runEdited = useEdited(run.draft, settings.drafts.run?.edited ?? false);
  const { settle: settleRun } = runEdited;
  const { update: updateRun } = run;
  const [plan, setPlan] = useState<PlanDraft>(() =>
    settings.drafts.compare ? draftFromPlan(settings.drafts.compare.content) : defaultPlanDraft(),
  );
  const [planSource, setPlanSource] = useState<DraftSource>(null);
  const planEdited = useEdited(plan, settings.drafts.compare?.edited ?? false);
  const planCheck = useMemo(() => checkPlanDraft(plan), [plan]);

  const [capacity, setCapacity] = useState<CapacityDraft>(() =>
    settings.drafts.capacity
      ? draftFromCapacityPlan(settings.drafts.capacity.content)
      : defaultCapacityDraft(),
  );
  const [capacitySource, setCapacitySource] = useState<DraftSource>(null);
  const capacityEdited = useEdited(capacity, settings.drafts.capacity?.edited ?? false);
  const capacityCheck = useMemo(() => checkCapacityDraft(capacity), [capacity]);

  const [matrixColumns, setMatrixColumns] = useState(settings.matrixColumns);
  const columnChoice = useMemo(
    () => ({ columns: matrixColumns, onColumns: setMatrixColumns }),
    [matrixColumns],
  );

  const { settle: settlePlan } = planEdited;
  const { settle: settleCapacity } = capacityEdited;
  const openRun = useCallback(
    (scenario: Scenario) => {
      const next = draftFromScenario(scenario);
      updateRun(() => next);
      settleRun(next);
    },
    [updateRun, settleRun],
  );
  const openPlan = useCallback(
    (p: ComparisonPlan) => {
      const next = draftFromPlan(p);
      setPlan(next);
      settlePlan(next);
      setPlanSource(null);
    },
    [settlePlan],
  );
  const openCapacity = useCallback(
    (p: CapacityPlan) => {
      const next = draftFromCapacityPlan(p);
      setCapacity(next);
      settleCapacity(next);
      setCapacitySource(null);
    },
    [settleCapacity],
  );

  return {
    run: { ...runEdited, open: openRun },
    columnChoice,
    plan: {
      draft: plan,
      set: setPlan,
      source: planSource,
      setSource: setPlanSource,
      ...planEdited,
      open: openPlan,
      content: planCheck.ok ? planCheck.plan : null,
    },
    capacity: {
      draft: capacity,
      set: setCapacity,
      source: capacitySource,
      setSource: setCapacitySource,
      ...capacityEdited,
      open: openCapacity,
      content: capacityCheck.ok ? capacityCheck.plan : null,
    },
  };
}
