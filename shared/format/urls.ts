/**
 * A list's per-URL table (RunResult.urls), its rows computed once here: the text report and
 * every tool layout, the CSV, the HTML report and the app's report only lay them out. Rows
 * are the most requested first (the "every other" row last); on screen and in text a table
 * shows URL_ROWS_SHOWN of them and says how many more the CSV and JSON hold. "received" is
 * one definition wherever Trebuchet speaks for itself: every byte of each response, head and
 * body (the Transfer card, ab's Total transferred, the summary CSV's bytes in total); the rows
 * add up to it. The tools' own layouts keep theirs (vegeta's Bytes In: bodies only).
 */
import { ERROR_KIND_LABELS, type ErrorKind, type RunResult } from '../model/result.ts';
import { originOf } from '../model/request-list.ts';
import type { UrlRow } from '../model/url-table.ts';
import { csvRows, type CsvValue } from './csv.ts';
import type { LabelledResult } from './labels.ts';
import { shownUrl } from './labels.ts';
import { runDurations } from '../verdict/run-figures.ts';
import { alignColumns } from './table.ts';
import { formatBytes, formatCount, formatGrouped } from '../figures/units.ts';

/** Rows a table on screen or in a text report shows; the rest are in the CSV and JSON. */
export const URL_ROWS_SHOWN = 20;

/** One row's figures, as every view shows them. */
export interface UrlFigures {
  /** The row's name: METHOD and path (the full URL off the target's origin), or the "every other" row's. */
  label: string;
  method: string | null;
  url: string | null;
  requests: number;
  /** requests / the run's measured duration (its req/s's own). */
  requestsPerSecond: number;
  statusCodes: Record<string, number>;
  /** Requests that failed without a response, and by kind. */
  errors: number;
  errorKinds: Partial<Record<ErrorKind, number>>;
  bytesIn: number;
  latency: UrlRow['latency'];
}

function rowLabel(row: UrlRow, targetOrigin: string | null, folded: number): string {
  if (row.request === null) return `every other (${formatCount(folded)} URLs)`;
  const { method, url } = row.request;
  if (targetOrigin !== null && originOf(url) === targetOrigin) {
    const u = new URL(url);
    return `${method} ${shownUrl(`${u.pathname}${u.search}`)}`;
  }
  return `${method} ${shownUrl(url)}`;
}

/** The rows of a result's per-URL table, most requested first; null for a run without a list. */
export function urlFigures(r: RunResult): UrlFigures[] | null {
  if (!r.urls) return null;
  const seconds = runDurations(r).total;
  const origin = originOf(r.target.url);
  const rows = r.urls.rows.map((row): UrlFigures => ({
    label: rowLabel(row, origin, r.urls!.folded),
    method: row.request?.method ?? null,
    url: row.request?.url ?? null,
    requests: row.requests,
    requestsPerSecond: seconds > 0 ? row.requests / seconds : 0,
    statusCodes: row.statusCodes,
    errors: Object.values(row.errors).reduce((a, n) => a + n, 0),
    errorKinds: row.errors,
    bytesIn: row.bytesIn,
    latency: row.latency,
  }));
  const last = (f: UrlFigures) => (f.url === null ? 1 : 0);
  // A stable sort: rows of equal counts stay in list order.
  return rows.sort((a, b) => last(a) - last(b) || b.requests - a.requests);
}

const ms = (v: number | undefined): string => (v === undefined ? '–' : formatGrouped(v, 3));

const sortedCodes = (codes: Record<string, number>): [string, number][] =>
  Object.entries(codes).sort(([a], [b]) => Number(a) - Number(b));

/** Status codes as `200 ×1,000 · 404 ×3`, in code order. */
function statusCodesText(codes: Record<string, number>): string {
  const entries = sortedCodes(codes);
  return entries.length === 0 ? '–' : entries.map(([c, n]) => `${c} ×${formatCount(n)}`).join(' · ');
}

function errorsText(f: UrlFigures): string {
  if (f.errors === 0) return '0';
  const kinds = Object.entries(f.errorKinds) as [ErrorKind, number][];
  return kinds.map(([k, n]) => `${formatCount(n)} ${ERROR_KIND_LABELS[k]}`).join(' · ');
}

/** One column: its heading and text, and its CSV columns (plain numbers, units in the headings). */
interface UrlColumn {
  head: string;
  /** A figure (right-aligned), or text. */
  numeric: boolean;
  text: (f: UrlFigures) => string;
  csvHeads: readonly string[];
  csv: (f: UrlFigures) => CsvValue[];
}

