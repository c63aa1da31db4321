import type { ShardReport, UnsettledReport } from '../../../shared/model/shard-facts.ts';
import { encodeHistogram } from './histogram.ts';
import type { Recorder } from './recorder.ts';
import { errorEntries } from './run-totals.ts';
import type { SettledFigures } from './settled.ts';
import type { LoadOutcome } from '../types.ts';

/**
 * What a shard hands over at the end of its load (after its last window): the recorder's
 * counts and histograms as shared/shards/merge.ts merges them, and what its load generator learnt.
 * The run's figures come from these reports however many shards it had (see shards/results.ts).
 */
export function recorderReport(recorder: Recorder, outcome: LoadOutcome): ShardReport {
  return settledReport(unsettledReport(recorder, outcome), recorder.settled);
}

/**
 * The report but for the figures settled window by window (SettledFigures): what a shard with
 * window slots sends, whose reader settled them (shards/slot-reader.ts).
 */
export function unsettledReport(recorder: Recorder, outcome: LoadOutcome): UnsettledReport {
  const t = recorder.totals;
  const parts = outcome.shardParts?.() ?? null;
  return {
    counts: {
      requests: {
        total: t.total,
        responses: t.responses,
        ok: t.ok,
        non2xx: t.non2xx,
        errors: t.errors,
        sloExceeded: t.sloExceeded,
        lengthMismatch: t.lengthMismatch,
        unsolicited: t.unsolicited,
        inFlightAtEnd: recorder.inFlight,
        late: t.late,
      },
      sent: t.sent,
      dropped: outcome.dropped ?? 0,
      bytes: { inTotal: t.inTotal, inBody: t.inBody, outBody: t.outBody, outTotal: t.outTotal },
      errors: errorEntries(t.errorSet),
      serverSoftware: t.serverSoftware,
      documentLength: t.documentLength,
    },
    corrected: parts?.corrected ?? null,
    phases: parts?.phases ?? null,
    stages: parts?.stages ?? null,
    tls: outcome.tls,
    ...(outcome.originConnections ? { originConnections: outcome.originConnections } : {}),
    httpVersion: outcome.httpVersion,
    attackSeconds: outcome.attackSeconds,
    waitSeconds: outcome.waitSeconds,
    warnings: outcome.warnings,
    ...(parts?.urls ? { urls: parts.urls } : {}),
  };
}

/** The whole report: `part` with the run's latency histogram, send lateness and status table from `settled`. */
export function settledReport(part: UnsettledReport, settled: SettledFigures): ShardReport {
  const h = settled.histogram;
  const { counts, ...rest } = part;
  const { errors, serverSoftware, documentLength, ...rows } = counts;
  return {
    counts: { ...rows, statusCodes: settled.statusCodes(), errors, serverSoftware, documentLength },
    histogram: h.totalCount > 0 ? encodeHistogram(h) : null,
    latencyRange: h.totalCount > 0 ? { minNonZero: h.minNonZeroValue, max: h.maxValue } : null,
    lateness: settled.latenessBuckets(),
    ...rest,
  };
}
