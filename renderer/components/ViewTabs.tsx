import type { UiSettings } from '../../shared/records/settings.ts';
import './ViewTabs.css';

/** The app's views; the settings schema lists them, since the one shown last is kept. */
export type View = UiSettings['view'];

const VIEWS: readonly { view: View; label: string }[] = [
  { view: 'run', label: 'Run' },
  { view: 'compare', label: 'Compare' },
  { view: 'capacity', label: 'Capacity' },
  { view: 'history', label: 'History' },
  { view: 'presets', label: 'Presets' },
];

/** What a view is for, in one line: the tab's tooltip, and the first screen says it of Compare and Capacity. */
export const VIEW_HINTS: Readonly<Record<View, string>> = {
  run: 'One scenario: its targets under one load, live charts and the report',
  compare: 'Servers side by side at several loads, each run repeated, in one matrix',
  capacity: 'The highest rate each server holds within a p99 latency goal',
  history: 'Every finished run, comparison and capacity search, to open again or compare',
  presets: 'Saved scenarios and plans, and the seed articles’ experiments built in',
};

/** The app's places; a dot marks a view with something running in it. */
export function ViewTabs({
  view,
  onChange,
  busy,
}: {
  view: View;
  onChange: (view: View) => void;
  busy: Partial<Record<View, boolean>>;
}) {
  return (
    <nav className="view-tabs" aria-label="Views">
      {VIEWS.map((v) => (
        <button
          key={v.view}
          type="button"
          className={`view-tab${v.view === view ? ' is-active' : ''}`}
          aria-current={v.view === view ? 'page' : undefined}
          data-testid={`tab-${v.view}`}
          title={VIEW_HINTS[v.view]}
          onClick={() => onChange(v.view)}
        >
          {v.label}
          {busy[v.view] && <span className="view-tab__dot" aria-label="running" />}
        </button>
      ))}
    </nav>
  );
}
