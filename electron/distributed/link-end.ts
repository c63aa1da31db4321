/**
 * A machine's shard (a local process, a Kubernetes pod: `trebuchet run --shard i/N --start-on
 * stdin|job/NAME`) as its coordinator sees it: one shard that says the engine's own shard
 * messages. It checks the target itself (its pre-flight), splits its share between its engine
 * threads as any run does, and its own coordinator merges their windows by grid place exactly
 * as the run's does; what it passes up is the merged window of each place, once, then one
 * report (its threads' reports merged, its machine and each thread's CPU). It says `ready` once
 * every thread is (connections warmed), and starts when the coordinator gives the common
 * start (go-sources.ts: a line on stdin, the Job's annotation).
 */
import os from 'node:os';
import { writeFileSync } from 'node:fs';
import { CpuAccount } from '../engine/cpu.ts';
import { wireOf } from '../engine/recording/held-window.ts';
import type { ShardWindow } from '../../shared/model/shard-facts.ts';
import { checkRun, engineShards } from '../engine/execute.ts';
import { cpuFacts, type CpuSample, type TargetFacts } from '../engine/result.ts';
import { coordinateWith } from '../engine/shards/coordinator.ts';
import type { Assembly, Completion, Member, Place, RunFailure, Starter } from '../engine/shards/assembly.ts';
import { fromEpoch, toEpoch, type FromShard } from '../engine/shards/messages.ts';
import { mergeReports } from '../engine/shards/results.ts';
import { mergedWarm } from '../engine/shards/warm-facts.ts';
import { warmCoordinatorTick } from '../engine/shards/tick-warmup.ts';
import { sendsOnSchedule, type RunSpec } from '../engine/types.ts';
import type { GoSource } from './go-sources.ts';

/** How a machine's shard ended: it reported, could not get ready (said `failed`), or was stopped before its load. */
export type LinkOutcome = 'reported' | 'failed' | 'stopped';

export interface LinkEndOptions {
  /** Where its messages go up (the process's stdout: a pod's log). */
  send: (message: FromShard) => void;
  /** Where the common start comes from. */
  go: GoSource;
  /** Stops the load (Ctrl-C, SIGTERM, the coordinator's `stop` or its end). */
  signal: AbortSignal;
  /** A file written once the shard is ready: a pod's readiness probe looks for it. */
  readyFile?: string;
  /** Where what goes wrong beside the messages is said (stderr). */
  problem: (message: string) => void;
}

/** What its threads need to hear the start before it: their links' margins. */
const threadMargin = (members: readonly Member[]): number =>
  Math.max(...members.map((m) => m.backend.startMarginMs));

class LinkAssembly implements Assembly<LinkOutcome> {
  readonly #o: LinkEndOptions;
  readonly #facts: TargetFacts;
  readonly #intervalMs: number;
  #measuring: boolean;
  #goAt: number | null = null;
  #coordinator: Starter | null = null;
  #lastAt = 0;
  /** The final place, its window as its line carries it (the place's own is the coordinator's, reused). */
  #final: (Omit<Place, 'window'> & { window: ShardWindow }) | null = null;
  /** Each thread's CPU in each place: its machine's report carries each one's figures. */
  readonly #cpu: CpuSample[][] = [];

  constructor(options: LinkEndOptions, spec: RunSpec, facts: TargetFacts) {
    this.#o = options;
    this.#facts = facts;
    this.#intervalMs = spec.options.sampleIntervalMs;
    this.#measuring = spec.options.warmupSeconds === 0;
  }

  /** The coordinator's common start, epoch ms: the load begins then (at once, if it is gone already). */
  go(at: number): void {
    if (this.#goAt !== null) return;
    this.#goAt = at;
    this.#begin();
  }

  ready(coordinator: Starter): void {
    const warm = mergedWarm(coordinator.members.flatMap((m) => (m.warm === null ? [] : [m.warm])));
    const { tls, server } = this.#facts;
    this.#o.send({ type: 'ready', ...(warm === null ? {} : { warm }), target: { tls, server } });
    if (this.#o.readyFile !== undefined) {
      try {
        writeFileSync(this.#o.readyFile, '');
      } catch (e) {
        // The coordinator heard `ready` all the same; only a readiness probe waits in vain.
        this.#o.problem(`the ready file cannot be written: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    this.#coordinator = coordinator;
    this.#begin();
  }

  #begin(): void {
    const c = this.#coordinator;
    if (c === null || this.#goAt === null) return;
    c.start(Math.max(fromEpoch(this.#goAt), performance.now() + threadMargin(c.members)));
  }

  started(t0: number): void {
    this.#lastAt = t0;
  }

  place(p: Place): void {
    const intervalSeconds = Math.max((p.at - this.#lastAt) / 1000, 1e-3);
    for (const [i, cpuPercent] of p.cpus.entries()) {
      (this.#cpu[i] ??= []).push({ warmup: !this.#measuring, intervalSeconds, cpuPercent });
    }
    if (p.endsWarmup) this.#measuring = true;
    this.#lastAt = p.at;
    const window = wireOf(p.window);
    // The final place goes up inside the report.
    if (p.final) this.#final = { ...p, window };
    else
      this.#o.send({ type: 'window', index: p.index, at: toEpoch(p.at), endsWarmup: p.endsWarmup, window });
  }

  complete({ failure, reported }: Completion): LinkOutcome {
    const final = this.#final!;
    this.#o.send({
      type: 'report',
      index: final.index,
      at: toEpoch(final.at),
      window: final.window,
      report: mergeReports(reported.map((m) => m.report)),
      failure: failure?.message ?? null,
      startedAt: toEpoch(Math.max(...reported.map((m) => m.startedAt))),
      machine: {
        host: os.hostname(),
        cores: Math.max(1, os.availableParallelism()),
        startAt: this.#goAt!,
        workers: reported.map((m) => cpuFacts(this.#cpu[m.index] ?? [], this.#intervalMs)),
      },
    });
    return 'reported';
  }

  abandoned(status: 'cancelled' | 'failed', failure: RunFailure | null): LinkOutcome {
    if (failure === null) return 'stopped';
    this.#o.send({ type: 'failed', message: failure.message, kind: failure.kind });
    return status === 'failed' ? 'failed' : 'stopped';
  }
}

/**
 * Runs a machine's shard of a plan (spec.placement set, no start time: the coordinator gives
 * it) to its report; a target that fails the pre-flight is said in the pre-flight's words.
 */
export async function runLinkEnd(spec: RunSpec, options: LinkEndOptions): Promise<LinkOutcome> {
  const checked = await checkRun(spec, options.signal);
  if (!checked.ok) {
    if (checked.stopped) return 'stopped';
    options.send({ type: 'failed', message: checked.error.message, kind: checked.error.kind });
    return 'failed';
  }
  const cpu = new CpuAccount();
  const assembly = new LinkAssembly(options, spec, checked.facts);
  const stopFollowing = options.go.follow({ go: (at) => assembly.go(at) });
  try {
    const run = coordinateWith(
      {
        spec,
        ...(await engineShards(spec, [cpu])),
        signal: options.signal,
        cpu,
        ...(checked.facts.roundTripMs === undefined ? {} : { roundTripMs: checked.facts.roundTripMs }),
      },
      assembly,
    );
    // The coordinator's side of the tick, cold, first (execute.ts): a scheduled run's threads send meanwhile.
    if (sendsOnSchedule(spec)) cpu.charge(warmCoordinatorTick);
    return await run;
  } finally {
    stopFollowing();
  }
}
