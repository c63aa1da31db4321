import { useState } from 'react';
import { MIME } from '../../shared/export/files.ts';
import { CopyIcon } from '../components/icons.tsx';
import { Dialog } from '../components/Dialog.tsx';
import { copyText } from './clipboard.ts';
import { downloadText } from '../lib/download.ts';

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
            data-testid="download-report"
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
