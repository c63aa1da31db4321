import type { RunResult, Sample } from '../model/result.ts';
import { addWindowBuckets } from '../figures/window-buckets.ts';
import type { ShardFacts, ShardRow } from '../model/shard-facts.ts';

/**
 * What `trebuchet merge` checks and aligns before the engine's exact merge (electron/engine/
 * shards/merged-result.ts): that the files are every shard of one plan, once each; the shards'
 * samples on one absolute time grid; the Shards table; how far apart the shards started. Pure.
 */

/** A shard's result, and the file it came from (for messages). */
export interface ShardFile {
  file: string;
  result: RunResult;
}

/** A result that is a shard's, with its facts. */
export type ShardResult = RunResult & { shard: ShardFacts };

export type ShardSet = { ok: true; shards: ShardResult[] } | { ok: false; message: string };

/** Shards further apart than this at their start make the merged figures mix different moments. */
export const START_SPREAD_WARN_MS = 10;

/**
 * The files as the shards of one plan in index order; refused, naming the file, when one is
 * not a shard's result, is of another plan, repeats an index, or when an index is missing.
 */
export function shardSet(files: readonly ShardFile[]): ShardSet {
  const refuse = (message: string): ShardSet => ({ ok: false, message });
  if (files.length === 0) return refuse('give the shard results to merge');
  for (const f of files) {
    if (!f.result.shard)
      return refuse(`${f.file} is not a shard's result (trebuchet run --shard i/N writes one)`);
  }
  const shards = files as readonly (ShardFile & { result: ShardResult })[];
  const first = shards[0]!;
  const { planId, count } = first.result.shard;
  for (const f of shards) {
    const s = f.result.shard;
    if (s.planId !== planId || s.count !== count) {
      return refuse(
        `${f.file} is shard ${s.index + 1}/${s.count} of plan ${s.planId}, not of plan ${planId} (${count} shards) as ${first.file}: the files are of different plans`,
      );
    }
  }
  const byIndex = new Map<number, string>();
  for (const f of shards) {
    const seen = byIndex.get(f.result.shard.index);
    if (seen !== undefined)
      return refuse(`${f.file} and ${seen} are both shard ${f.result.shard.index + 1}/${count}`);
    byIndex.set(f.result.shard.index, f.file);
  }
  const missing = Array.from({ length: count }, (_, i) => i).filter((i) => !byIndex.has(i));
  if (missing.length > 0) {
    // Said as --shard counts them: from 1 (a file's shard facts hold 0-based indexes).
    const given = [...byIndex].sort(([a], [b]) => a - b).map(([i, file]) => `${file} is ${i + 1}`);
    return refuse(
      `shard ${missing.map((i) => i + 1).join(', ')} of ${count} is missing (${given.join(', ')}): merge every shard of the plan`,
    );
  }
  return {
    ok: true,
    shards: [...shards].sort((a, b) => a.result.shard.index - b.result.shard.index).map((f) => f.result),
  };
}

const sumOf = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);

function addRecords<K extends string>(
  records: readonly Partial<Record<K, number>>[],
): Partial<Record<K, number>> {
  const out: Partial<Record<K, number>> = {};
  for (const r of records)
    for (const [k, n] of Object.entries(r) as [K, number][]) out[k] = (out[k] ?? 0) + n;
  return out;
}

/** A sample's window end, epoch ms. */
const endOf = (shard: ShardResult, s: Sample): number => shard.shard.gridStartAt + s.elapsedSeconds * 1000;

/**
 * The shards' samples of one window as one sample (seq and elapsedSeconds given; total is the
 * run's measured requests before it): counts, rates, CPU, in-flight and the fixed buckets
 * added; latency the request-weighted mean, and for p50, p90, p99 and max the largest of the
 * shards' (an upper bound: a window's own HdrHistogram buckets are not kept in a sample).
 */
