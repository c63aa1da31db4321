/**
 * Two saved results compared figure by figure, with the one computation `trebuchet diff` uses
 * (shared/diff/compare.ts diffResults), fed here with each run's latency quantiles decoded from
 * its HdrHistogram (which the page cannot decode): History's "vs baseline" asks the host.
 */
import {
  DiffInputError,
  diffPart,
  diffResults,
  namedParts,
  pairedText,
  type NamedRuns,
  type QuantilesOf,
  type ResultDiff,
} from '../../shared/diff/compare.ts';
import type { RunResult } from '../../shared/model/result.ts';
import type { HistoryRecord } from '../../shared/records/history.ts';
import type { SavedResult } from '../../shared/records/kinds.ts';
import { savedOfRecord } from '../../shared/records/result-file.ts';
import { decodeHistogram, valueAtPercentile } from '../engine/recording/histogram.ts';

/** Quantiles per run: 1,000 evenly spaced ranks resolve the distribution functions to 0.1 %. */
const QUANTILE_POINTS = 1000;

/** A run's latency quantiles (ms) from its HdrHistogram; null without one (no response, an old file). */
export const histogramQuantiles: QuantilesOf = (r: RunResult) => {
  if (r.histogram === null) return null;
  const h = decodeHistogram(r.histogram);
  if (h.totalCount === 0) return null;
  return Array.from(
    { length: QUANTILE_POINTS },
    (_, i) => valueAtPercentile(h, ((i + 0.5) / QUANTILE_POINTS) * 100) / 1000,
  );
};

/**
 * A History entry (next) against another (base), their parts matched by name, or the two
 * parts named; a DiffInputError when they are of different kinds or a named part is not there.
 */
export function diffRecords(
  base: HistoryRecord,
  next: HistoryRecord,
  parts?: { base: string; next: string },
): ResultDiff {
  const savedBase = savedOfRecord(base);
  const savedNext = savedOfRecord(next);
  if (!parts) return diffResults(savedBase, savedNext, histogramQuantiles);
  const find = (saved: SavedResult, label: string, side: string): NamedRuns => {
    const part = namedParts(saved).find((p) => p.label === label);
    if (!part) throw new DiffInputError(`${side} has no part named ${label}`);
    return part;
  };
  const pa = find(savedBase, parts.base, 'A');
  const pb = find(savedNext, parts.next, 'B');
  return {
    kind: savedBase.kind,
    parts: [diffPart(pa, pb, histogramQuantiles)],
    onlyBase: [],
    onlyNext: [],
    paired: pa.label === pb.label ? null : pairedText(pa, pb),
  };
}
