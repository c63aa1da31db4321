/**
 * The HTML diff report's body: the verdict, then per matched part its evidence and a table of
 * figures (a change beyond noise in the worse direction marked) and its two sides' latency
 * percentile curves and throughput series overlaid (diff-charts.ts), what only one side has, and
 * the --fail-on rules. The words are the text diff's (shared/format/diff-text.ts). Pure.
 */
import type { NamedRuns, ResultDiff } from '../../diff/compare.ts';
import { diffCharts } from './diff-charts.ts';
import { DIFF_FIGURE_INFO } from '../../diff/figures.ts';
import type { RuleMove } from '../../diff/rules.ts';
import {
  DIFF_HEAD,
  diffVerdictLine,
  evidenceText,
  figureRow,
  pairedLine,
  partTitle,
  ruleMoveText,
} from '../diff-text.ts';
import { esc } from './escape.ts';
import { htmlTable } from './table.ts';

export function diffSection(
  diff: ResultDiff,
  rules: readonly { text: string }[],
  moves: readonly RuleMove[],
  runs: { base: readonly NamedRuns[]; next: readonly NamedRuns[] },
): string {
  const regression = moves.some((m) => m.broken);
  const out = [
    `<div class="verdict ${regression ? 'bad' : 'good'}" data-testid="diff-verdict"><p>${esc(diffVerdictLine(moves, rules.length))}</p></div>`,
  ];
  if (diff.paired !== null)
    out.push(`<p class="muted" data-testid="diff-paired">${esc(pairedLine(diff.paired))}</p>`);
  for (const [i, part] of diff.parts.entries()) {
    const rows = part.figures.map((f) => {
      const info = DIFF_FIGURE_INFO[f.figure];
      const worse = f.delta !== null && f.delta !== 0 && f.delta > 0 !== info.higherIsBetter;
      const cells = figureRow(f);
      const flag = f.verdict === 'beyond-noise' && worse;
      return cells.map((text, c) => (flag && c >= 3 ? { text, className: 'flag' } : text));
    });
    out.push(
      `<section class="run" id="part-${i + 1}"><h2>${esc(partTitle(part))}</h2><p class="muted">${esc(evidenceText(part))}</p>`,
      htmlTable({
        head: DIFF_HEAD,
        rows,
        numeric: (c) => c >= 1 && c <= 4,
        rowHeaders: 1,
        testId: `diff-part-${i + 1}`,
      }),
      diffCharts(
        runs.base.find((r) => r.label === part.label),
        runs.next.find((r) => r.label === part.nextLabel),
        `diff-part-${i + 1}`,
      ),
      '</section>',
    );
  }
  const only = [
    ...(diff.onlyBase.length > 0 ? [`Only in base: ${diff.onlyBase.join(', ')}`] : []),
    ...(diff.onlyNext.length > 0 ? [`Only in new: ${diff.onlyNext.join(', ')}`] : []),
  ];
  if (only.length > 0) out.push(`<ul class="notes">${only.map((o) => `<li>${esc(o)}</li>`).join('')}</ul>`);
  if (rules.length > 0) {
    const items = rules.flatMap((rule) => {
      const ms = moves.filter((m) => m.rule === rule);
      return ms.length === 0 ? [`${rule.text}: no figure moved past it`] : ms.map(ruleMoveText);
    });
    out.push(`<h2>Rules</h2><ul>${items.map((t) => `<li>${esc(t)}</li>`).join('')}</ul>`);
  }
  return out.join('\n');
}
