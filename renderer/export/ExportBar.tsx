import { useMemo, useState } from 'react';
import { itemFileName, type ExportBundle, type ExportItem } from '../../shared/export/files.ts';
import { downloadItem, downloadZip } from '../lib/download.ts';
import { TextReportDialog } from './TextReportDialog.tsx';
import './export.css';

/** A file's button id: "export-summary-csv", "export-json", a text's "export-ab", "export-http-load". */
export function itemTestId(item: Pick<ExportItem, 'suffix'>): string {
  return `export-${item.suffix.replace(/\.txt$/, '').replace(/[._]/g, '-')}`;
}

interface ExportBarProps {
  /** Every file of the result (shared/export/): the same files the CLI writes. */
  bundle: ExportBundle;
  /** When the result was measured: the zip's entries carry it. */
  date: string;
  /** The title of a text report's dialog; "As <tool> prints it" by default. */
  textTitle?: (item: ExportItem) => string;
}

/**
 * The row of export buttons under a report: all files in one zip, each file on its own (made
 * on the click), and the text reports, each opened to read, copy or download.
 */
export function ExportBar({ bundle, date, textTitle = (p) => `As ${p.label} prints it` }: ExportBarProps) {
  const [open, setOpen] = useState<ExportItem | null>(null);
  const text = useMemo(() => (open ? open.render() : ''), [open]);
  const files = bundle.items.filter((p) => p.layout === undefined);
  const texts = bundle.items.filter((p) => p.layout !== undefined);
  return (
    <div className="export-bar" role="group" aria-label="Export">
      <div className="export-bar__group">
        <button
          type="button"
          className="btn btn--primary btn--sm"
          data-testid="export-all"
          title={`Every file below in ${bundle.base}.zip`}
          onClick={() => downloadZip(bundle, new Date(date))}
        >
          Download all (.zip)
        </button>
      </div>
      <div className="export-bar__group">
        <span className="export-bar__label">Files</span>
        {files.map((p) => (
          <button
            key={p.suffix}
            type="button"
            className="btn btn--secondary btn--sm"
            data-testid={itemTestId(p)}
            title={itemFileName(bundle, p)}
            onClick={() => downloadItem(bundle, p)}
          >
            {p.label}
          </button>
        ))}
      </div>
      <div className="export-bar__group">
        <span className="export-bar__label">Text report</span>
        {texts.map((p) => (
          <button
            key={p.suffix}
            type="button"
            className="btn btn--secondary btn--sm"
            data-testid={itemTestId(p)}
            title={itemFileName(bundle, p)}
            onClick={() => setOpen(p)}
          >
            {p.label}
          </button>
        ))}
      </div>
      {open && (
        <TextReportDialog
          title={textTitle(open)}
          text={text}
          fileName={itemFileName(bundle, open)}
          onClose={() => setOpen(null)}
        />
      )}
    </div>
  );
}
