/**
 * Two saved results of one kind compared figure by figure: their parts matched by name (a
 * run's targets; a comparison's target · protocol · level; a capacity search's target ·
 * rate), and for each figure the change and whether it is larger than run-to-run noise.
 * With repetitions on both sides, Welch's t-test over them (shared/comparison/noise.ts);
 * with single runs, a Kolmogorov–Smirnov test on the latency histograms and Welch's t-test
 * over the one-second windows for the rates and counts. A test that could not have told even
 * a large change says "not enough evidence" and how much would tell (evidence.ts), never
 * "within noise". Two runs of one target each are paired whatever their names (a server moved
 * to another URL), and say so. Pure: the host decodes histograms.
 */
import { capacityReports, curveOf } from '../capacity/report.ts';
import { rateText } from '../capacity/search.ts';
import { welchTest } from '../comparison/noise.ts';
import { comparisonTargetLabel, levelKindOf, levelLabel } from '../comparison/plan.ts';
import { statOf, type Stat } from '../comparison/stats.ts';
import type { RunResult } from '../model/result.ts';
import { targetLabel } from '../model/scenario.ts';
import { recordKind, type SavedKind, type SavedResult } from '../records/kinds.ts';
import { ksIsThin, ksNeeded, welchIsThin, welchNeeded } from './evidence.ts';
import {
  DIFF_FIGURES,
  diffFigureOf,
  windowCount,
  windowSeconds,
  windowValues,
  type DiffFigure,
} from './figures.ts';
import { ksTest } from './ks.ts';

/**
 * welch-repetitions: Welch's t-test over each side's runs; welch-windows: over each single
 * run's one-second windows; ks-histograms: Kolmogorov–Smirnov on the two latency histograms,
 * counting windows, not requests, as the evidence; none: no test applies.
 */
export type NoiseTest = 'welch-repetitions' | 'welch-windows' | 'ks-histograms' | 'none';
/**
 * beyond-noise: the test says the change is real; within-noise: it says the change is not
 * beyond what runs vary by, and it had evidence enough to tell a large one; thin: it found no
 * difference but could not have told even a large one (not enough evidence); untested: no
 * test could judge it.
 */
export type DiffVerdict = 'beyond-noise' | 'within-noise' | 'thin' | 'untested' | 'no-data';

/**
 * How much evidence a side would need for the test to tell a change this large: runs
 * (repetitions) or one-second windows (a single run's), and for windows the run's length in
 * seconds at its sample interval.
 */
export interface NeededEvidence {
  per: 'run' | 'window';
  count: number;
  seconds: number | null;
}

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
  /** A thin verdict: what would tell a change this large; null otherwise (or past any sensible length). */
  needed: NeededEvidence | null;
}

