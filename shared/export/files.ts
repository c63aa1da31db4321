/**
 * An export bundle: every file a result is exported as (the JSON, every CSV, the HTML report,
 * the text reports), named and typed here once. The CLI writes the files (--json, --csv,
 * --html, --export), the app downloads them (one button each, or all in a zip); for the same
 * result both get the same names and the same bytes. Pure.
 */
import { LAYOUT_NAMES, REPORT_LAYOUTS, type ReportLayout } from '../comparison/report-settings.ts';

export const MIME = {
  csv: 'text/csv;charset=utf-8',
  json: 'application/json;charset=utf-8',
  text: 'text/plain;charset=utf-8',
  html: 'text/html;charset=utf-8',
} as const;

/** A file of a bundle, ready to write or download. */
export interface ExportFile {
  name: string;
  /** Its MIME type. */
  type: string;
  content: string;
}

/** One file of a bundle before it is made. */
export interface ExportItem {
  /** What follows the bundle's base name: "json", "summary.csv", "ab.txt". */
  suffix: string;
  /** What a button calls it: "Summary CSV". */
  label: string;
  type: string;
  /** Set on a text report: its layout (the app shows these to read and copy). */
  layout?: ReportLayout;
  /** Makes the file's text when it is wanted: a long comparison's HTML report takes a moment. */
  render: () => string;
}

/** Every file of a result: named `${base}.${suffix}`. */
export interface ExportBundle {
  /** The file names' common start, from the result's name ("nginx-vs-apache"). */
  base: string;
  items: ExportItem[];
}

export function itemFileName(bundle: Pick<ExportBundle, 'base'>, item: Pick<ExportItem, 'suffix'>): string {
  return `${bundle.base}.${item.suffix}`;
}

/** The bundle's files, each made now. */
export function bundleFiles(bundle: ExportBundle): ExportFile[] {
  return bundle.items.map((p) => ({ name: itemFileName(bundle, p), type: p.type, content: p.render() }));
}

/** A value as the JSON file holds it: indented, newline-terminated. */
export function jsonText(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

export const jsonItem = (render: () => string): ExportItem => ({
  suffix: 'json',
  label: 'JSON',
  type: MIME.json,
  render,
});

export const csvItem = (name: string, label: string, render: () => string): ExportItem => ({
  suffix: `${name}.csv`,
  label,
  type: MIME.csv,
  render,
});

export const htmlItem = (render: () => string): ExportItem => ({
  suffix: 'html',
  label: 'HTML report',
  type: MIME.html,
  render,
});

/** The file suffix of a layout's text: "ab.txt", ours "report.txt". */
export const textSuffix = (layout: ReportLayout): string => `${layout === 'text' ? 'report' : layout}.txt`;

/** A text report in every layout the CLI's --format prints. */
export function textItems(render: (layout: ReportLayout) => string): ExportItem[] {
  return REPORT_LAYOUTS.map((layout) => ({
    suffix: textSuffix(layout),
    label: LAYOUT_NAMES[layout],
    type: MIME.text,
    layout,
    render: () => render(layout),
  }));
}
