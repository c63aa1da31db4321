/**
 * Two saved results compared, as files: the diff's JSON, its HTML report and the text
 * `trebuchet diff` prints, titled by what each side is (its name and when it ran), not by two
 * file names. `trebuchet diff --json/--html` writes them, History's diff view downloads them.
 * Pure.
 */
import type { NamedRuns, ResultDiff } from '../diff/compare.ts';
import type { FailRule, RuleMove } from '../diff/rules.ts';
import { formatDiff } from '../format/diff-text.ts';
import { diffHtmlReport } from '../format/html-report.ts';
import { formatUtcTime } from '../figures/units.ts';
import { fileSlug } from '../model/file-name.ts';
import { htmlItem, jsonItem, jsonText, MIME, type ExportBundle } from './files.ts';

/** One side of a diff: what it is called, when it ran (ISO 8601), and the file it came from. */
export interface DiffSide {
  name: string;
  at: string | null;
  /** The file as given to `trebuchet diff`; null for a History entry. */
  file: string | null;
}

export interface DiffExportInput {
  diff: ResultDiff;
  sides: { base: DiffSide; next: DiffSide };
  rules: readonly FailRule[];
  moves: readonly RuleMove[];
  /** Each side's parts with their runs, for the overlaid charts. */
  runs: { base: readonly NamedRuns[]; next: readonly NamedRuns[] };
}

/** "s6 nginx, 2026-12-04 20:34:10 UTC"; the file after it when there is one. */
export function diffSideText(side: DiffSide): string {
  const when = side.at === null ? '' : `, ${formatUtcTime(side.at)}`;
  return `${side.name}${when}${side.file === null ? '' : ` (${side.file})`}`;
}

/** "Diff: s6 nginx, 2026-12-04 20:34:10 UTC → s6 nginx, 2026-12-04 20:41:02 UTC". */
export function diffTitle(sides: DiffExportInput['sides']): string {
  const short = (s: DiffSide): string => diffSideText({ ...s, file: null });
  return `Diff: ${short(sides.base)} → ${short(sides.next)}`;
}

/** The JSON `trebuchet diff --json` writes: each side as given (its file, or its name and time), the diff, the rules. */
export function diffJson(input: DiffExportInput): string {
  const { diff, sides, rules, moves } = input;
  const side = (s: DiffSide): string => s.file ?? diffSideText(s);
  return jsonText({
    kind: 'diff',
    title: diffTitle(sides),
    base: side(sides.base),
    next: side(sides.next),
    diff,
    rules,
    moves,
  });
}

/** The text `trebuchet diff` prints. */
export function diffText(input: DiffExportInput): string {
  const names = { base: diffSideText(input.sides.base), next: diffSideText(input.sides.next) };
  return formatDiff(input.diff, names, input.rules, input.moves);
}

/** The HTML report `trebuchet diff --html` writes. */
export function diffHtml(input: DiffExportInput): string {
  const { base, next } = input.sides;
  return diffHtmlReport(
    input.diff,
    { title: diffTitle(input.sides), base: diffSideText(base), next: diffSideText(next) },
    input.rules,
    input.moves,
    input.runs,
  );
}

/** The diff's files: JSON, HTML report and the text, named "diff-<base>-vs-<new>". */
export function diffExport(input: DiffExportInput): ExportBundle {
  const { base, next } = input.sides;
  return {
    base: fileSlug(`diff ${base.name} vs ${next.name}`, 'diff'),
    items: [
      jsonItem(() => diffJson(input)),
      htmlItem(() => diffHtml(input)),
      {
        suffix: 'report.txt',
        label: 'Trebuchet',
        type: MIME.text,
        layout: 'text',
        render: () => diffText(input),
      },
    ],
  };
}
