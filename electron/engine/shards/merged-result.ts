import type { RunResult } from '../../../shared/model/result.ts';
import { alignedSamples, shardRows, type ShardResult } from '../../../shared/shards/combine.ts';
import type { CpuFacts } from '../result.ts';
import { buildRunResult } from './results.ts';
import { addWarm } from './warm-facts.ts';

/**
 * The shards of a plan run on several machines (`trebuchet run --shard`) as one RunResult, by
 * the engine's own merge (results.ts: counts added, HdrHistograms added, stage rows added),
 * with their samples aligned by absolute time (shared/shards/combine.ts), every engine worker
 * of every shard in the generator's figures (so one flat out makes the run client-bound), and
 * a Shards table: each shard's figures, CPU and clock (the verdict notes shards that began apart).
 */
export function mergeShardResults(shards: readonly ShardResult[]): RunResult {
  const first = shards[0]!;
  const { planId, planLoad } = first.shard;
  const failed = shards.find((s) => s.status === 'failed');
  const status: RunResult['status'] = failed
    ? 'failed'
    : shards.every((s) => s.status === 'completed')
      ? 'completed'
      : 'cancelled';
  const errored = shards.find((s) => s.error !== null);
  // Measured from the earliest shard's measuring start to the latest one's end, on the wall clock.
  const warmupMs = first.options.warmupSeconds * 1000;
  const measureFrom = Math.min(...shards.map((s) => s.shard.gridStartAt + warmupMs));
  const measureTo = Math.max(...shards.map((s) => s.shard.gridStartAt + warmupMs + s.durationSeconds * 1000));
  const workerCpu: CpuFacts[] = shards.flatMap((s) =>
    (s.generator.workers ?? [s.generator]).map((w) => ({
      mean: w.cpuPercentMean,
      max: w.cpuPercentMax,
      saturated: w.saturated,
    })),
  );
  // Open model: the first send of the earliest shard to the last send, then the last answer, of any.
  const attacks = shards.flatMap((s) =>
    s.attackSeconds === null
      ? []
      : [
          {
            from: s.shard.gridStartAt,
            sent: s.shard.gridStartAt + s.attackSeconds * 1000,
            waited: s.waitSeconds ?? 0,
          },
        ],
  );
  const lastSend = Math.max(...attacks.map((a) => a.sent));
  const openSpan =
    attacks.length === shards.length
      ? {
          attackSeconds: (lastSend - Math.min(...attacks.map((a) => a.from))) / 1000,
          waitSeconds:
            Math.max(0, Math.max(...attacks.map((a) => a.sent + a.waited * 1000)) - lastSend) / 1000,
        }
      : undefined;
  const merged = buildRunResult({
    spec: {
      runId: `merged-${planId}`,
      scenarioName: first.scenarioName,
      target: first.target,
      load: planLoad,
      options: first.options,
      body: null,
      ca: null,
      appVersion: first.generator.appVersion,
    },
    status,
    error: errored?.error
      ? { kind: errored.error.kind, message: `shard ${errored.shard.index}: ${errored.error.message}` }
      : null,
    startedAt: new Date(Math.min(...shards.map((s) => Date.parse(s.startedAt)))),
    endedAt: new Date(Math.max(...shards.map((s) => Date.parse(s.endedAt)))),
    measuredSeconds: Math.max(0, measureTo - measureFrom) / 1000,
    reports: shards.map((s) => s.shard.report),
    samples: alignedSamples(shards),
    engine: { name: first.generator.engine, version: first.generator.engineVersion },
    tls: first.tls,
    server: first.server,
    workerCpu,
    part: 'shard',
    ...(openSpan ? { openSpan } : {}),
  });
  // Each machine warmed its own pool: the plan's is their pools added, the slowest one's time.
  addWarm(
    merged,
    shards.flatMap((s) => (s.warm ? [s.warm] : [])),
  );
  const { nodeVersion, platform, cpuModel, cpuCores } = first.generator;
  return {
    ...merged,
    // The machines' facts are the shards' (the merging machine ran no load): the first's here, each one's in the Shards table.
    generator: { ...merged.generator, nodeVersion, platform, cpuModel, cpuCores },
    shards: shardRows(shards),
  };
}
