import { RemoveButton, TextField } from './fields.tsx';
import { useFieldIssue } from './issues.ts';
import { newStage, stagesFromDraft, type StageDraft } from './draft.ts';
import { stagePreview } from './stagePreview.ts';
import './StagesEditor.css';

interface StagesEditorProps {
  stages: readonly StageDraft[];
  model: 'closed' | 'open';
  onChange: (stages: StageDraft[]) => void;
}

const PREVIEW = { width: 320, height: 90 };

/**
 * The stage table (duration, target) of a staged load and a preview of its curve: the
 * target over time, ramping linearly from 0 and from each stage to the next.
 */
export function StagesEditor({ stages, model, onChange }: StagesEditorProps) {
  const unit = model === 'closed' ? 'conn.' : 'req/s';
  const setAt = (i: number, patch: Partial<StageDraft>): void =>
    onChange(stages.map((s, k) => (k === i ? { ...s, ...patch } : s)));
  const preview = stagePreview(stagesFromDraft(stages), PREVIEW);
  // A message about the plan as a whole (its length, nothing sent), not one row.
  const { message } = useFieldIssue('load.stages');
  return (
    <div className="stages" data-testid="stages-editor">
      <p className="muted small">
        Each stage ramps the {model === 'closed' ? 'connections' : 'rate'} linearly from where the one before
        ended (0 at the start) to its target; a 0 s stage jumps.
      </p>
      {stages.map((s, i) => (
        <div className="stage-row" key={s.key} data-testid={`stage-${i}`}>
          <span className="stage-row__n muted">{i + 1}</span>
          <TextField
            label="Duration"
            path={`load.stages.${i}.durationSeconds`}
            unit="s"
            value={s.seconds}
            testId={`stage-${i}-duration`}
            onChange={(seconds) => setAt(i, { seconds })}
          />
          <TextField
            label="Target"
            path={`load.stages.${i}.target`}
            numeric
            unit={unit}
            value={s.target}
            testId={`stage-${i}-target`}
            onChange={(target) => setAt(i, { target })}
          />
          <RemoveButton
            label="Remove stage"
            className="stage-row__remove"
            disabled={stages.length === 1}
            testId={`stage-${i}-remove`}
            onClick={() => onChange(stages.filter((_, k) => k !== i))}
          />
        </div>
      ))}
      {message && (
        <p className="field__error" role="alert" data-testid="error-load.stages">
          {message}
        </p>
      )}
      <button
        type="button"
        className="link-btn"
        data-testid="stage-add"
        onClick={() => onChange([...stages, newStage(stages.at(-1))])}
      >
        + Add stage
      </button>
      {preview && (
        <figure className="stage-preview" data-testid="stage-preview">
          <svg
            viewBox={`0 0 ${PREVIEW.width} ${PREVIEW.height}`}
            role="img"
            aria-label={`${model === 'closed' ? 'Connections' : 'Rate'} over ${preview.seconds} s, up to ${preview.peak} ${unit}`}
          >
            <path className="stage-preview__area" d={preview.area} />
            <path className="stage-preview__line" d={preview.line} data-testid="stage-preview-line" />
          </svg>
          <figcaption className="muted small">
            {preview.seconds} s, peak {preview.peak} {unit}
          </figcaption>
        </figure>
      )}
    </div>
  );
}