export const URL_COLUMNS: readonly UrlColumn[] = [
  {
    head: 'URL',
    numeric: false,
    text: (f) => f.label,
    csvHeads: ['method', 'url'],
    csv: (f) => [f.method ?? '', f.url ?? f.label],
  },
  {
    head: 'requests',
    numeric: true,
    text: (f) => formatCount(f.requests),
    csvHeads: ['requests'],
    csv: (f) => [f.requests],
  },
  {
    head: 'req/s',
    numeric: true,
    text: (f) => formatGrouped(f.requestsPerSecond, 1),
    csvHeads: ['rate (req/s)'],
    csv: (f) => [f.requestsPerSecond],
  },
  {
    head: 'status codes',
    numeric: false,
    text: (f) => statusCodesText(f.statusCodes),
    csvHeads: ['status codes'],
    // vegeta's code:count, plain numbers.
    csv: (f) => [
      sortedCodes(f.statusCodes)
        .map(([c, n]) => `${c}:${n}`)
        .join(' '),
    ],
  },
  { head: 'errors', numeric: false, text: errorsText, csvHeads: ['errors'], csv: (f) => [f.errors] },
  {
    head: 'received',
    numeric: true,
    text: (f) => formatBytes(f.bytesIn),
    csvHeads: ['bytes in total (B)'],
    csv: (f) => [f.bytesIn],
  },
  {
    head: 'p50 ms',
    numeric: true,
    text: (f) => ms(f.latency?.p50),
    csvHeads: ['latency p50 (ms)'],
    csv: (f) => [f.latency?.p50],
  },
  {
    head: 'p99 ms',
    numeric: true,
    text: (f) => ms(f.latency?.p99),
    csvHeads: ['latency p99 (ms)'],
    csv: (f) => [f.latency?.p99],
  },
  {
    head: 'max ms',
    numeric: true,
    text: (f) => ms(f.latency?.max),
    csvHeads: ['latency max (ms)'],
    csv: (f) => [f.latency?.max],
  },
];

/** The table as text cells: its first `shown` rows, and how many more there are; null without a list. */
export function urlTableText(
  r: RunResult,
  shown: number = URL_ROWS_SHOWN,
): { head: string[]; rows: string[][]; more: number } | null {
  const figures = urlFigures(r);
  if (figures === null) return null;
  return {
    head: URL_COLUMNS.map((c) => c.head),
    rows: figures.slice(0, shown).map((f) => URL_COLUMNS.map((c) => c.text(f))),
    more: Math.max(0, figures.length - shown),
  };
}

/** What a table cut short says of the rows it leaves out. */
export function moreUrlsText(more: number): string {
  return `${formatCount(more)} more URL ${more === 1 ? 'row' : 'rows'}, the least requested: every row is in the URLs CSV and the JSON`;
}

/**
 * What the table counts, said under it: what "received" holds, and what the server saw that
 * the rows leave out (the pre-flight's request to each URL, the warm-up's). Null without a list.
 */
export function urlTableNote(r: RunResult): string | null {
  const figures = urlFigures(r);
  if (figures === null) return null;
  const received = figures.reduce((n, f) => n + f.bytesIn, 0);
  const warmup = r.options.warmupSeconds > 0 ? ', and the warm-up’s requests' : '';
  return (
    `received: each response whole, head and body, ${formatBytes(received)} in all as the Transfer ` +
    `figure and ab's Total transferred count it (vegeta's Bytes In, http_load's bytes and ab's HTML ` +
    `transferred count bodies only: ${formatBytes(r.bytes.inBody)}). A server's log also holds the ` +
    `pre-flight's one request to each URL before the load${warmup}, not counted here.`
  );
}

/** The text report's "Per URL:" block (every layout's); empty for a run without a list. */
export function urlsReportText(r: RunResult): string {
  const table = urlTableText(r);
  if (!table) return '';
  const lines = alignColumns([table.head, ...table.rows], (i) => !URL_COLUMNS[i]!.numeric);
  return (
    [
      'Per URL:',
      ...lines.map((l) => `  ${l}`),
      ...(table.more > 0 ? [`  … ${moreUrlsText(table.more)}`] : []),
      `  ${urlTableNote(r)}`,
    ].join('\n') + '\n'
  );
}

/** One row per URL of every result with a list (the heading only when none has one). */
export function urlsCsv(results: readonly LabelledResult[]): string {
  const head = ['target', ...URL_COLUMNS.flatMap((c) => c.csvHeads)];
  const rows = results.flatMap(({ label, result }) =>
    (urlFigures(result) ?? []).map((f) => [label, ...URL_COLUMNS.flatMap((c) => c.csv(f))]),
  );
  return csvRows([head, ...rows]);
}
