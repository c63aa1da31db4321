import type { TrebuchetApi } from '../../../shared/contract/api.ts';
import { RunStopButton } from '../../components/RunStopButton.tsx';
import { SavePresetButton } from '../Presets/SavePresetButton.tsx';
import { runShortcutLabel } from '../../lib/shortcuts.ts';
import type { RunTab } from './useRunTab.ts';

/** The Run tab's part of the top bar: the scenario's name, Save as preset, what blocks a run, Run/Stop. */
export function RunTopbar({ api, tab }: { api: TrebuchetApi; tab: RunTab }) {
  const { editor, active, job } = tab;
  const check = editor.check;
  const canRun = check.ok && !active;
  const firstIssue = check.ok ? null : check.list[0];
  return (
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
          content={check.ok ? { kind: 'run', scenario: check.scenario } : null}
          defaultName={editor.draft.name}
          onSaved={tab.saved}
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
          stopping={job.state.phase === 'stopping'}
          canRun={canRun}
          onRun={tab.start}
          onStop={tab.stop}
          runLabel="Run"
          testIds={{ run: 'run-button', stop: 'stop-button' }}
          keys={{ run: runShortcutLabel(navigator.platform), stop: 'Esc' }}
        />
      </div>
    </>
  );
}