export function addSamples(
  group: readonly Sample[],
  seq: number,
  elapsedSeconds: number,
  total: number,
): Sample {
  const intervalSeconds = Math.max(...group.map((s) => s.intervalSeconds));
  const requests = sumOf(group.map((s) => s.requests));
  const warmup = group.every((s) => s.warmup);
  const timed = group.filter((s) => s.latency !== null);
  const answered = sumOf(timed.map((s) => s.requests));
  const latency =
    timed.length === 0
      ? null
      : {
          mean:
            answered > 0
              ? sumOf(timed.map((s) => s.latency!.mean * s.requests)) / answered
              : Math.max(...timed.map((s) => s.latency!.mean)),
          p50: Math.max(...timed.map((s) => s.latency!.p50)),
          p90: Math.max(...timed.map((s) => s.latency!.p90)),
          p99: Math.max(...timed.map((s) => s.latency!.p99)),
          max: Math.max(...timed.map((s) => s.latency!.max)),
        };
  const optional = (pick: (s: Sample) => number | undefined): number[] =>
    group.flatMap((s) => (pick(s) === undefined ? [] : [pick(s)!]));
  const late = optional((s) => s.late);
  const lateness = optional((s) => s.sendLatenessP99);
  const cpu = optional((s) => s.cpuPercent);
  const connections = optional((s) => s.connections);
  const latencyBuckets = addWindowBuckets(group.map((s) => s.latencyBuckets));
  const latenessBuckets = addWindowBuckets(group.map((s) => s.sendLatenessBuckets));
  return {
    seq,
    elapsedSeconds,
    intervalSeconds,
    warmup,
    requests,
    totalRequests: warmup ? total : total + requests,
    requestsPerSecond: sumOf(group.map((s) => s.requestsPerSecond)),
    bytesInPerSecond: sumOf(group.map((s) => s.bytesInPerSecond)),
    latency,
    statusCodes: addRecords(group.map((s) => s.statusCodes)) as Record<string, number>,
    errors: addRecords(group.map((s) => s.errors)),
    inFlight: sumOf(group.map((s) => s.inFlight)),
    ...(late.length > 0 ? { late: sumOf(late) } : {}),
    ...(lateness.length > 0 ? { sendLatenessP99: Math.max(...lateness) } : {}),
    ...(cpu.length > 0 ? { cpuPercent: sumOf(cpu) } : {}),
    ...(connections.length > 0 ? { connections: sumOf(connections) } : {}),
    ...(latencyBuckets === null ? {} : { latencyBuckets }),
    ...(latenessBuckets === null ? {} : { sendLatenessBuckets: latenessBuckets }),
  };
}

/**
 * The shards' samples as one run's: each sample placed by its window's absolute end on the
 * grid of the earliest start (the sample interval), the samples of one place added (counts,
 * rates, CPU, in-flight). A place's latency: the request-weighted mean, and for p50, p90, p99
 * and max the largest of the shards' (an upper bound: a window's own buckets are not kept in
 * a result; the run's percentiles, from the histograms, are exact).
 */
export function alignedSamples(shards: readonly ShardResult[]): Sample[] {
  const intervalMs = shards[0]!.options.sampleIntervalMs;
  const base = Math.min(...shards.map((s) => s.shard.gridStartAt));
  const places = new Map<number, { shard: ShardResult; sample: Sample }[]>();
  for (const shard of shards) {
    for (const sample of shard.samples) {
      const place = Math.max(0, Math.round((endOf(shard, sample) - base) / intervalMs - 1));
      const list = places.get(place) ?? [];
      list.push({ shard, sample });
      places.set(place, list);
    }
  }
  const out: Sample[] = [];
  let total = 0;
  for (const place of [...places.keys()].sort((a, b) => a - b)) {
    const group = places.get(place)!.map((g) => g.sample);
    const end = Math.max(...places.get(place)!.map((g) => endOf(g.shard, g.sample)));
    const sample = addSamples(group, out.length, (end - base) / 1000, total);
    total = sample.totalRequests;
    out.push(sample);
  }
  const last = out.at(-1);
  if (last) last.final = true;
  return out;
}

/** The Shards table: each shard's own figures, generator and clock. */
export function shardRows(shards: readonly ShardResult[]): ShardRow[] {
  return shards.map((s) => ({
    index: s.shard.index,
    host: s.shard.clock.host,
    cores: s.shard.clock.cores,
    requests: s.requests.total,
    requestsPerSecond: s.throughput.requestsPerSecond,
    p99: s.latency?.percentiles['99'] ?? null,
    cpuPercentMean: s.generator.cpuPercentMean,
    saturated: s.generator.saturated,
    startOffsetMs: s.shard.clock.startOffsetMs,
  }));
}

/** How far apart the shards' loads began, ms (the spread of their start offsets). */
export function startSpreadMs(rows: readonly Pick<ShardRow, 'startOffsetMs'>[]): number {
  const offsets = rows.map((s) => s.startOffsetMs);
  return Math.max(...offsets) - Math.min(...offsets);
}
