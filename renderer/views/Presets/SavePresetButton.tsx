import { useState } from 'react';
import type { TrebuchetApi } from '../../../shared/contract/api.ts';
import type { PresetDraftInput } from '../../../shared/records/presets.ts';
import type { PresetSummary } from '../../../shared/records/preset-summary.ts';
import { NameDialog } from '../../components/Dialog.tsx';
import { useSecretConsent } from '../../components/useConsent.tsx';
import { errorText } from '../../lib/errors.ts';

type Content =
  | Omit<Extract<PresetDraftInput, { kind: 'run' }>, 'name'>
  | Omit<Extract<PresetDraftInput, { kind: 'comparison' }>, 'name'>
  | Omit<Extract<PresetDraftInput, { kind: 'capacity' }>, 'name'>;

interface SavePresetButtonProps {
  api: TrebuchetApi;
  /** What to save; null while the form has errors (the button is then disabled). */
  content: Content | null;
  defaultName: string;
  onSaved?: (preset: PresetSummary) => void;
  disabled?: boolean;
  testId?: string;
}

/** "Save as preset": asks for a name, then saves (asking about secret header values when needed). */
export function SavePresetButton({
  api,
  content,
  defaultName,
  onSaved,
  disabled,
  testId,
}: SavePresetButtonProps) {
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const { withConsent, dialog } = useSecretConsent();

  const save = (name: string) => {
    if (!content) return;
    withConsent((options) => api.presets.save({ preset: { ...content, name }, ...options })).then(
      (out) => {
        if (!out?.ok) return;
        setOpen(false);
        setError(null);
        setSaved(out.preset.name);
        setTimeout(() => setSaved(null), 4000);
        onSaved?.(out.preset);
      },
      (e: unknown) => setError(errorText(e)),
    );
  };

  return (
    <>
      <button
        type="button"
        className="btn btn--secondary btn--sm"
        disabled={disabled || content === null}
        title={content === null ? 'Fix the highlighted fields first' : 'Keep this setup as a preset'}
        data-testid={testId ?? 'save-preset'}
        onClick={() => setOpen(true)}
      >
        {saved ? 'Saved ✓' : 'Save as preset'}
      </button>
      {open && (
        <NameDialog
          title="Save as preset"
          label="Preset name"
          initial={defaultName}
          action="Save"
          error={error}
          testId="save-preset-dialog"
          onSubmit={save}
          onClose={() => {
            setOpen(false);
            setError(null);
          }}
        />
      )}
      {dialog}
    </>
  );
}
