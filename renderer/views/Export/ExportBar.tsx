import type { ReactNode } from 'react';
import { downloadText } from './download.ts';
import './export.css';

/** One export button: what it says and what a click does. */
export interface ExportAction {
  label: string;
  testId: string;
  run: () => void;
}

/** A button that downloads a file whose text is made on the click (not on every render). */
export function downloadAction(
  label: string,
  testId: string,
  fileName: string,
  type: string,
  text: () => string,
): ExportAction {
  return { label, testId, run: () => downloadText(text(), fileName, type) };
}

/** A labelled run of buttons in the export bar ("Export", "Text report"). */
export interface ExportGroup {
  label: string;
  actions: readonly ExportAction[];
}

/** The row of export buttons under a report; children (a dialog) render after them. */
export function ExportBar({ groups, children }: { groups: readonly ExportGroup[]; children?: ReactNode }) {
  return (
    <div className="export-bar" role="group" aria-label="Export">
      {groups.map((g) => (
        <div className="export-bar__group" key={g.label}>
          <span className="export-bar__label">{g.label}</span>
          {g.actions.map((a) => (
            <button
              key={a.testId}
              type="button"
              className="btn btn--secondary btn--sm"
              data-testid={a.testId}
              onClick={a.run}
            >
              {a.label}
            </button>
          ))}
        </div>
      ))}
      {children}
    </div>
  );
}
