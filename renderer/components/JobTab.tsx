import type { ReactNode } from 'react';
import { PresetNote } from './PresetNote.tsx';

interface JobTabProps {
  /** The editor pane's name, for a screen reader. */
  label: string;
  /** Over the editor: save as preset, run and stop (none where the top bar holds them). */
  toolbar?: ReactNode;
  /** The form of what the job runs. */
  editor: ReactNode;
  /** Over the results whatever the phase: failures, notices. */
  alerts?: ReactNode;
  /** No job started yet (or since the draft was opened): the welcome shows. */
  idle: boolean;
  welcome: ReactNode;
  /** The preset the draft came from (if any), said over the welcome. */
  preset?: { source: { name: string; description: string } | null; testId: string };
  testId?: string;
  /** The job's progress and results, once it started. */
  children: ReactNode;
}

/**
 * The layout of a tab that runs a job (Run, Compare, Capacity): its editor on the left, under
 * a toolbar; on the right the welcome until a job starts, then the job's progress and results.
 */
export function JobTab({
  label,
  toolbar,
  editor,
  alerts,
  idle,
  welcome,
  preset,
  testId,
  children,
}: JobTabProps) {
  return (
    <main className="workspace" data-testid={testId}>
      <aside className="editor-pane" aria-label={label}>
        {toolbar && <div className="pane-toolbar">{toolbar}</div>}
        {editor}
      </aside>
      <div className="results-pane">
        {alerts}
        {idle ? (
          <>
            {preset?.source && <PresetNote source={preset.source} testId={preset.testId} />}
            {welcome}
          </>
        ) : (
          children
        )}
      </div>
    </main>
  );
}
