import { RemoveButton } from './fields.tsx';

interface ServerRowHeadProps {
  index: number;
  /** "Target" or "Server", in the labels. */
  noun: string;
  name: string;
  /** data-testid prefix: `${prefix}-target-name-${i}`, `${prefix}-remove-target-${i}`. */
  testPrefix: string;
  /** The last row cannot be removed. */
  removable: boolean;
  onName: (name: string) => void;
  onRemove: () => void;
}

/** The head of a server's row in a plan (a comparison, a capacity search): its number, name and remove button. */
export function ServerRowHead({
  index,
  noun,
  name,
  testPrefix,
  removable,
  onName,
  onRemove,
}: ServerRowHeadProps) {
  return (
    <div className="plan-target__head">
      <span className="target-card__index">{index + 1}</span>
      <input
        className="input input--ghost plan-target__name"
        aria-label={`${noun} ${index + 1} name`}
        placeholder={`Server ${index + 1} name (e.g. nginx)`}
        value={name}
        data-testid={`${testPrefix}-target-name-${index}`}
        // Where the focus lands when the row before it is removed (useFocusAfterRemove).
        data-row-focus="server"
        onChange={(e) => onName(e.target.value)}
      />
      <RemoveButton
        label={`Remove ${noun.toLowerCase()} ${index + 1}`}
        testId={`${testPrefix}-remove-target-${index}`}
        className="icon-btn--danger"
        disabled={!removable}
        onClick={onRemove}
      />
    </div>
  );
}
