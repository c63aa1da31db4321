/**
 * --fail-on rules: "p99>+10%" fails when p99 rose more than 10 % and beyond noise; "rps<-5%"
 * when req/s fell more than 5 % and beyond noise. A move past a limit within noise is
 * reported and never fails. Pure.
 */
import { DIFF_FIGURES, type DiffFigure } from './figures.ts';
import type { FigureDiff, ResultDiff } from './compare.ts';

export interface FailRule {
  /** As given, for the report. */
  text: string;
  figure: DiffFigure;
  op: '>' | '<';
  /** Percent; signed. */
  limit: number;
}

/** A rule from its text; throws an Error saying what is wrong with it. */
export function parseFailRule(text: string): FailRule {
  const m = /^\s*([a-z0-9.]+)\s*([<>])\s*([+-]?\d+(?:\.\d+)?)\s*%\s*$/i.exec(text);
  if (!m) throw new Error(`"${text}" is not FIGURE>+N% or FIGURE<-N% (e.g. 'p99>+10%', 'rps<-5%')`);
  const figure = m[1]!.toLowerCase();
  if (!(DIFF_FIGURES as readonly string[]).includes(figure)) {
    throw new Error(`"${m[1]}" is not one of ${DIFF_FIGURES.join(', ')}`);
  }
  return { text: text.trim(), figure: figure as DiffFigure, op: m[2] as '>' | '<', limit: Number(m[3]) };
}

/** A part's figure that moved past a rule's limit; it breaks the rule only when beyond noise. */
export interface RuleMove {
  rule: FailRule;
  part: string;
  figure: FigureDiff;
  /** The change in percent (±Infinity from 0 to some). */
  percent: number;
  broken: boolean;
}

/** The change of a figure in percent, from 0 to some being infinite. */
function movePercent(f: FigureDiff): number | null {
  if (f.delta === null) return null;
  if (f.deltaPercent !== null) return f.deltaPercent;
  return f.delta > 0 ? Infinity : -Infinity;
}

/** Every part's figure that moved past a rule's limit, in rule order. */
export function ruleMoves(diff: ResultDiff, rules: readonly FailRule[]): RuleMove[] {
  return rules.flatMap((rule) =>
    diff.parts.flatMap((part) => {
      const figure = part.figures.find((f) => f.figure === rule.figure);
      const percent = figure ? movePercent(figure) : null;
      if (!figure || percent === null) return [];
      const past = rule.op === '>' ? percent > rule.limit : percent < rule.limit;
      return past
        ? [{ rule, part: part.label, figure, percent, broken: figure.verdict === 'beyond-noise' }]
        : [];
    }),
  );
}
