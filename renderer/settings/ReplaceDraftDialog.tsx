import { useEffect, useRef } from 'react';
import type { Preset } from '../../shared/records/presets.ts';
import { Dialog } from '../components/Dialog.tsx';

/** The draft a preset of each kind replaces, in words (a run's is its scenario). */
const DRAFT_NAMES: Record<Preset['kind'], string> = {
  run: 'scenario',
  comparison: 'comparison',
  capacity: 'capacity search',
};

/**
 * Asked before a preset replaces a draft edited since it was opened or saved. Keep editing is
 * the safe answer: the dialog's first button and Esc, and the focus starts on it.
 */
export function ReplaceDraftDialog({
  preset,
  onReplace,
  onKeep,
}: {
  preset: Preset;
  onReplace: () => void;
  onKeep: () => void;
}) {
  const keep = useRef<HTMLButtonElement>(null);
  const what = DRAFT_NAMES[preset.kind];
  // After the dialog's showModal(), which focuses its first control (the close button).
  useEffect(() => keep.current?.focus(), []);
  return (
    <Dialog
      title={`Replace the unsaved ${what}?`}
      onClose={onKeep}
      testId="replace-draft-dialog"
      footer={
        <>
          <button
            type="button"
            className="btn btn--secondary"
            ref={keep}
            data-testid="replace-draft-keep"
            onClick={onKeep}
          >
            Keep editing
          </button>
          <button
            type="button"
            className="btn btn--primary"
            data-testid="replace-draft-confirm"
            onClick={onReplace}
          >
            Replace
          </button>
        </>
      }
    >
      <p>
        The {what} you are editing has changes that are not saved as a preset. Opening “{preset.name}”
        replaces them.
      </p>
    </Dialog>
  );
}
