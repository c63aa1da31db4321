import { describe, expect, it } from 'vitest';
import { welchTest } from '../../shared/comparison/noise.ts';
import type { ComparisonPlan } from '../../shared/comparison/plan.ts';
import { DiffInputError, diffResults, namedParts } from '../../shared/diff/compare.ts';
import { ksTest } from '../../shared/diff/ks.ts';
import { parseFailRule, ruleMoves } from '../../shared/diff/rules.ts';
import { ksNeeded, welchIsThin, welchNeeded } from '../../shared/diff/evidence.ts';
import { diffPercentText, diffVerdictText, evidenceText, formatDiff } from '../../shared/format/diff-text.ts';
import type { RunResult } from '../../shared/model/result.ts';
import type { SavedResult } from '../../shared/records/kinds.ts';
import { resultWith, twoServerPlan } from '../helpers/comparison-results.ts';
import { amendResult, runResultFixture, sampleFixture } from '../helpers/run-result.ts';

const noQuantiles = (): null => null;

/** A comparison of one level whose cells ran the given results, repetition by repetition. */
function comparison(plan: ComparisonPlan, cells: readonly (readonly RunResult[])[]): SavedResult {
  const outcomes = cells.flatMap((runs, targetIndex) =>
    runs.map((result, repetition) => ({
      cellIndex: targetIndex,
      coordinates: { targetIndex, protocol: 'http' as const, level: 10, repetition },
      result,
    })),
  );
  return { kind: 'comparison', comparison: { plan, status: 'completed', outcomes, preflightFailures: [] } };
}

describe('the noise tests', () => {
  it("Welch's t-test: means 10 and 12, stdev 1, 5 runs each: t 3.162 on 8 degrees of freedom, over 2.306", () => {
    const w = welchTest(
      { n: 5, mean: 10, stdev: 1, min: 9, max: 11 },
      { n: 5, mean: 12, stdev: 1, min: 11, max: 13 },
    );
    expect(w.t).toBeCloseTo(3.1623, 4);
    expect(w.df).toBeCloseTo(8, 6);
    expect(w.critical).toBe(2.306);
    expect(w.different).toBe(true);
  });

  it('Kolmogorov–Smirnov: a shift by half the range is D 0.5, beyond noise with 20 windows a side, not with 10', () => {
    const a = Array.from({ length: 100 }, (_, i) => i + 1);
    const b = a.map((x) => x + 50);
    const ten = ksTest(a, b, 10, 10);
    expect(ten.d).toBeCloseTo(0.5, 9);
    expect(ten.critical).toBeCloseTo(0.6073, 4);
    expect(ten.different).toBe(false);
    const twenty = ksTest(a, b, 20, 20);
    expect(twenty.critical).toBeCloseTo(0.4294, 4);
    expect(twenty.different).toBe(true);
    expect(ksTest(a, a, 20, 20).d).toBe(0);
  });
});

describe('--fail-on rules', () => {
  it('reads a figure, a direction and a signed percentage, and names what is wrong', () => {
    expect(parseFailRule('p99>+10%')).toEqual({ text: 'p99>+10%', figure: 'p99', op: '>', limit: 10 });
    expect(parseFailRule(' rps < -5 % ')).toEqual({ text: 'rps < -5 %', figure: 'rps', op: '<', limit: -5 });
    expect(parseFailRule('p99.9>+2.5%').limit).toBe(2.5);
    expect(() => parseFailRule('p99>10ms')).toThrow('"p99>10ms" is not FIGURE>+N% or FIGURE<-N%');
    expect(() => parseFailRule('p98>+1%')).toThrow('"p98" is not one of rps, mean, p50');
  });
});

