import './TargetStrip.css';

interface TargetTab {
  label: string;
  /** A live run's target state (running, completed...), shown as a coloured dot. */
  status?: string;
  /** A short figure beside the name (req/s, "waiting"). */
  meta?: string;
}

interface TargetStripProps {
  targets: readonly TargetTab[];
  shown: number;
  onPick: (index: number) => void;
  /** What the tabs are, for screen readers ("Targets", "Repetitions"). */
  label?: string;
  /** Gives the strip and its tabs data-testids ("target-strip", "target-tab-<i>") for tests. */
  testIds?: boolean;
}

/** One tab per target of a run with several, to pick which one the report shows. */
export function TargetStrip({ targets, shown, onPick, label = 'Targets', testIds }: TargetStripProps) {
  return (
    <div
      className="target-strip"
      role="tablist"
      aria-label={label}
      data-testid={testIds ? 'target-strip' : undefined}
    >
      {targets.map((t, i) => (
        <button
          key={i}
          type="button"
          role="tab"
          aria-selected={i === shown}
          className={`target-tab${i === shown ? ' is-active' : ''}`}
          data-testid={testIds ? `target-tab-${i}` : undefined}
          data-status={t.status}
          onClick={() => onPick(i)}
        >
          {t.status !== undefined && <span className={`dot dot--${t.status}`} aria-hidden="true" />}
          <span className="target-tab__name">{t.label}</span>
          {t.meta !== undefined && <span className="target-tab__meta">{t.meta}</span>}
        </button>
      ))}
    </div>
  );
}
