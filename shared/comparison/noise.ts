import type { Stat } from './stats.ts';

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
