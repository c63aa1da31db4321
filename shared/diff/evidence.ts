/**
 * Whether a noise test had evidence enough to call a change noise, and how much it would take
 * to tell the change seen. A test that finds no difference says little when it could not have
 * found even a large one: Welch's t-test over 4 windows a side cannot tell a shift smaller
 * than 1.7 standard deviations, the Kolmogorov–Smirnov test over 4 windows a side no gap under
 * D 0.96. Such a verdict is "not enough evidence", never "within noise". Pure.
 */
import { tCritical95 } from '../comparison/noise.ts';
import type { Stat } from '../comparison/stats.ts';
import { KS_C_95 } from './ks.ts';

/**
 * The largest change a test may be unable to tell and still have "enough evidence": one
 * standard deviation for Welch's t-test (a large effect, Cohen's d = 1), half the distribution
 * moved for Kolmogorov–Smirnov (D 0.5). Past these the test cannot tell even a large change.
 */
export const LARGE_SHIFT_SDS = 1;
export const LARGE_GAP_D = 0.5;

/** Past this many runs or windows a side, "how much would tell" is not worth saying as a number. */
export const MAX_NEEDED = 1_000_000;

/** Welch's t-test over these two sets cannot tell a shift of LARGE_SHIFT_SDS standard deviations. */
export function welchIsThin(a: Stat & { stdev: number }, b: Stat & { stdev: number }, df: number): boolean {
  return tCritical95(df) * Math.sqrt(1 / a.n + 1 / b.n) > LARGE_SHIFT_SDS;
}

/** The Kolmogorov–Smirnov test with this critical value cannot tell a gap of LARGE_GAP_D. */
export const ksIsThin = (critical: number): boolean => !(critical <= LARGE_GAP_D);

/**
 * Runs (or windows) a side with which Welch's t-test would call a change of this size beyond
 * noise, at the spreads seen: the least n with |Δ| / √((sa² + sb²) / n) > t(df(n)). Null
 * when there is no change to tell, or it would take more than MAX_NEEDED.
 */
export function welchNeeded(a: Stat & { stdev: number }, b: Stat & { stdev: number }): number | null {
  const delta = Math.abs(b.mean - a.mean);
  const va = a.stdev ** 2;
  const vb = b.stdev ** 2;
  if (delta === 0) return null;
  if (va + vb === 0) return Math.max(a.n, b.n);
  const tells = (n: number): boolean => {
    const df = ((n - 1) * (va + vb) ** 2) / (va ** 2 + vb ** 2);
    return delta / Math.sqrt((va + vb) / n) > tCritical95(df);
  };
  let hi = Math.max(2, a.n, b.n);
  while (!tells(hi)) {
    if (hi >= MAX_NEEDED) return null;
    hi = Math.min(MAX_NEEDED, hi * 2);
  }
  let lo = 1;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (tells(mid)) hi = mid;
    else lo = mid;
  }
  return Math.max(hi, 2);
}

/**
 * Windows a side with which the Kolmogorov–Smirnov test would call a gap of D beyond noise:
 * the least n with c(α)·√(2/n) < D. Null for no gap, or past MAX_NEEDED.
 */
export function ksNeeded(d: number): number | null {
  if (!(d > 0)) return null;
  const n = Math.floor(2 * (KS_C_95 / d) ** 2) + 1;
  return n > MAX_NEEDED ? null : n;
}
