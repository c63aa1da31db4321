/** HTML tables for the report: headers, cells escaped, figures right-aligned. */
import { esc } from './escape.ts';

export interface HtmlCell {
  text: string;
  /** Extra class: 'num' aligns right; 'flag' marks a figure a caveat affects. */
  className?: string;
  /** Shown on hover (why a figure is flagged). */
  title?: string;
}

export type CellInput = string | HtmlCell;

const cellOf = (c: CellInput): HtmlCell => (typeof c === 'string' ? { text: c } : c);

function td(tag: 'td' | 'th', c: CellInput, numeric: boolean, scope?: string): string {
  const cell = cellOf(c);
  const classes = [numeric ? 'num' : '', cell.className ?? ''].filter((x) => x !== '').join(' ');
  const attrs = [
    classes ? ` class="${esc(classes)}"` : '',
    cell.title ? ` title="${esc(cell.title)}"` : '',
    scope ? ` scope="${scope}"` : '',
  ].join('');
  return `<${tag}${attrs}>${esc(cell.text)}</${tag}>`;
}

/**
 * A table: `head` labels, `rows` of cells; `numeric(i)` says which columns hold figures; the
 * first `rowHeaders` cells of a row are its headers.
 */
export function htmlTable(opts: {
  head: readonly string[];
  rows: readonly (readonly CellInput[])[];
  numeric?: (column: number) => boolean;
  rowHeaders?: number;
  caption?: string;
  testId?: string;
}): string {
  const numeric = opts.numeric ?? (() => false);
  const rowHeaders = opts.rowHeaders ?? 0;
  const head = `<thead><tr>${opts.head.map((h, i) => td('th', h, numeric(i), 'col')).join('')}</tr></thead>`;
  const body = opts.rows
    .map(
      (row) =>
        `<tr>${row.map((c, i) => (i < rowHeaders ? td('th', c, false, 'row') : td('td', c, numeric(i)))).join('')}</tr>`,
    )
    .join('\n');
  const caption = opts.caption ? `<caption>${esc(opts.caption)}</caption>` : '';
  const id = opts.testId ? ` data-testid="${esc(opts.testId)}"` : '';
  return `<div class="table-scroll"><table${id}>${caption}${head}<tbody>\n${body}\n</tbody></table></div>`;
}

/** A definition list of facts: label, value. */
export function factList(facts: readonly (readonly [string, string])[]): string {
  return `<dl class="facts">${facts.map(([k, v]) => `<dt>${esc(k)}</dt><dd>${esc(v)}</dd>`).join('')}</dl>`;
}
