import { useCallback, useMemo, useState } from 'react';
import { checkDraft, defaultDraft, type DraftCheck, type ScenarioDraft } from './draft.ts';
import { useTouchedIssues, type FieldIssues } from './issues.ts';

export interface ScenarioDraftState {
  draft: ScenarioDraft;
  update: (change: (d: ScenarioDraft) => ScenarioDraft) => void;
  check: DraftCheck;
  issues: FieldIssues;
  /** Shows every field's message, touched or not (a run was attempted with errors). */
  revealAll: () => void;
}

/**
 * The editor's state: the draft, its validation by the shared schema on every change, and
 * which messages are shown. A field shows its message once edited, so a blank form is not
 * a wall of red.
 */
export function useScenarioDraft(initial: () => ScenarioDraft = defaultDraft): ScenarioDraftState {
  const [draft, update] = useState(initial);
  const [revealed, setRevealed] = useState(false);
  const check = useMemo(() => checkDraft(draft), [draft]);
  const { issues } = useTouchedIssues(check.issues, revealed);
  const revealAll = useCallback(() => setRevealed(true), []);
  // One object per change of its parts, so a memoised editor skips the live run's re-renders.
  return useMemo(
    () => ({ draft, update, check, issues, revealAll }),
    [draft, update, check, issues, revealAll],
  );
}
