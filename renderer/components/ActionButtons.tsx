/** One button of a list row: its text, look and what a click does. */
export interface RowAction {
  label: string;
  testId: string;
  look: 'primary' | 'secondary' | 'ghost' | 'danger';
  onClick: () => void;
}

const LOOK_CLASS: Record<RowAction['look'], string> = {
  primary: 'btn--primary',
  secondary: 'btn--secondary',
  ghost: 'btn--ghost',
  danger: 'btn--ghost btn--danger-text',
};

/** The buttons at the end of a list row (a preset, a saved run); falsy entries are left out. */
export function ActionButtons({
  actions,
  size,
  className,
}: {
  actions: readonly (RowAction | false | undefined)[];
  size: 'sm' | 'xs';
  className: string;
}) {
  return (
    <div className={className}>
      {actions.map(
        (a) =>
          a && (
            <button
              key={a.testId}
              type="button"
              className={`btn ${LOOK_CLASS[a.look]} btn--${size}`}
              data-testid={a.testId}
              onClick={a.onClick}
            >
              {a.label}
            </button>
          ),
      )}
    </div>
  );
}
