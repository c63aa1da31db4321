/**
 * `trebuchet diff` as text: per matched part, how much evidence each side has and which test
 * judged it, then a row per figure (both values, the change, its percentage, the noise
 * verdict); what only one side has; the --fail-on rules and the verdict. The HTML diff report
 * uses the same words. Pure.
 */
import type { FigureDiff, PartDiff, ResultDiff } from '../diff/compare.ts';
import { DIFF_FIGURE_INFO, type DiffFigureInfo } from '../diff/figures.ts';
import type { RuleMove } from '../diff/rules.ts';
import { alignColumns } from './table.ts';
import { formatCount, formatGrouped, formatMsValue, formatRateValue } from './units.ts';

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

const VERDICT_WORDS: Record<FigureDiff['verdict'], string> = {
  'beyond-noise': 'beyond noise',
  'within-noise': 'within noise',
  untested: 'not tested',
  'no-data': 'no data',
};

/** "beyond noise (D 1.000 > 0.859)", "within noise (|t| 0.41 < 2.31)". */
export function diffVerdictText(f: FigureDiff): string {
  const words = VERDICT_WORDS[f.verdict];
  if (f.statistic === null || f.critical === null) return words;
  const name = f.test === 'ks-histograms' ? 'D' : '|t|';
  const digits = f.test === 'ks-histograms' ? 3 : 2;
  const stat = Number.isFinite(f.statistic) ? formatGrouped(f.statistic, digits) : '∞';
  return `${words} (${name} ${stat} ${f.verdict === 'beyond-noise' ? '>' : '≤'} ${formatGrouped(f.critical, digits)})`;
}

/** Which tests judged a part, and how much evidence they had. */
export function evidenceText(p: PartDiff): string {
  switch (p.evidence) {
    case 'repetitions':
      return `${p.baseRuns} and ${p.nextRuns} runs: Welch's t-test over the runs (95 %)`;
    case 'single':
      return (
        `single runs (${p.windows?.base ?? 0} and ${p.windows?.next ?? 0} sample windows): latency by one ` +
        `Kolmogorov–Smirnov test of the two histograms (its verdict is every latency figure's), req/s and counts by Welch's t-test over the windows ` +
        `(95 %, windows counted as the evidence, not requests); single runs carry less evidence than repetitions` +
        (Math.min(p.windows?.base ?? 0, p.windows?.next ?? 0) < 4
          ? '; under 4 windows a side the histogram test cannot tell (run longer, or a shorter --interval)'
          : '')
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
  return m.broken ? `${what}, beyond noise: REGRESSION` : `${what}, within noise: reported, not failing`;
}

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
  for (const part of diff.parts) {
    lines.push('', `== ${part.label} ==`, evidenceText(part));
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
