import type { FigureDiff, PartDiff } from '../../shared/diff/compare.ts';
import { DIFF_FIGURE_INFO } from '../../shared/diff/figures.ts';
import {
  diffDeltaText,
  diffPercentText,
  diffValueText,
  diffVerdictText,
  evidenceText,
  partTitle,
} from '../../shared/format/diff-text.ts';
import { TableScroll } from '../components/TableScroll.tsx';

/** Better or worse, for a change beyond noise: its colour. */
function toneOf(f: FigureDiff): string {
  if (f.verdict !== 'beyond-noise' || f.delta === null || f.delta === 0) return '';
  return f.delta > 0 === DIFF_FIGURE_INFO[f.figure].higherIsBetter ? ' good' : ' bad';
}

/**
 * One matched part of a diff (shared/diff/compare.ts, the computation `trebuchet diff` uses):
 * per figure the new side's value, the base's, the change, its percentage and the noise
 * verdict, under the evidence the tests had. History's "vs baseline" and its two-run diff
 * both show this table, so they never disagree.
 */
export function FigureDiffTable({
  part,
  heads,
  baseFirst = false,
  testId,
}: {
  part: PartDiff;
  /** Column heads of the new side and the base ("This run", "Baseline"; "B", "A"). */
  heads: { next: string; base: string };
  /** The base's column first (A before B); else the new side's (this run before its baseline). */
  baseFirst?: boolean;
  /** "vs-baseline" or "diff": the table is `${testId}-table`, its rows `${testId}-row`, and so on. */
  testId: string;
}) {
  return (
    <TableScroll>
      <table className="table" data-testid={`${testId}-table`} data-part={part.label}>
        <caption className="muted small" data-testid={`${testId}-evidence`}>
          {partTitle(part)} · {evidenceText(part)}
        </caption>
        <thead>
          <tr>
            <th scope="col">Figure</th>
            {(baseFirst ? [heads.base, heads.next] : [heads.next, heads.base]).map((h) => (
              <th scope="col" className="num" key={h}>
                {h}
              </th>
            ))}
            <th scope="col" className="num">
              Δ
            </th>
            <th scope="col" className="num">
              Δ %
            </th>
            <th scope="col">Noise</th>
          </tr>
        </thead>
        <tbody>
          {part.figures.map((f) => {
            const info = DIFF_FIGURE_INFO[f.figure];
            return (
              <tr
                key={f.figure}
                data-testid={`${testId}-row`}
                data-figure={f.figure}
                data-verdict={f.verdict}
              >
                <th scope="row">
                  {info.label} <span className="muted small">({info.unit})</span>
                </th>
                {(baseFirst ? [f.base, f.next] : [f.next, f.base]).map((v, i) => (
                  <td className="num" key={i}>
                    {diffValueText(info, v)}
                  </td>
                ))}
                <td className={`num${toneOf(f)}`} data-testid={`${testId}-delta`}>
                  {diffDeltaText(f)}
                </td>
                <td className={`num${toneOf(f)}`} data-testid={`${testId}-percent`}>
                  {diffPercentText(f)}
                </td>
                <td data-testid={`${testId}-verdict`}>{diffVerdictText(f)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </TableScroll>
  );
}
