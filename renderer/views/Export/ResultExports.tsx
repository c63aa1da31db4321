import { useMemo, useState } from 'react';
import { percentilesCsv, summaryCsv, timeSeriesCsv } from '../../../shared/format/csv.ts';
import { runHtmlReport } from '../../../shared/format/html-report.ts';
import { withoutSecrets } from '../../../shared/model/secret-headers.ts';
import type { RunResult } from '../../../shared/model/result.ts';
import { CopyIcon } from '../../components/icons.tsx';
import { Dialog } from '../../components/Dialog.tsx';
import { copyText } from './clipboard.ts';
import { fileSlug } from '../../../shared/model/file-name.ts';
import { downloadText, MIME } from './download.ts';
import { downloadAction, ExportBar, type ExportAction } from './ExportBar.tsx';
import { resourcesCsvActions, resultJson, TEXT_REPORTS, textReport, type TextReport } from './exports.ts';
import { labelResults } from '../../../shared/format/labels.ts';

interface ResultExportsProps {
  results: readonly RunResult[];
  /** The scenario's name, for file names. */
  name: string;
  /** What the JSON export holds (a history record, or the results); defaults to the results. */
  json?: unknown;
}

/** Exports of a plain run: CSV (summary, time series, percentiles, server resources), JSON, and text reports (ab, vegeta, http_load, JMeter) to copy. */
export function ResultExports({ results, name, json }: ResultExportsProps) {
  const [text, setText] = useState<TextReport | null>(null);
  const labelled = useMemo(() => labelResults(results), [results]);
  const base = fileSlug(name, 'run');
  if (results.length === 0) return null;
  const actions: ExportAction[] = [
    downloadAction('Summary CSV', 'export-summary-csv', `${base}.summary.csv`, MIME.csv, () =>
      summaryCsv(labelled),
    ),
    downloadAction('Time series CSV', 'export-timeseries-csv', `${base}.timeseries.csv`, MIME.csv, () =>
      timeSeriesCsv(labelled),
    ),
    downloadAction('Percentiles CSV', 'export-percentiles-csv', `${base}.percentiles.csv`, MIME.csv, () =>
      percentilesCsv(labelled),
    ),
    ...resourcesCsvActions(labelled, base),
    downloadAction('JSON', 'export-json', `${base}.json`, MIME.json, () => resultJson(json ?? results)),
    downloadAction('HTML report', 'export-html', `${base}.html`, MIME.html, () =>
      runHtmlReport(withoutSecrets(results), { title: name }),
    ),
  ];
  const texts: ExportAction[] = TEXT_REPORTS.map((t) => ({
    label: t.button,
    testId: `export-${t.id}`,
    run: () => setText(t),
  }));
  return (
    <ExportBar
      groups={[
        { label: 'Export', actions },
        { label: 'Text report', actions: texts },
      ]}
    >
      {text && (
        <TextReportDialog
          title={text.title}
          text={textReport(results, text)}
          fileName={`${base}.${text.id}.txt`}
          onClose={() => setText(null)}
        />
      )}
    </ExportBar>
  );
}

/** A text report in a dialog, to copy or download. */
export function TextReportDialog({
  title,
  text,
  fileName,
  onClose,
}: {
  title: string;
  text: string;
  fileName: string;
  onClose: () => void;
}) {
  const [copied, setCopied] = useState<boolean | null>(null);
  return (
    <Dialog
      title={title}
      wide
      onClose={onClose}
      testId="text-report-dialog"
      footer={
        <>
          {copied === false && (
            <span className="muted small">
              The clipboard is not available here: select the text and copy it.
            </span>
          )}
          <button
            type="button"
            className="btn btn--secondary"
            onClick={() => downloadText(text, fileName, MIME.text)}
          >
            Download .txt
          </button>
          <button
            type="button"
            className="btn btn--primary"
            data-testid="copy-report"
            onClick={() => void copyText(text).then(setCopied)}
          >
            <CopyIcon />
            {copied ? 'Copied' : 'Copy to clipboard'}
          </button>
        </>
      }
    >
      <pre className="text-report" data-testid="text-report" tabIndex={0}>
        {text}
      </pre>
    </Dialog>
  );
}
