/**
 * A distributed run as one target's run of the job model (a StartTarget): the plan's shards
 * started through a backend (backend.ts) at a common start T = now + the start margin, every
 * shard's `--json -` stream followed, its ticks merged live into the samples a local run emits
 * (shared/distributed/live-ticks.ts), its final result collected, and the results merged
 * exactly (shared/shards/, electron/engine/shards/merged-result.ts). Whatever the backend
 * created is deleted at the end: on success, on a failed shard (the run's error names it and
 * says why) and on a stop.
 */
import type { RunResult, Sample } from '../../shared/model/result.ts';
import { LiveTicks } from '../../shared/distributed/live-ticks.ts';
import { issuesOf, describeIssues } from '../../shared/model/validation.ts';
import { shardSet } from '../../shared/shards/combine.ts';
import { streamLineSchema } from '../../shared/shards/stream.ts';
import { mergeShardResults } from '../engine/shards/merged-result.ts';
import type { StartTarget, TargetRun } from '../jobs/target-run.ts';
import { startServerMonitor, withServerResources } from '../monitor/server-monitor.ts';
import type { DistributedBackend } from './backend.ts';
import { portablePlan } from './plan-file.ts';

export interface DistributedOptions {
  backend: DistributedBackend;
  count: number;
  /** Time from now to the common start: room to create, schedule and start every shard. */
  startMarginMs: number;
  /** How long a stopped shard may take to report what it measured before it is ended. */
  stopGraceMs?: number;
  now?: () => number;
}

/** A shard failed: the run's error, naming the shard and why. */
export class ShardFailedError extends Error {
  readonly index: number;
  readonly reason: string;
  constructor(index: number, reason: string) {
    super(`shard ${index} failed: ${reason}`);
    this.index = index;
    this.reason = reason;
  }
}

/** One stream line of shard `index`, parsed strictly; a broken line fails the shard. */
function parseLine(index: number, text: string) {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ShardFailedError(index, `wrote a line that is not JSON: ${text.slice(0, 120)}`);
  }
  const line = streamLineSchema.safeParse(json);
  if (!line.success) {
    throw new ShardFailedError(
      index,
      `wrote a line that is not a tick or a result: ${describeIssues(issuesOf(line.error))}`,
    );
  }
  return line.data;
}

export function distributedTarget(options: DistributedOptions): StartTarget {
  const { backend, count } = options;
  const now = options.now ?? Date.now;
  return (scenario, targetIndex, on): TargetRun => {
    let stopping = false;
    let started = false;
    const done = (async (): Promise<RunResult | null> => {
      const plan = await portablePlan(scenario, targetIndex);
      if (stopping) return null;
      const ticks = new LiveTicks(count);
      const results: (RunResult | null)[] = Array.from({ length: count }, () => null);
      // The target's server watched from here, on the merged ticks, as beside a local run.
      const monitor = await startServerMonitor(scenario.targets[targetIndex]!, {
        options: scenario.options,
        onSample: (reading) => on.reading(reading),
      });
      const emit = (samples: readonly Sample[]): void => {
        for (const s of samples) {
          on.sample(s);
          monitor?.tick(s);
        }
      };
      let merged: RunResult | null = null;
      try {
        await backend.start({
          planText: JSON.stringify(plan),
          count,
          startAt: now() + options.startMarginMs,
        });
        started = true;
        // Stopped while the shards were being created: they stop at once and report nothing much.
        if (stopping) await backend.stop();
        else on.started();
        const follow = async (index: number): Promise<void> => {
          for await (const text of backend.lines(index)) {
            if (text.trim() === '') continue;
            const line = parseLine(index, text);
            if (line.type === 'tick') emit(ticks.add(index, line.sample));
            else results[index] = line.result;
          }
          emit(ticks.end(index));
        };
        // A shard is done when its stream ended with its result; one that ended without one failed.
        const shard = async (index: number): Promise<void> => {
          const [, end] = await Promise.all([follow(index), backend.ended(index)]);
          if (results[index] === null && !stopping) {
            throw new ShardFailedError(index, end.failure ?? 'its output ended without a result');
          }
        };
        await Promise.all(Array.from({ length: count }, (_, i) => shard(i)));
        const got = results.flatMap((r, i) => (r ? [{ file: `shard ${i}`, result: r }] : []));
        if (got.length === count) {
          const set = shardSet(got);
          if (!set.ok) throw new Error(`the shards' results do not make one plan: ${set.message}`);
          merged = mergeShardResults(set.shards);
        }
      } finally {
        await backend.cleanup();
        if (!merged) await monitor?.stop({ seconds: 0, requests: 0 });
      }
      // Stopped before every shard reported: nothing whole to keep.
      return merged ? withServerResources(merged, monitor) : null;
    })();
    return {
      done,
      stop: async () => {
        if (stopping) return;
        stopping = true;
        if (!started) return;
        await backend.stop();
        // A shard that does not report within the grace is ended with the rest.
        const grace = new Promise<void>((resolve) =>
          setTimeout(resolve, options.stopGraceMs ?? 10_000).unref(),
        );
        await Promise.race([
          done.then(
            () => undefined,
            () => undefined,
          ),
          grace,
        ]);
        await backend.cleanup();
      },
    };
  };
}
