import {
  FIGURE_INFO,
  FIGURES,
  type Figure,
  type FigureInfo,
  type RepetitionSummary,
  type Stat,
} from './stats.ts';
import { formatGrouped } from '../format/units.ts';

/* Comparing two sets of repetitions of a figure: Welch's t-test against run-to-run noise. */

/**
 * Two-sided 97.5 % quantiles of Student's t distribution (a 95 % two-sided test), by
 * degrees of freedom. Between rows the quantile is interpolated linearly in 1/df, which is
 * accurate to about 0.3 % and matches the normal quantile (1.96) as df grows.
 */
const T_975: readonly [number, number][] = [
  [1, 12.706],
  [2, 4.303],
  [3, 3.182],
  [4, 2.776],
  [5, 2.571],
  [6, 2.447],
  [7, 2.365],
  [8, 2.306],
  [9, 2.262],
  [10, 2.228],
  [12, 2.179],
  [15, 2.131],
  [20, 2.086],
  [25, 2.06],
  [30, 2.042],
  [40, 2.021],
  [60, 2.0],
  [120, 1.98],
  [Infinity, 1.96],
];

/** The t value a 95 % two-sided test must exceed at df degrees of freedom (df >= 1). */
export function tCritical95(df: number): number {
  if (!(df >= 1)) return T_975[0]![1];
  for (let i = 1; i < T_975.length; i++) {
    const [d1, t1] = T_975[i - 1]!;
    const [d2, t2] = T_975[i]!;
    if (df === d1) return t1;
    if (df < d2) {
      const x = 1 / df;
      const x1 = 1 / d1;
      const x2 = d2 === Infinity ? 0 : 1 / d2;
      return t1 + ((t2 - t1) * (x - x1)) / (x2 - x1);
    }
  }
  return 1.96;
}

export type NoiseVerdict = 'different' | 'within-noise' | 'too-few-repetitions' | 'no-data';

export interface FigureComparison {
  figure: Figure;
  info: FigureInfo;
  a: Stat | null;
  b: Stat | null;
  /** b - a, in the figure's unit. */
  delta: number | null;
  /** (b - a) / a in percent; null when a's mean is 0 (and b's is not) or either side is missing. */
  deltaPercent: number | null;
  /**
   * different: Welch's t-test (two-sided, 95 %) says the means differ by more than the
   * repetitions' run-to-run spread explains; within-noise: it does not; too-few-repetitions:
   * a side has fewer than 2 runs, so there is no spread to judge by; no-data: a side has no value.
   */
  verdict: NoiseVerdict;
  /** Which side is better, only when the verdict is 'different'. */
  better: 'a' | 'b' | null;
  /** Welch's statistic, its Welch-Satterthwaite degrees of freedom and the critical value. */
  test: { t: number; df: number; critical: number } | null;
  /** One line for the report, e.g. "+12.3 %: larger than run-to-run noise (Welch's t-test, 95 %)". */
  message: string;
}

const WITHIN_NOISE = 'within run-to-run noise';
const TOO_FEW = 'too few repetitions to tell';
const WELCH = "(Welch's t-test, 95 %)";

const signOf = (x: number) => (x > 0 ? '+' : x < 0 ? '−' : '±');

/**
 * The change from A to B as the report and the run diff write it: "+12.3 %", "−4.0 %",
 * "±0.0 %"; in the figure's unit when A is 0 ("+4 requests"); "–" when a side has no value.
 */
export function deltaText(c: Pick<FigureComparison, 'delta' | 'deltaPercent' | 'info'>): string {
  if (c.delta === null) return '–';
  if (c.deltaPercent === null) {
    const decimals = Number.isInteger(c.delta) ? 0 : 2;
    return `${signOf(c.delta)}${formatGrouped(Math.abs(c.delta), decimals)} ${c.info.unit}`;
  }
  return `${signOf(c.deltaPercent)}${formatGrouped(Math.abs(c.deltaPercent), 1)} %`;
}

/** The verdict in a few words, for a table cell; `message` says it at length. */
export function verdictText(c: Pick<FigureComparison, 'verdict' | 'better'>): string {
  switch (c.verdict) {
    case 'different':
      return c.better === 'b' ? 'B better, beyond noise' : 'A better, beyond noise';
    case 'within-noise':
      return WITHIN_NOISE;
    case 'too-few-repetitions':
      return TOO_FEW;
    case 'no-data':
      return 'no data';
  }
}

/** Welch's statistic, its degrees of freedom, the critical value, and whether the means differ beyond the spread. */
export interface WelchTest {
  t: number;
  df: number;
  critical: number;
  different: boolean;
}

/**
 * Welch's t-test (two-sided, 95 %) of two sets of values, each of at least 2 (a stdev): do
 * their means differ by more than their spread explains?
 */
export function welchTest(a: Stat & { stdev: number }, b: Stat & { stdev: number }): WelchTest {
  const delta = b.mean - a.mean;
  const va = a.stdev ** 2 / a.n;
  const vb = b.stdev ** 2 / b.n;
  const se = Math.sqrt(va + vb);
  if (se === 0) {
    // No spread at all on either side: any difference in the means is real, none is noise.
    const df = a.n + b.n - 2;
    return {
      t: delta === 0 ? 0 : Math.sign(delta) * Infinity,
      df,
      critical: tCritical95(df),
      different: delta !== 0,
    };
  }
  const t = delta / se;
  const df = (va + vb) ** 2 / (va ** 2 / (a.n - 1) + vb ** 2 / (b.n - 1));
  const critical = tCritical95(df);
  return { t, df, critical, different: Math.abs(t) > critical };
}

/** Compares one figure of two sets of repetitions (B against A). */
export function compareFigure(figure: Figure, a: Stat | null, b: Stat | null): FigureComparison {
  const info = FIGURE_INFO[figure];
  const base = { figure, info, a, b };
  if (a === null || b === null) {
    return {
      ...base,
      delta: null,
      deltaPercent: null,
      verdict: 'no-data',
      better: null,
      test: null,
      message: `no ${info.label.toLowerCase()} on ${a === null ? (b === null ? 'either side' : 'side A') : 'side B'}`,
    };
  }
  const delta = b.mean - a.mean;
  const deltaPercent = a.mean === 0 ? (b.mean === 0 ? 0 : null) : (delta / Math.abs(a.mean)) * 100;
  const change = deltaText({ delta, deltaPercent, info });
  if (a.stdev === null || b.stdev === null) {
    return {
      ...base,
      delta,
      deltaPercent,
      verdict: 'too-few-repetitions',
      better: null,
      test: null,
      message: `${change}: ${TOO_FEW} (A has ${a.n} run${a.n === 1 ? '' : 's'}, B has ${b.n}; need at least 2 on each side)`,
    };
  }
  const { different, ...test } = welchTest({ ...a, stdev: a.stdev }, { ...b, stdev: b.stdev });
  const better = !different ? null : delta > 0 === info.higherIsBetter ? 'b' : 'a';
  return {
    ...base,
    delta,
    deltaPercent,
    verdict: different ? 'different' : 'within-noise',
    better,
    test,
    message: different
      ? `${change}: larger than run-to-run noise ${WELCH}`
      : `${change}: ${WITHIN_NOISE} ${WELCH}`,
  };
}

/** Every figure of B compared with A. */
export function compareSummaries(a: RepetitionSummary, b: RepetitionSummary): FigureComparison[] {
  return FIGURES.map((f) => compareFigure(f, a.figures[f], b.figures[f]));
}
