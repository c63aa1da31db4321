import type { StageResult } from '../../../shared/model/result.ts';
import type { StageCounts } from '../../../shared/model/shard-facts.ts';
import { plannedArrivals, stageSpans, type Stage, type StageSpan } from '../../../shared/model/stages.ts';
import { ValueRecorder } from '../recording/histogram.ts';

const STAGE_PERCENTILES = [50, 99] as const;

export interface StageRow {
  requests: number;
  errors: number;
  non2xx: number;
  /** Made when the stage's first response arrives: a plan of many stages holds only what it used. */
  latency: ValueRecorder | null;
}

/**
 * Per-stage figures of a staged run: each response counts in the stage its request was
 * written in (what a server counting arrivals sees: a request waiting for its connection to
 * open arrives when it is written), its latency in that stage's histogram;
 * a failure counts in the stage it happened in (a request that got no answer has no arrival
 * to go by).
 * At most LIMITS.stages histograms, made as stages get responses, so memory stays bounded.
 */
export class StageHistograms {
  private readonly spans: StageSpan[];
  private readonly rows: StageRow[];
  private readonly open: boolean;
  private readonly stages: readonly Stage[];
  /** performance.now() of the plan's time 0; NaN until the driver starts the plan. */
  private t0 = NaN;
  /** The stage the last request fell in: requests come in time order, so it is usually right. */
  private at = 0;

  constructor(stages: readonly Stage[], model: 'closed' | 'open') {
    this.stages = stages;
    this.spans = stageSpans(stages);
    this.rows = stages.map(() => ({ requests: 0, errors: 0, non2xx: 0, latency: null }));
    this.open = model === 'open';
  }

  /** The plan's time 0 (the driver's start). */
  begin(t0: number): void {
    this.t0 = t0;
  }

  private rowAt(at: number): StageRow {
    const t = (at - this.t0) / 1000;
    const spans = this.spans;
    let i = this.at;
    while (i > 0 && t < spans[i]!.startSeconds) i--;
    while (i < spans.length - 1 && t >= spans[i]!.endSeconds) i++;
    this.at = i;
    return this.rows[i]!;
  }

  response(status: number, latencyUs: number, writtenAt: number): void {
    const row = this.rowAt(writtenAt);
    row.requests++;
    if (status < 200 || status > 299) row.non2xx++;
    (row.latency ??= new ValueRecorder()).record(latencyUs < 1 ? 1 : latencyUs);
  }

  failed(at: number): void {
    const row = this.rowAt(at);
    row.requests++;
    row.errors++;
  }

  /** One row per stage, in order. */
  results(): StageResult[] {
    return stageResults(this.stages, this.open ? 'open' : 'closed', this.rows);
  }

  /** The rows as a shard's report carries them, to be merged with the other shards' (shared/shards/merge.ts). */
  counts(): StageCounts[] {
    return this.rows.map((r) => ({
      requests: r.requests,
      errors: r.errors,
      non2xx: r.non2xx,
      latency: r.latency?.buckets() ?? null,
    }));
  }
}

/** A staged run's rows of the plan `stages`: one per stage, in order, from each stage's counts and latencies. */
export function stageResults(
  stages: readonly Stage[],
  model: 'closed' | 'open',
  rows: readonly StageRow[],
): StageResult[] {
  return stageSpans(stages).map((span, i) => {
    const row = rows[i]!;
    const seconds = span.endSeconds - span.startSeconds;
    const s = row.latency?.summary(STAGE_PERCENTILES) ?? null;
    return {
      index: i,
      startSeconds: span.startSeconds,
      endSeconds: span.endSeconds,
      from: span.from,
      to: span.to,
      requests: row.requests,
      errors: row.errors,
      non2xx: row.non2xx,
      requestsPerSecond: seconds > 0 ? row.requests / seconds : 0,
      latency:
        s === null
          ? null
          : {
              p50: s.percentiles.get(50)! / 1000,
              p99: s.percentiles.get(99)! / 1000,
              mean: s.mean / 1000,
              max: s.max / 1000,
            },
      planned:
        model === 'open'
          ? plannedArrivals(stages, span.endSeconds) - plannedArrivals(stages, span.startSeconds)
          : null,
    };
  });
}
