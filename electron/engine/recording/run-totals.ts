import {
  ERROR_KIND_LABELS,
  type ErrorEntry,
  type ErrorKind,
  type LatencyStats,
  type RunResult,
  type Sample,
} from '../../../shared/model/result.ts';
import { isNon2xx, isOkStatus } from './status-class.ts';

/**
 * The whole-run figures a RunResult is made of, warm-up excluded: merged from the shards'
 * reports (shards/results.ts), or rebuilt from the samples when the engine could not report.
 */
export interface RunTotals {
  /** Seconds from the end of the warm-up to the end of the load. */
  measuredSeconds: number;
  /** Open-model lateness is kept whatever the model; the result shows it for open runs only. */
  requests: Omit<RunResult['requests'], 'late' | 'dropped'> & { late: number };
  /** Requests written. */
  sent: number;
  bytes: RunResult['bytes'];
  statusCodes: Record<string, number>;
  errors: ErrorEntry[];
  /** Percentiles and the encoded histogram need the recorder: null from samples. */
  latency: LatencyStats | null;
  /** How late scheduled sends went out: null without a schedule, and from samples. */
  sendLateness: LatencyStats | null;
  histogram: string | null;
  /** ab's Server Software and Document Length, from the first measured response. */
  serverSoftware: string | null;
  documentLength: number | null;
}

/** A recorder's error kinds as the result lists them, the most frequent first. */
export function errorEntries(set: ReadonlyMap<ErrorKind, { count: number; message: string }>): ErrorEntry[] {
  return [...set]
    .map(([kind, e]) => ({ kind, count: e.count, message: e.message }))
    .sort((a, b) => b.count - a.count);
}

/**
 * Totals rebuilt from the measured samples alone (an engine that died or stopped answering:
 * the host holds only its samples). Per window only the status codes are known, so a
 * response slower than the SLO is taken out of the ok ones by count, and error messages are
 * the kinds' labels; bytes sent and body sizes are unknown (0).
 */
export function sampleTotals(samples: readonly Sample[]): RunTotals {
  const statusCodes: Record<string, number> = {};
  const errorCounts = new Map<ErrorKind, { count: number; message: string }>();
  let total = 0;
  let responses = 0;
  let ok = 0;
  let non2xx = 0;
  let bytesIn = 0;
  let seconds = 0;
  let late = 0;
  for (const s of samples) {
    if (s.warmup) continue;
    total += s.requests;
    seconds += s.intervalSeconds;
    bytesIn += s.bytesInPerSecond * s.intervalSeconds;
    late += s.late ?? 0;
    for (const [code, n] of Object.entries(s.statusCodes)) {
      statusCodes[code] = (statusCodes[code] ?? 0) + n;
      responses += n;
      if (isNon2xx(Number(code))) non2xx += n;
      if (isOkStatus(Number(code))) ok += n;
    }
    for (const [kind, n] of Object.entries(s.errors) as [ErrorKind, number][]) {
      const e = errorCounts.get(kind);
      if (e) e.count += n;
      else errorCounts.set(kind, { count: n, message: ERROR_KIND_LABELS[kind] });
    }
  }
  const slo = errorCounts.get('slo')?.count ?? 0;
  return {
    measuredSeconds: seconds,
    requests: {
      total,
      responses,
      ok: Math.max(0, ok - slo),
      non2xx,
      errors: Math.max(0, total - responses),
      sloExceeded: slo,
      inFlightAtEnd: samples.at(-1)?.inFlight ?? 0,
      late,
    },
    sent: total,
    bytes: { inTotal: Math.round(bytesIn), inBody: 0, outBody: 0, outTotal: 0 },
    statusCodes,
    errors: errorEntries(errorCounts),
    latency: null,
    sendLateness: null,
    histogram: null,
    serverSoftware: null,
    documentLength: null,
  };
}
