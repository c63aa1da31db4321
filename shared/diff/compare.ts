/**
 * Two saved results of one kind compared figure by figure: their parts matched by name (a
 * run's targets; a comparison's target · protocol · level; a capacity search's target ·
 * rate), and for each figure the change and whether it is larger than run-to-run noise.
 * With repetitions on both sides, Welch's t-test over them (shared/comparison/noise.ts);
 * with single runs, a Kolmogorov–Smirnov test on the latency histograms and Welch's t-test
 * over the one-second windows for the rates and counts. Pure: the host decodes histograms.
 */
import { capacityReports, curveOf } from '../capacity/report.ts';
import { rateText } from '../capacity/search.ts';
import { welchTest } from '../comparison/noise.ts';
import { comparisonTargetLabel, levelKindOf, levelLabel } from '../comparison/plan.ts';
import { statOf, type Stat } from '../comparison/stats.ts';
import type { RunResult } from '../model/result.ts';
import { targetLabel } from '../model/scenario.ts';
import { SAVED_KIND_NAMES, type SavedKind, type SavedResult } from '../records/result-file.ts';
import { DIFF_FIGURES, diffFigureOf, windowCount, windowValues, type DiffFigure } from './figures.ts';
import { ksTest } from './ks.ts';

/**
 * welch-repetitions: Welch's t-test over each side's runs; welch-windows: over each single
 * run's one-second windows; ks-histograms: Kolmogorov–Smirnov on the two latency histograms,
 * counting windows, not requests, as the evidence; none: no test applies.
 */
export type NoiseTest = 'welch-repetitions' | 'welch-windows' | 'ks-histograms' | 'none';
/** beyond-noise: the test says the change is real; untested: no test could judge it. */
export type DiffVerdict = 'beyond-noise' | 'within-noise' | 'untested' | 'no-data';

export interface FigureDiff {
  figure: DiffFigure;
  /** The mean over a side's runs (its one value with a single run); null when it has none. */
  base: number | null;
  next: number | null;
  /** next − base. */
  delta: number | null;
  /** The change in percent of base; null when base is 0 (and next is not) or a side has no value. */
  deltaPercent: number | null;
  verdict: DiffVerdict;
  test: NoiseTest;
  /** The test's statistic (|t| or D) and the value it had to exceed; null without a test. */
  statistic: number | null;
  critical: number | null;
}

/** One matched part: how many runs each side has and its figures. */
export interface PartDiff {
  label: string;
  baseRuns: number;
  nextRuns: number;
  /** repetitions: 2 or more runs on both sides; single: one each; uneven: neither (no test). */
  evidence: 'repetitions' | 'single' | 'uneven';
  /** Single runs: each run's measured one-second windows (the sample sizes of the tests). */
  windows: { base: number; next: number } | null;
  figures: FigureDiff[];
}

export interface ResultDiff {
  kind: SavedKind;
  parts: PartDiff[];
  /** Parts only one side has, by name. */
  onlyBase: string[];
  onlyNext: string[];
}

/** A part of a result by name, with the runs that measured it. */
export interface NamedRuns {
  label: string;
  results: RunResult[];
}

/** Latency quantiles of a run at evenly spaced ranks, ascending (from its histogram); null without one. */
export type QuantilesOf = (r: RunResult) => readonly number[] | null;

/** Why two results cannot be compared; the command says so and exits 2. */
export class DiffInputError extends Error {}

const measured = (r: RunResult, cancelledToo: boolean): boolean =>
  r.status === 'completed' || (cancelledToo && (r.status === 'cancelled' || r.status === 'interrupted'));

/** Runs grouped by name in first-seen order; a name seen again in a run file gets "#2". */
function grouped(entries: readonly { label: string; result: RunResult }[]): NamedRuns[] {
  const parts = new Map<string, RunResult[]>();
  for (const { label, result } of entries) parts.set(label, [...(parts.get(label) ?? []), result]);
  return [...parts].map(([label, results]) => ({ label, results }));
}

/**
 * The named parts of a result with their measured runs: a plain run's targets and a capacity
 * search's steps as kept (a stopped run is what the user kept), a comparison's cells with
 * their completed repetitions. Failed runs measured nothing and are left out.
 */
export function namedParts(saved: SavedResult): NamedRuns[] {
  switch (saved.kind) {
    case 'run': {
      const seen = new Map<string, number>();
      return saved.results
        .filter((r) => measured(r, true))
        .map((r) => {
          const name = targetLabel(r.target);
          const k = (seen.get(name) ?? 0) + 1;
          seen.set(name, k);
          return { label: k === 1 ? name : `${name} #${k}`, results: [r] };
        });
    }
    case 'comparison': {
      const { plan, outcomes } = saved.comparison;
      const kind = levelKindOf(plan.load);
      return grouped(
        outcomes
          .filter((o) => measured(o.result, false))
          .map((o) => {
            const c = o.coordinates;
            const target = plan.targets[c.targetIndex];
            const name = target ? comparisonTargetLabel(target) : `target ${c.targetIndex + 1}`;
            return { label: [name, c.protocol, levelLabel(kind, c.level)].join(' · '), result: o.result };
          }),
      );
    }
    case 'capacity': {
      const { plan, steps } = saved.capacity;
      return grouped(
        capacityReports(plan, steps, null).flatMap((report) =>
          curveOf(report)
            .filter((s) => measured(s.result, true))
            .map((s) => ({ label: `${report.label} · ${rateText(s.rate)}`, result: s.result })),
        ),
      );
    }
  }
}