describe('diffResults', () => {
  const base = comparison(twoServerPlan(), [
    [resultWith({ rps: 1000, p50: 1 }), resultWith({ rps: 1010, p50: 3 })],
    [resultWith({ rps: 2000, p50: 2 }), resultWith({ rps: 2010, p50: 2 })],
  ]);
  const plan = twoServerPlan();
  const caddy = twoServerPlan({
    targets: [plan.targets[0]!, { ...plan.targets[1]!, name: 'caddy' }],
  });
  const next = comparison(caddy, [
    [resultWith({ rps: 1500, p50: 2 }), resultWith({ rps: 1490, p50: 2.5 })],
    [resultWith({ rps: 2005, p50: 2 }), resultWith({ rps: 2000, p50: 2 })],
  ]);

  it("matches a comparison's cells by name, lists what is only on one side, and judges repetitions by Welch's t-test", () => {
    expect(namedParts(base).map((p) => [p.label, p.results.length])).toEqual([
      ['nginx · http · c=10', 2],
      ['apache · http · c=10', 2],
    ]);
    const diff = diffResults(base, next, noQuantiles);
    expect(diff.parts.map((p) => p.label)).toEqual(['nginx · http · c=10']);
    expect(diff.onlyBase).toEqual(['apache · http · c=10']);
    expect(diff.onlyNext).toEqual(['caddy · http · c=10']);
    const part = diff.parts[0]!;
    expect(part.evidence).toBe('repetitions');
    const rps = part.figures.find((f) => f.figure === 'rps')!;
    expect(rps.base).toBe(1005);
    expect(rps.next).toBe(1495);
    expect(rps.deltaPercent).toBeCloseTo(48.756, 3);
    expect(rps.test).toBe('welch-repetitions');
    expect(rps.verdict).toBe('beyond-noise');
    // 490 / √(7.071²/2 + 7.071²/2) = 69.3
    expect(rps.statistic).toBeCloseTo(69.296, 3);
    const p50 = part.figures.find((f) => f.figure === 'p50')!;
    expect(p50.deltaPercent).toBeCloseTo(12.5, 9);
    // Two runs a side: t(1.1 df) must pass about 11, so no change of a few spreads could pass.
    expect(p50.verdict).toBe('thin');
    expect(p50.needed).toEqual({ per: 'run', count: expect.any(Number) as number, seconds: null });
    expect(p50.needed!.count).toBeGreaterThan(2);

    const rules = [parseFailRule('rps>+10%'), parseFailRule('p50>+10%'), parseFailRule('p99<-1%')];
    const moves = ruleMoves(diff, rules);
    expect(moves.map((m) => [m.rule.text, m.broken])).toEqual([
      ['rps>+10%', true],
      ['p50>+10%', false],
    ]);
    const text = formatDiff(diff, { base: 'a.json', next: 'b.json' }, rules, moves);
    expect(text).toContain("2 and 2 runs: Welch's t-test over the runs (95 %)");
    expect(text).toMatch(
      /^req\/s +1,005\.00 +1,495\.00 +\+490\.00 +\+48\.8 % +beyond noise \(\|t\| 69\.30 > /m,
    );
    expect(text).toContain(
      '  p50>+10%: nginx · http · c=10 p50 +12.5 %, not enough evidence: reported, not failing',
    );
    expect(text).toMatch(
      new RegExp(
        `^p50 .* not enough evidence \\(\\|t\\| [\\d.]+ ≤ [\\d.]+; ${p50.needed!.count} runs a side would tell it\\)$`,
        'm',
      ),
    );
    expect(text).toContain(
      '"not enough evidence": the test found no difference but could not have told even a large one',
    );
    expect(text).toContain('  p99<-1%: no figure moved past it');
    expect(text).toContain('Only in base: apache · http · c=10');
    expect(text.trimEnd().split('\n').at(-1)).toBe(
      'Regression: 1 figure(s) past a --fail-on limit beyond noise',
    );
  });

  it('takes errors from none to some as an infinite rise, and refuses results of different kinds or with nothing in common, pairing two one-target runs', () => {
    const clean = runResultFixture();
    const broken = amendResult(clean, { requests: { errors: 40 } });
    const diff = diffResults(
      { kind: 'run', results: [amendResult(clean, { requests: { errors: 0 } })] },
      { kind: 'run', results: [broken] },
      noQuantiles,
    );
    const errors = diff.parts[0]!.figures.find((f) => f.figure === 'errors')!;
    expect(errors.delta).toBe(40);
    expect(errors.deltaPercent).toBeNull();
    expect(diffPercentText(errors)).toBe('from 0');
    expect(ruleMoves(diff, [parseFailRule('errors>+1000%')])[0]!.percent).toBe(Infinity);

    expect(() => diffResults({ kind: 'run', results: [clean] }, base, noQuantiles)).toThrow(
      new DiffInputError('the files are of different kinds: a run and a comparison'),
    );
    // One target each, of other names: paired, and the difference said.
    const elsewhere = amendResult(clean, { target: { name: 'elsewhere', url: 'http://127.0.0.1:9090/' } });
    const paired = diffResults(
      { kind: 'run', results: [clean] },
      { kind: 'run', results: [elsewhere] },
      noQuantiles,
    );
    expect(paired.parts.map((p) => [p.label, p.nextLabel])).toEqual([['127.0.0.1:8080', 'elsewhere']]);
    expect(paired.paired).toBe(`the URLs differ: ${clean.target.url} and http://127.0.0.1:9090/`);
    const text = formatDiff(paired, { base: 'a.json', next: 'b.json' }, [], []);
    expect(text).toContain(
      `Paired the one target of each run: the URLs differ: ${clean.target.url} and http://127.0.0.1:9090/`,
    );
    expect(text).toContain('== 127.0.0.1:8080 → elsewhere ==');
    const renamed = amendResult(clean, { target: { name: 'renamed' } });
    expect(
      diffResults({ kind: 'run', results: [clean] }, { kind: 'run', results: [renamed] }, noQuantiles).paired,
    ).toBe("the targets' names differ: 127.0.0.1:8080 and renamed (the same URL)");
    // Two targets on a side: matched by name only.
    expect(() =>
      diffResults(
        { kind: 'run', results: [clean, amendResult(clean, { target: { name: 'other' } })] },
        { kind: 'run', results: [elsewhere] },
        noQuantiles,
      ),
    ).toThrow(
      'the results have nothing in common by name: base has 127.0.0.1:8080, other; new has elsewhere',
    );
  });
});

/** A single run whose measured windows ran at the given req/s, `seconds` each, its p99 `p99` ms. */
function windowed(rates: readonly number[], seconds: number, p99: number): RunResult {
  const r = runResultFixture();
  return {
    ...r,
    latency: { ...r.latency!, percentiles: { ...r.latency!.percentiles, '99': p99 } },
    throughput: { ...r.throughput, requestsPerSecond: rates.reduce((a, b) => a + b, 0) / rates.length },
    samples: rates.map((rate, i) =>
      sampleFixture({
        seq: i + 1,
        elapsedSeconds: (i + 1) * seconds,
        intervalSeconds: seconds,
        requestsPerSecond: rate,
      }),
    ),
  };
}

/** Quantiles 1..100 ms shifted by `by` ms (a latency distribution as the host decodes it). */
const shifted = (by: number): number[] => Array.from({ length: 100 }, (_, i) => i + 1 + by);

describe('thin evidence (issue 37)', () => {
  it('says "not enough evidence" for a large latency change on 4 windows, and how long a run would tell it', () => {
    // p99 down 80 %: the histograms 40 ms apart (D 0.4) on 4 windows a side (critical 0.960).
    const base = windowed([1000, 1010, 990, 1005], 1, 50);
    const next = windowed([1001, 1011, 991, 1004], 1, 10);
    const quantiles = (r: RunResult) => (r === base ? shifted(40) : shifted(0));
    const part = diffResults({ kind: 'run', results: [base] }, { kind: 'run', results: [next] }, quantiles)
      .parts[0]!;
    const p99 = part.figures.find((f) => f.figure === 'p99')!;
    expect(p99.test).toBe('ks-histograms');
    expect(p99.statistic).toBeCloseTo(0.4, 9);
    expect(p99.critical).toBeCloseTo(1.358 * Math.sqrt(2 / 4), 9);
    expect(p99.verdict).toBe('thin');
    // 1.358·√(2/n) < 0.4 from n = 24 on: 24 windows of 1 s.
    expect(p99.needed).toEqual({ per: 'window', count: 24, seconds: 24 });
    expect(diffVerdictText(p99)).toBe(
      'not enough evidence (D 0.400 ≤ 0.960; a 24s run a side would tell it)',
    );
    expect(evidenceText(part)).toContain('"not enough evidence": the test found no difference');
    // req/s moved 0.05 %, well inside 4 windows' spread: thin too, at a length far past the run's.
    const rps = part.figures.find((f) => f.figure === 'rps')!;
    expect(rps.verdict).toBe('thin');
    expect(rps.needed!.per).toBe('window');
    expect(rps.needed!.count).toBeGreaterThan(1000);
  });

  it('keeps "within noise" where the test could have told a large change: 30 windows a side', () => {
    const rates = Array.from({ length: 30 }, (_, i) => 1000 + (i % 5) * 10);
    const base = windowed(rates, 0.2, 10.1);
    const next = windowed(
      rates.map((r, i) => r + (i % 2 === 0 ? 3 : -2)),
      0.2,
      10,
    );
    const quantiles = (r: RunResult) => (r === base ? shifted(1) : shifted(0));
    const part = diffResults({ kind: 'run', results: [base] }, { kind: 'run', results: [next] }, quantiles)
      .parts[0]!;
    const p99 = part.figures.find((f) => f.figure === 'p99')!;
    // D 0.01 against a critical value of 0.351: the test could tell a gap of 0.5.
    expect(p99.critical).toBeCloseTo(1.358 * Math.sqrt(2 / 30), 9);
    expect(p99.verdict).toBe('within-noise');
    expect(p99.needed).toBeNull();
    const rps = part.figures.find((f) => f.figure === 'rps')!;
    expect(rps.verdict).toBe('within-noise');
    expect(evidenceText(part)).not.toContain('not enough evidence');
  });

  it('counts what would tell a change: Kolmogorov–Smirnov windows and Welch runs', () => {
    expect(ksNeeded(0.5)).toBe(15);
    expect(ksNeeded(1)).toBe(4);
    expect(ksNeeded(0)).toBeNull();
    // Means 10 and 12, stdev 1: at 5 runs a side t is 3.16 > 2.306 (the test above), at 3 it is 2.45 < 2.78.
    const at = (n: number) => ({ n, mean: 10, stdev: 1, min: 9, max: 11 });
    expect(welchNeeded(at(2), { ...at(2), mean: 12 })).toBe(4);
    expect(welchIsThin(at(4), at(4), 6)).toBe(true);
    expect(welchIsThin(at(9), at(9), 16)).toBe(false);
    expect(welchNeeded(at(3), at(3))).toBeNull();
  });
});