/** One matched part: how many runs each side has and its figures. */
export interface PartDiff {
  /** The base's part; nextLabel the new side's (the same, unless paired across names). */
  label: string;
  nextLabel: string;
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
  /**
   * Two runs of one target each, of different names, paired: what differs between them
   * ("the URLs differ: http://a/ and http://b/"); null when the parts matched by name.
   */
  paired: string | null;
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

type Judged = Pick<FigureDiff, 'verdict' | 'statistic' | 'critical' | 'needed'>;

const UNTESTED: Judged = { verdict: 'untested', statistic: null, critical: null, needed: null };

/** A single run's windows, each `seconds` long (null: unknown); absent for repetitions. */
type Windows = { seconds: number | null } | undefined;

/** Welch's t-test of two sets of values (runs, or windows); untested when a side has fewer than 2. */
function welchVerdict(a: Stat | null, b: Stat | null, windows: Windows): Judged {
  if (a?.stdev == null || b?.stdev == null) return UNTESTED;
  const sa = { ...a, stdev: a.stdev };
  const sb = { ...b, stdev: b.stdev };
  const w = welchTest(sa, sb);
  const judged = { statistic: Math.abs(w.t), critical: w.critical };
  if (w.different) return { ...judged, verdict: 'beyond-noise', needed: null };
  if (!welchIsThin(sa, sb, w.df)) return { ...judged, verdict: 'within-noise', needed: null };
  const count = welchNeeded(sa, sb);
  return { ...judged, verdict: 'thin', needed: neededOf(count, windows) };
}

/** What would tell: `count` runs, or `count` windows and the run's length they make. */
function neededOf(count: number | null, windows: Windows): NeededEvidence | null {
  if (count === null) return null;
  if (windows === undefined) return { per: 'run', count, seconds: null };
  return { per: 'window', count, seconds: windows.seconds === null ? null : count * windows.seconds };
}

/** How a single run's figure is judged: the histograms for latency, the windows for rates and counts. */
function singleRunVerdict(
  figure: DiffFigure,
  base: RunResult,
  next: RunResult,
  quantilesOf: QuantilesOf,
): Judged & Pick<FigureDiff, 'test'> {
  const windows = { seconds: windowSeconds(base) ?? windowSeconds(next) };
  const a = windowValues(base, figure);
  const b = windowValues(next, figure);
  if (a && b) return { test: 'welch-windows', ...welchVerdict(statOf(a), statOf(b), windows) };
  if (figure === 'cpu') return { test: 'none', ...UNTESTED };
  const qa = quantilesOf(base);
  const qb = quantilesOf(next);
  if (!qa || !qb) return { test: 'none', ...UNTESTED };
  const ks = ksTest(qa, qb, windowCount(base), windowCount(next));
  const judged = {
    test: 'ks-histograms' as const,
    statistic: ks.d,
    // Under 4 windows a side the critical value passes 1: no gap could exceed it.
    critical: Number.isFinite(ks.critical) ? ks.critical : null,
  };
  if (ks.different) return { ...judged, verdict: 'beyond-noise', needed: null };
  if (!ksIsThin(ks.critical)) return { ...judged, verdict: 'within-noise', needed: null };
  return { ...judged, verdict: 'thin', needed: neededOf(ksNeeded(ks.d), windows) };
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
      return { ...values, delta: null, deltaPercent: null, test: 'none', ...UNTESTED, verdict: 'no-data' };
    }
    const delta = sb.mean - sa.mean;
    const change = { ...values, delta, deltaPercent: percentOf(sa.mean, delta) };
    // No change is no change, whatever a test would say of it.
    if (delta === 0) return { ...change, test: 'none', ...UNTESTED, verdict: 'within-noise' };
    if (evidence === 'repetitions')
      return { ...change, test: 'welch-repetitions', ...welchVerdict(sa, sb, undefined) };
    if (evidence === 'single') return { ...change, ...singleRunVerdict(figure, a[0]!, b[0]!, quantilesOf) };
    return { ...change, test: 'none', ...UNTESTED };
  });
  return {
    label: base.label,
    nextLabel: next.label,
    baseRuns: a.length,
    nextRuns: b.length,
    evidence,
    windows: evidence === 'single' ? { base: windowCount(a[0]!), next: windowCount(b[0]!) } : null,
    figures,
  };
}

/**
 * What differs between the one target of each of two runs paired across names: their URLs,
 * or else their names. "the URLs differ: http://a/ and http://b/".
 */
export function pairedText(base: NamedRuns, next: NamedRuns): string {
  const url = (p: NamedRuns): string => p.results[0]?.target.url ?? '';
  if (url(base) !== url(next)) return `the URLs differ: ${url(base)} and ${url(next)}`;
  return `the targets' names differ: ${base.label} and ${next.label} (the same URL)`;
}

/**
 * NEXT against BASE. Two runs of one measured target each are paired whatever their names;
 * otherwise parts are matched by name. Throws a DiffInputError when they are of different
 * kinds or have no part in common (naming each side's parts).
 */
export function diffResults(base: SavedResult, next: SavedResult, quantilesOf: QuantilesOf): ResultDiff {
  if (base.kind !== next.kind) {
    throw new DiffInputError(
      `the files are of different kinds: ${recordKind(base.kind).noun} and ${recordKind(next.kind).noun}`,
    );
  }
  const a = namedParts(base);
  const b = namedParts(next);
  const inB = new Map(b.map((p) => [p.label, p]));
  const common = a.filter((p) => inB.has(p.label));
  if (common.length === 0 && base.kind === 'run' && a.length === 1 && b.length === 1) {
    return {
      kind: base.kind,
      parts: [diffPart(a[0]!, b[0]!, quantilesOf)],
      onlyBase: [],
      onlyNext: [],
      paired: pairedText(a[0]!, b[0]!),
    };
  }
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
    paired: null,
  };
}
