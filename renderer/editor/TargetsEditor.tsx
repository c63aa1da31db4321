import { useFocusAfterRemove } from '../components/useFocusAfterRemove.ts';
import { duplicateTarget, newTarget, type TargetDraft } from './draft.ts';
import { TargetCard } from './TargetCard.tsx';

interface TargetsEditorProps {
  targets: TargetDraft[];
  onChange: (targets: TargetDraft[]) => void;
}

/** The target list; several targets run one after another, each with its own result. */
export function TargetsEditor({ targets, onChange }: TargetsEditorProps) {
  const { list: rowList, removing } = useFocusAfterRemove<HTMLDivElement>('target');
  return (
    <div className="targets" ref={rowList}>
      {targets.map((t, i) => (
        <TargetCard
          key={t.key}
          index={i}
          target={t}
          canRemove={targets.length > 1}
          onChange={(next) => onChange(targets.map((x, k) => (k === i ? next : x)))}
          onRemove={() => {
            removing(i);
            onChange(targets.filter((_, k) => k !== i));
          }}
          onDuplicate={() =>
            onChange([...targets.slice(0, i + 1), duplicateTarget(t), ...targets.slice(i + 1)])
          }
        />
      ))}
      <button
        type="button"
        className="link-btn"
        data-testid="target-add"
        onClick={() => onChange([...targets, newTarget()])}
      >
        + Add target
      </button>
    </div>
  );
}
