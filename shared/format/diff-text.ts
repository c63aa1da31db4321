/**
 * `trebuchet diff` as text: per matched part, how much evidence each side has and which test
 * judged it, then a row per figure (both values, the change, its percentage, the noise
 * verdict); what only one side has; the --fail-on rules and the verdict. The HTML diff report
 * uses the same words. Pure.
 */
import type { FigureDiff, NeededEvidence, PartDiff, ResultDiff } from '../diff/compare.ts';
import { LARGE_GAP_D, LARGE_SHIFT_SDS } from '../diff/evidence.ts';
import { DIFF_FIGURE_INFO, type DiffFigureInfo } from '../diff/figures.ts';
import type { RuleMove } from '../diff/rules.ts';
import { alignColumns } from './table.ts';
import {
  formatCount,
  formatDurationSeconds,
  formatGrouped,
  formatMsValue,
  formatRateValue,
} from '../figures/units.ts';

/** A figure's value in its unit. */
export function diffValueText(info: DiffFigureInfo, value: number | null): string {
  if (value === null) return '–';
  switch (info.unit) {
    case 'req/s':
      return formatRateValue(value);
    case 'ms':
      return formatMsValue(value);
    case 'requests':
      return Number.isInteger(value) ? formatCount(value) : formatGrouped(value, 1);
    case 'CPU-s':
      return formatGrouped(value, 3);
  }
}

const sign = (x: number): string => (x > 0 ? '+' : x < 0 ? '-' : '±');

/** "+5.111" in the figure's unit; "–" without a value on a side. */
export function diffDeltaText(f: FigureDiff): string {
  if (f.delta === null) return '–';
  return `${sign(f.delta)}${diffValueText(DIFF_FIGURE_INFO[f.figure], Math.abs(f.delta))}`;
}

/** "+99.8 %"; "from 0" when the base was 0. */
export function diffPercentText(f: FigureDiff): string {
  if (f.delta === null) return '–';
  if (f.deltaPercent === null) return 'from 0';
  return `${sign(f.deltaPercent)}${formatGrouped(Math.abs(f.deltaPercent), 1)} %`;
}

export const VERDICT_WORDS: Record<FigureDiff['verdict'], string> = {
  'beyond-noise': 'beyond noise',
  'within-noise': 'within noise',
  thin: 'not enough evidence',
  untested: 'not tested',
  'no-data': 'no data',
};

/**
 * What would tell a change this large: "a 42 s run a side would tell it" (42 windows of 1 s),
 * "9 runs a side would tell it"; "no length would tell it" past any sensible one.
 */
export function neededText(needed: NeededEvidence | null): string {
  if (needed === null) return 'no sensible length would tell it';
  const n = formatCount(needed.count);
  if (needed.per === 'run') return `${n} runs a side would tell it`;
  return needed.seconds === null
    ? `${n} sample windows a side would tell it`
    : `a ${formatDurationSeconds(Math.ceil(needed.seconds))} run a side would tell it`;
}

/**
 * "beyond noise (D 1.000 > 0.859)", "within noise (|t| 0.41 ≤ 2.31)", "not enough evidence
 * (D 0.750 ≤ 0.960; a 25 s run a side would tell it)".
 */
export function diffVerdictText(f: FigureDiff): string {
  const words = VERDICT_WORDS[f.verdict];
  const more = f.verdict === 'thin' ? [neededText(f.needed)] : [];
  if (f.statistic === null) return more.length > 0 ? `${words} (${more.join('; ')})` : words;
  const name = f.test === 'ks-histograms' ? 'D' : '|t|';
  const digits = f.test === 'ks-histograms' ? 3 : 2;
  const stat = Number.isFinite(f.statistic) ? formatGrouped(f.statistic, digits) : '∞';
  const critical = f.critical === null ? '∞' : formatGrouped(f.critical, digits);
  const test = `${name} ${stat} ${f.verdict === 'beyond-noise' ? '>' : '≤'} ${critical}`;
  return `${words} (${[test, ...more].join('; ')})`;
}

/** What "not enough evidence" means, said once under a part that has one. */
const THIN_TEXT =
  `"not enough evidence": the test found no difference but could not have told even a large one ` +
  `(a shift of ${LARGE_SHIFT_SDS} standard deviation, or D ${LARGE_GAP_D} between the histograms); ` +
  `more runs, a longer run or a shorter --interval (more windows) would`;