const percentOf = (base: number, delta: number): number | null =>
  base === 0 ? (delta === 0 ? 0 : null) : (delta / Math.abs(base)) * 100;

function statsOf(results: readonly RunResult[], figure: DiffFigure): Stat | null {
  return statOf(results.map((r) => diffFigureOf(r, figure)).filter((v): v is number => v !== null));
}

/** Welch's t-test of two sets of values; untested when a side has fewer than 2. */
function welchVerdict(
  a: Stat | null,
  b: Stat | null,
): Pick<FigureDiff, 'verdict' | 'statistic' | 'critical'> {
  if (a?.stdev == null || b?.stdev == null) return { verdict: 'untested', statistic: null, critical: null };
  const w = welchTest({ ...a, stdev: a.stdev }, { ...b, stdev: b.stdev });
  return {
    verdict: w.different ? 'beyond-noise' : 'within-noise',
    statistic: Math.abs(w.t),
    critical: w.critical,
  };
}

/** How a single run's figure is judged: the histograms for latency, the windows for rates and counts. */
function singleRunVerdict(
  figure: DiffFigure,
  base: RunResult,
  next: RunResult,
  quantilesOf: QuantilesOf,
): Pick<FigureDiff, 'verdict' | 'test' | 'statistic' | 'critical'> {
  const a = windowValues(base, figure);
  const b = windowValues(next, figure);
  if (a && b) return { test: 'welch-windows', ...welchVerdict(statOf(a), statOf(b)) };
  if (figure === 'cpu') return { test: 'none', verdict: 'untested', statistic: null, critical: null };
  const qa = quantilesOf(base);
  const qb = quantilesOf(next);
  if (!qa || !qb) return { test: 'none', verdict: 'untested', statistic: null, critical: null };
  const ks = ksTest(qa, qb, windowCount(base), windowCount(next));
  // With under 4 windows a side no gap could pass the critical value: the test cannot tell.
  if (!(ks.critical < 1))
    return { test: 'ks-histograms', verdict: 'untested', statistic: ks.d, critical: null };
  return {
    test: 'ks-histograms',
    verdict: ks.different ? 'beyond-noise' : 'within-noise',
    statistic: ks.d,
    critical: ks.critical,
  };
}

/** One part of each side compared figure by figure. */
export function diffPart(base: NamedRuns, next: NamedRuns, quantilesOf: QuantilesOf): PartDiff {
  const a = base.results;
  const b = next.results;
  const evidence =
    a.length >= 2 && b.length >= 2 ? 'repetitions' : a.length === 1 && b.length === 1 ? 'single' : 'uneven';
  const figures = DIFF_FIGURES.map((figure): FigureDiff => {
    const sa = statsOf(a, figure);
    const sb = statsOf(b, figure);
    const values = { figure, base: sa?.mean ?? null, next: sb?.mean ?? null };
    if (!sa || !sb) {
      return {
        ...values,
        delta: null,
        deltaPercent: null,
        verdict: 'no-data',
        test: 'none',
        statistic: null,
        critical: null,
      };
    }
    const delta = sb.mean - sa.mean;
    const change = { ...values, delta, deltaPercent: percentOf(sa.mean, delta) };
    // No change is no change, whatever a test would say of it.
    if (delta === 0)
      return { ...change, verdict: 'within-noise', test: 'none', statistic: null, critical: null };
    if (evidence === 'repetitions') return { ...change, test: 'welch-repetitions', ...welchVerdict(sa, sb) };
    if (evidence === 'single') return { ...change, ...singleRunVerdict(figure, a[0]!, b[0]!, quantilesOf) };
    return { ...change, verdict: 'untested', test: 'none', statistic: null, critical: null };
  });
  return {
    label: base.label,
    baseRuns: a.length,
    nextRuns: b.length,
    evidence,
    windows: evidence === 'single' ? { base: windowCount(a[0]!), next: windowCount(b[0]!) } : null,
    figures,
  };
}

/**
 * NEXT against BASE. Throws a DiffInputError when they are of different kinds or have no part
 * in common (naming each side's parts).
 */
export function diffResults(base: SavedResult, next: SavedResult, quantilesOf: QuantilesOf): ResultDiff {
  if (base.kind !== next.kind) {
    throw new DiffInputError(
      `the files are of different kinds: ${SAVED_KIND_NAMES[base.kind]} and ${SAVED_KIND_NAMES[next.kind]}`,
    );
  }
  const a = namedParts(base);
  const b = namedParts(next);
  const inB = new Map(b.map((p) => [p.label, p]));
  const common = a.filter((p) => inB.has(p.label));
  if (common.length === 0) {
    const names = (ps: readonly NamedRuns[]) =>
      ps.length > 0 ? ps.map((p) => p.label).join(', ') : 'nothing measured';
    throw new DiffInputError(
      `the results have nothing in common by name: base has ${names(a)}; new has ${names(b)}`,
    );
  }
  const inA = new Set(a.map((p) => p.label));
  return {
    kind: base.kind,
    parts: common.map((p) => diffPart(p, inB.get(p.label)!, quantilesOf)),
    onlyBase: a.filter((p) => !inB.has(p.label)).map((p) => p.label),
    onlyNext: b.filter((p) => !inA.has(p.label)).map((p) => p.label),
  };
}
