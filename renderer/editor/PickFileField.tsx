import { useState } from 'react';
import { Field, RemoveButton } from './fields.tsx';
import { formatBytes } from '../../shared/figures/units.ts';
import './PickFileField.css';

interface PickFileFieldProps {
  label: string;
  /** Schema path of the picked content (its validation message shows here). */
  path: string;
  /** The file picked so far; bytes when known. */
  picked: { name: string; bytes?: number } | undefined;
  /** Reads the chosen file into the draft; resolves with why it cannot be sent, or null. */
  onPick: (file: File) => Promise<string | null>;
  onClear: () => void;
  /** The file input's test id; the picked file's line has `${testId}-picked`. */
  testId: string;
  /** The file input's element id (a pre-flight fix moves the focus there). */
  id?: string;
  accept?: string;
  hint?: string;
}

/**
 * A file the person picks in the browser (the web host reads no file of its own for a page):
 * the input, then the picked file's name and size with a button to drop it.
 */
export function PickFileField({
  label,
  path,
  picked,
  onPick,
  onClear,
  testId,
  id,
  accept,
  hint,
}: PickFileFieldProps) {
  const [problem, setProblem] = useState<string | null>(null);
  return (
    <Field label={label} path={path} hint={hint} id={id}>
      {({ id: inputId, invalid, describedBy, touch }) => (
        <div className="pick-file">
          <label className="pick-file__button">
            {picked ? 'Choose another file…' : 'Choose a file…'}
            <input
              id={inputId}
              className="visually-hidden"
              type="file"
              accept={accept}
              aria-invalid={invalid || problem !== null}
              aria-describedby={describedBy}
              data-testid={testId}
              onChange={(e) => {
                const input = e.currentTarget;
                const file = input.files?.[0];
                // Cleared, so picking the same file again (after editing it) reads it again.
                input.value = '';
                if (!file) return;
                void onPick(file).then((why) => {
                  setProblem(why);
                  touch();
                });
              }}
            />
          </label>
          {picked && (
            <span className="pick-file__picked" data-testid={`${testId}-picked`}>
              {picked.name}
              {picked.bytes !== undefined && <span className="muted"> · {formatBytes(picked.bytes)}</span>}
              <RemoveButton
                label={`Do not send ${picked.name}`}
                testId={`${testId}-clear`}
                onClick={() => {
                  setProblem(null);
                  onClear();
                }}
              />
            </span>
          )}
          {problem && (
            <p className="field__error pick-file__problem" role="alert" data-testid={`${testId}-problem`}>
              {problem}
            </p>
          )}
        </div>
      )}
    </Field>
  );
}
