import { useMemo, useState } from 'react';
import { formatAbReport } from '../../../shared/format/ab.ts';
import { percentilesCsv, summaryCsv, timeSeriesCsv } from '../../../shared/format/csv.ts';
import { formatVegetaReport } from '../../../shared/format/vegeta.ts';
import type { RunResult } from '../../../shared/result.ts';
import { CopyIcon } from '../../components/icons.tsx';
import { Dialog } from '../common/Dialog.tsx';
import { copyText } from './clipboard.ts';
import { downloadText, fileSlug, MIME } from './download.ts';
import { labelResults, resultJson } from './exports.ts';

type TextFormat = 'ab' | 'vegeta';

const TEXT_TITLES: Record<TextFormat, string> = { ab: "ab's report", vegeta: "vegeta's report" };

/** A run's text report in ab's or vegeta's layout, every target one after another. */
function textReport(results: readonly RunResult[], format: TextFormat): string {
  const labelled = labelResults(results);
  return labelled
    .map(({ label, result }) => {
      const body = format === 'ab' ? formatAbReport(result) : formatVegetaReport(result);
      return labelled.length > 1 ? `# ${label}\n\n${body}` : body;
    })
    .join('\n');
}

interface ResultExportsProps {
  results: readonly RunResult[];
  /** The scenario's name, for file names. */
  name: string;
  /** What the JSON export holds (a history record, or the results); defaults to the results. */
  json?: unknown;
}

/** Exports of a plain run: CSV (summary, time series, percentiles), JSON, and ab/vegeta text with copy. */
export function ResultExports({ results, name, json }: ResultExportsProps) {
  const [text, setText] = useState<TextFormat | null>(null);
  const labelled = useMemo(() => labelResults(results), [results]);
  const base = fileSlug(name, 'run');
  if (results.length === 0) return null;
  const buttons: { label: string; testId: string; run: () => void }[] = [
    {
      label: 'Summary CSV',
      testId: 'export-summary-csv',
      run: () => downloadText(summaryCsv(labelled), `${base}.summary.csv`, MIME.csv),
    },
    {
      label: 'Time series CSV',
      testId: 'export-timeseries-csv',
      run: () => downloadText(timeSeriesCsv(labelled), `${base}.timeseries.csv`, MIME.csv),
    },
    {
      label: 'Percentiles CSV',
      testId: 'export-percentiles-csv',
      run: () => downloadText(percentilesCsv(labelled), `${base}.percentiles.csv`, MIME.csv),
    },
    {
      label: 'JSON',
      testId: 'export-json',
      run: () => downloadText(resultJson(json ?? results), `${base}.json`, MIME.json),
    },
    { label: 'ab text', testId: 'export-ab', run: () => setText('ab') },
    { label: 'vegeta text', testId: 'export-vegeta', run: () => setText('vegeta') },
  ];
  return (
    <div className="export-bar" role="group" aria-label="Export">
      <span className="export-bar__label">Export</span>
      {buttons.map((b) => (
        <button
          key={b.testId}
          type="button"
          className="btn btn--secondary btn--sm"
          data-testid={b.testId}
          onClick={b.run}
        >
          {b.label}
        </button>
      ))}
      {text && (
        <TextReportDialog
          title={TEXT_TITLES[text]}
          text={textReport(results, text)}
          fileName={`${base}.${text}.txt`}
          onClose={() => setText(null)}
        />
      )}
    </div>
  );
}

function TextReportDialog({
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
