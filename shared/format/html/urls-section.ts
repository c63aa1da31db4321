/** A list's per-URL table in the HTML report: the rows the text report shows, in the same columns. */
import type { RunResult } from '../../model/result.ts';
import { moreUrlsText, URL_COLUMNS, urlTableNote, urlTableText } from '../urls.ts';
import { esc } from './escape.ts';
import { htmlTable } from './table.ts';

/** The per-URL table; empty for a run without a list. */
export function urlsTable(r: RunResult, id: string): string {
  const table = urlTableText(r);
  if (!table) return '';
  return (
    `<h4>Per URL</h4>` +
    htmlTable({
      head: table.head,
      rows: table.rows,
      numeric: (i) => URL_COLUMNS[i]!.numeric,
      rowHeaders: 1,
      testId: `${id}-urls`,
    }) +
    (table.more > 0 ? `<p class="muted">… ${esc(moreUrlsText(table.more))}</p>` : '') +
    `<p class="muted" data-testid="${id}-urls-note">${esc(urlTableNote(r) ?? '')}</p>`
  );
}
