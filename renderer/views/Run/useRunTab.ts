import { useCallback, useState } from 'react';
import type { TrebuchetApi } from '../../../shared/contract/api.ts';
import type { Scenario } from '../../../shared/model/scenario.ts';
import type { ScenarioDraft } from '../../editor/draft.ts';
import type { ScenarioDraftState } from '../../editor/useScenarioDraft.ts';
import { isBusy } from '../../jobs/jobStore.ts';
import { useJob } from '../../jobs/useJob.ts';
import { refusedFields } from '../../lib/errors.ts';
import { RUN_VIEW } from './runJob.ts';
import { defaultShardsDraft, placementOf, type ShardsDraft } from './shards.ts';
import { useKubeConfirm } from './useKubeConfirm.tsx';

/** The Run draft's side of the kept drafts (useWorkDrafts): opened unedited, settled once saved. */
interface RunDraftWork {
  open: (scenario: Scenario) => void;
  settle: (draft: ScenarioDraft) => void;
}

export type RunTab = ReturnType<typeof useRunTab>;

/**
 * The Run tab's state, kept while another view is shown: the scenario editor, the run's job,
 * the target whose charts show, a notice over the results, where the run goes (shards); and
 * what its buttons and keys do: run (or show what blocks it), stop, run again with the
 * pre-flight's status check off, open a scenario (not while one runs).
 */
export function useRunTab(api: TrebuchetApi, editor: ScenarioDraftState, work: RunDraftWork) {
  const [picked, setPicked] = useState<number | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [shardsDraft, setShardsDraft] = useState<ShardsDraft>(defaultShardsDraft);
  const editorRefused = useCallback(
    // A file the host cannot read (a body file that does not exist): said at its field.
    (e: unknown) => editor.showRefused(refusedFields(e, 'plan')),
    [editor],
  );
  // After a reload, the job taken up again shows its own scenario.
  const job = useJob(api, RUN_VIEW, work.open, editorRefused);
  const run = job.state;
  const { start: startPlaced, dialog: kubeDialog } = useKubeConfirm(api, setNotice);
  const active = isBusy(run.phase);
  const check = editor.check;

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
    return startPlaced(placed.placement, (shards) => job.start(check.scenario, shards));
  }, [active, check, editor, job, shardsDraft, startPlaced]);
  // The pre-flight's error status, measured on purpose: what ran, again, with the check off.
  const runAnyway = () => {
    if (!run.plan || active) return;
    editor.update((d) => ({ ...d, checkStatus: false }));
    setPicked(null);
    const placed = placementOf(shardsDraft);
    const plan = { ...run.plan, options: { ...run.plan.options, checkStatus: false } };
    startPlaced(placed.ok ? placed.placement : undefined, (shards) => job.start(plan, shards));
  };
  const { open: openDraft } = work;
  const open = useCallback(
    (scenario: Scenario) => {
      if (active) {
        setNotice('Stop the run before opening another scenario.');
      } else {
        openDraft(scenario);
        setNotice(null);
      }
    },
    [active, openDraft],
  );

  return {
    editor,
    job,
    active,
    start,
    stop: job.stop,
    runAnyway,
    open,
    /** The draft was saved as a preset (it is no longer unsaved). */
    saved: () => work.settle(editor.draft),
    picked,
    setPicked,
    notice,
    /** The question before a run on Kubernetes, while it is asked. */
    kubeDialog,
    shards: { draft: shardsDraft, set: setShardsDraft },
  };
}
