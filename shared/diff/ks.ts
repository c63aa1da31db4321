/**
 * The two-sample Kolmogorov–Smirnov test on two latency distributions, each given as its
 * quantiles at evenly spaced ranks (what a decoded HdrHistogram gives). Pure.
 */

/** c(α) of the two-sample test at α = 0.05. */
export const KS_C_95 = 1.358;

export interface KsTest {
  /** The largest gap between the two distribution functions, in [0, 1]. */
  d: number;
  /** The gap a 95 % test must exceed with these sample sizes. */
  critical: number;
  different: boolean;
}

/** The fraction of a sorted list at or below x. */
function cdf(sorted: readonly number[], x: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo / sorted.length;
}

/**
 * D = max |F_a(x) − F_b(x)| over every value either side holds, judged against
 * 1.358·√((n+m)/(n·m)). a and b: quantiles, ascending; n and m: how many independent
 * observations each side stands for (see the diff: a run's windows, not its requests).
 */
export function ksTest(a: readonly number[], b: readonly number[], n: number, m: number): KsTest {
  let d = 0;
  for (const x of [...a, ...b]) d = Math.max(d, Math.abs(cdf(a, x) - cdf(b, x)));
  const critical = n > 0 && m > 0 ? KS_C_95 * Math.sqrt((n + m) / (n * m)) : Infinity;
  return { d, critical, different: d > critical };
}
