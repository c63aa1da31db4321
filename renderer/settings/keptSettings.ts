import type { CapacityPlan } from '../../shared/capacity/plan.ts';
import type { ComparisonPlan } from '../../shared/comparison/plan.ts';
import type { Scenario } from '../../shared/model/scenario.ts';
import { withoutSecrets } from '../../shared/model/secret-headers.ts';
import type { UiSettings } from '../../shared/records/settings.ts';

/** A draft as the page has it now: its content when it validates (null while it does not), and whether it was edited. */
export interface DraftNow<T> {
  content: T | null;
  edited: boolean;
}

/** What the page keeps, as it is now. */
export interface UiNow {
  view: UiSettings['view'];
  matrixColumns: UiSettings['matrixColumns'];
  drafts: { run: DraftNow<Scenario>; compare: DraftNow<ComparisonPlan>; capacity: DraftNow<CapacityPlan> };
}

function keptDraft<T>(now: DraftNow<T>, before: { content: T; edited: boolean } | null) {
  // A draft that does not validate now keeps its last valid form, with the edited flag of now.
  if (now.content === null) return before && { content: before.content, edited: now.edited };
  // Secret header values are not written to the settings (a draft is not a preset, which asks).
  return { content: withoutSecrets(now.content), edited: now.edited };
}

/**
 * What the page keeps of the settings as it goes: all but where live metrics go, which their
 * dialog sets on its own (renderer/settings/MetricsOutButton.tsx).
 */
export type PageSettings = Omit<UiSettings, 'metrics'>;

/** The settings to keep for the page as it is now, given what was kept before. */
export function keptSettings(now: UiNow, before: PageSettings): PageSettings {
  return {
    view: now.view,
    matrixColumns: now.matrixColumns,
    drafts: {
      run: keptDraft(now.drafts.run, before.drafts.run),
      compare: keptDraft(now.drafts.compare, before.drafts.compare),
      capacity: keptDraft(now.drafts.capacity, before.drafts.capacity),
    },
  };
}
