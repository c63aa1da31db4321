import { useState } from 'react';
import type { RunResult } from '../../shared/model/result.ts';
import {
  moreUrlsText,
  URL_COLUMNS,
  URL_ROWS_SHOWN,
  urlTableNote,
  urlTableText,
} from '../../shared/format/urls.ts';
import { TableCard } from './ReportTables.tsx';
import { RowTable } from './RowTable.tsx';

/**
 * A list's per-URL table, in the columns the CLI, CSV and HTML report show: the most requested
 * rows, and on demand every row in a scrolling box (a list may have up to 1,000).
 */
export function UrlsTable({ result }: { result: RunResult }) {
  const [all, setAll] = useState(false);
  const table = urlTableText(result, all ? Infinity : URL_ROWS_SHOWN);
  if (!table) return null;
  const total = table.rows.length + table.more;
  return (
    <TableCard title="Per URL" testId="urls-card">
      <div className={all ? 'urls-table urls-table--all' : 'urls-table'}>
        <RowTable
          head={table.head}
          rows={table.rows}
          numericFrom={(i) => URL_COLUMNS[i]!.numeric}
          testId="urls-table"
          rowData={(r) => ({ 'data-url-row': r + 1 })}
        />
      </div>
      <p className="muted small" data-testid="urls-note">
        {urlTableNote(result)}
      </p>
      {(table.more > 0 || all) && total > URL_ROWS_SHOWN && (
        <p className="muted small">
          {all ? `All ${total} rows.` : `… ${moreUrlsText(table.more)}.`}{' '}
          <button type="button" className="btn btn--sm" onClick={() => setAll(!all)}>
            {all ? `Show the top ${URL_ROWS_SHOWN}` : `Show all ${total}`}
          </button>
        </p>
      )}
    </TableCard>
  );
}