/** Which tests judged a part, and how much evidence they had. */
export function evidenceText(p: PartDiff): string {
  switch (p.evidence) {
    case 'repetitions':
      return (
        `${p.baseRuns} and ${p.nextRuns} runs: Welch's t-test over the runs (95 %)` +
        (p.figures.some((f) => f.verdict === 'thin') ? `; ${THIN_TEXT}` : '')
      );
    case 'single':
      return (
        `single runs (${p.windows?.base ?? 0} and ${p.windows?.next ?? 0} sample windows): latency by one ` +
        `Kolmogorov–Smirnov test of the two histograms (its verdict is every latency figure's), req/s and counts by Welch's t-test over the windows ` +
        `(95 %, windows counted as the evidence, not requests); single runs carry less evidence than repetitions` +
        (p.figures.some((f) => f.verdict === 'thin') ? `; ${THIN_TEXT}` : '')
      );
    case 'uneven':
      return `${p.baseRuns} and ${p.nextRuns} runs: no noise test (it needs 2 or more runs on each side, or one on each)`;
  }
}

export const DIFF_HEAD = ['figure', 'base', 'new', 'change', '%', 'noise'] as const;

/** A figure's row: its name, both values, the change, its percentage, the noise verdict. */
export function figureRow(f: FigureDiff): string[] {
  const info = DIFF_FIGURE_INFO[f.figure];
  return [
    info.label,
    diffValueText(info, f.base),
    diffValueText(info, f.next),
    diffDeltaText(f),
    diffPercentText(f),
    diffVerdictText(f),
  ];
}

/** "p50>+20%: node p50 +99.8 %, beyond noise: regression". */
export function ruleMoveText(m: RuleMove): string {
  const what = `${m.rule.text}: ${m.part} ${DIFF_FIGURE_INFO[m.rule.figure].label} ${diffPercentText(m.figure)}`;
  return m.broken
    ? `${what}, beyond noise: REGRESSION`
    : `${what}, ${VERDICT_WORDS[m.figure.verdict]}: reported, not failing`;
}

/** A part's name: its base's, and its new side's after an arrow when paired across names. */
export const partTitle = (p: Pick<PartDiff, 'label' | 'nextLabel'>): string =>
  p.nextLabel === p.label ? p.label : `${p.label} → ${p.nextLabel}`;

/** "Paired the one target of each run: the URLs differ: http://a/ and http://b/". */
export const pairedLine = (paired: string): string => `Paired the one target of each run: ${paired}`;

/** The closing line: a regression or none. */
export function diffVerdictLine(moves: readonly RuleMove[], rules: number): string {
  const broken = moves.filter((m) => m.broken).length;
  if (broken > 0) return `Regression: ${broken} figure(s) past a --fail-on limit beyond noise`;
  return rules > 0 ? 'No regression: no --fail-on limit passed beyond noise' : 'No --fail-on rules given';
}

export function formatDiff(
  diff: ResultDiff,
  names: { base: string; next: string },
  rules: readonly { text: string }[],
  moves: readonly RuleMove[],
): string {
  const lines = [`Base: ${names.base}`, `New:  ${names.next}`];
  if (diff.paired !== null) lines.push(pairedLine(diff.paired));
  for (const part of diff.parts) {
    lines.push('', `== ${partTitle(part)} ==`, evidenceText(part));
    lines.push(...alignColumns([[...DIFF_HEAD], ...part.figures.map(figureRow)], (i) => i === 0 || i === 5));
  }
  if (diff.onlyBase.length > 0) lines.push('', `Only in base: ${diff.onlyBase.join(', ')}`);
  if (diff.onlyNext.length > 0) lines.push('', `Only in new: ${diff.onlyNext.join(', ')}`);
  if (rules.length > 0) {
    lines.push('', 'Rules:');
    for (const rule of rules) {
      const ms = moves.filter((m) => m.rule === rule);
      if (ms.length === 0) lines.push(`  ${rule.text}: no figure moved past it`);
      for (const m of ms) lines.push(`  ${ruleMoveText(m)}`);
    }
  }
  lines.push('', diffVerdictLine(moves, rules.length));
  return `${lines.join('\n')}\n`;
}
