import './SavedNote.css';

interface SavedNoteProps {
  /** The saved run's id in history, or null when it was not saved. */
  historyId: string | null;
  /** Why it could not be saved, when it was not. */
  error?: string | null;
  testId: string;
  onOpen: (historyId: string) => void;
}

/** Under a finished run or comparison: where history keeps it (with a link there), or why it could not. */
export function SavedNote({ historyId, error = null, testId, onOpen }: SavedNoteProps) {
  if (historyId === null && error === null) return null;
  return (
    <p className="muted small saved-note" data-testid={testId}>
      {historyId !== null ? (
        <>
          Saved in history ·{' '}
          <button type="button" className="link-btn" onClick={() => onOpen(historyId)}>
            open it there
          </button>
        </>
      ) : (
        error
      )}
    </p>
  );
}
