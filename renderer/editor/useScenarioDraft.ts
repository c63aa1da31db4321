import { useCallback, useMemo, useState } from 'react';
import type { FieldIssue } from '../../shared/model/validation.ts';
import { checkDraft, defaultDraft, type DraftCheck, type ScenarioDraft } from './draft.ts';
import { fieldPaths } from './fieldPaths.ts';
import { useTouchedIssues, type FieldIssues } from './issues.ts';

export interface ScenarioDraftState {
  draft: ScenarioDraft;
  update: (change: (d: ScenarioDraft) => ScenarioDraft) => void;
  check: DraftCheck;
  issues: FieldIssues;
  /** Shows every field's message, touched or not (a run was attempted with errors). */
  revealAll: () => void;
  /**
   * Shows what the host found wrong with fields of the draft it was sent (a body file that
   * does not exist) at those fields, until the draft changes. False (nothing shown) when a
   * problem is not of a field the form shows.
   */
  showRefused: (issues: readonly FieldIssue[]) => boolean;
}

/**
 * The editor's state: the draft, its validation by the shared schema on every change, and
 * which messages are shown. A field shows its message once edited, so a blank form is not
 * a wall of red.
 */
export function useScenarioDraft(initial: () => ScenarioDraft = defaultDraft): ScenarioDraftState {
  const [draft, update] = useState(initial);
  const [revealed, setRevealed] = useState(false);
  const [refused, setRefused] = useState<{ draft: ScenarioDraft; issues: Map<string, string> } | null>(null);
  const check = useMemo(() => checkDraft(draft), [draft]);
  // The host's findings hold for the draft it was sent; an edit (the field fixed) clears them.
  const hostIssues = refused?.draft === draft ? refused.issues : null;
  const messages = useMemo(
    () => (hostIssues ? new Map([...check.issues, ...hostIssues]) : check.issues),
    [check.issues, hostIssues],
  );
  const { issues } = useTouchedIssues(messages, revealed || hostIssues !== null);
  const revealAll = useCallback(() => setRevealed(true), []);
  const showRefused = useCallback(
    (list: readonly FieldIssue[]) => {
      const shown = fieldPaths(draft);
      if (list.length === 0 || !list.every((i) => shown.has(i.path))) return false;
      setRefused({ draft, issues: new Map(list.map((i) => [i.path, i.message])) });
      return true;
    },
    [draft],
  );
  // One object per change of its parts, so a memoised editor skips the live run's re-renders.
  return useMemo(
    () => ({ draft, update, check, issues, revealAll, showRefused }),
    [draft, update, check, issues, revealAll, showRefused],
  );
}
