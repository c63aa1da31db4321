/**
 * Where the shards of a distributed run execute (`trebuchet run --shards N --on local |
 * kubernetes`): the one small interface the coordinator (coordinator.ts) drives. Each shard is
 * a `trebuchet run --scenario plan.json --shard i/N --start-at T --json -`; a backend puts the
 * plan where its shards read it, starts them, hands over each one's stdout line by line, says
 * when one failed and why, and deletes what it created.
 */

export interface ShardLaunch {
  /** The plan's scenario as a file's text (self-contained: no host paths to read). */
  planText: string;
  count: number;
  /** The common start, epoch ms. */
  startAt: number;
}

/** How a shard's process ended: failure is null when it exited cleanly. */
export interface ShardEnd {
  failure: string | null;
}

export interface DistributedBackend {
  /** Shown in messages: "local", "kubernetes (namespace ns)". */
  readonly name: string;
  /** Creates the plan's config and starts `count` shards told `startAt`. */
  start(launch: ShardLaunch): Promise<void>;
  /** Shard i's stdout, a line at a time; ends when its output does, or when it failed. */
  lines(index: number): AsyncIterable<string>;
  /** Resolves when shard i ended or failed (never started by the start time, killed, exited non-zero). */
  ended(index: number): Promise<ShardEnd>;
  /** Asks every shard to stop its load and report what it measured (Ctrl-C, the app's Stop). */
  stop(): Promise<void>;
  /** Deletes everything it created, ends what still runs; safe to call more than once. */
  cleanup(): Promise<void>;
}

/** The shard command's arguments after the program: the same on every backend. */
export function shardArgs(planPath: string, index: string, count: number, startAt: number): string[] {
  return [
    'run',
    '--scenario',
    planPath,
    '--shard',
    `${index}/${count}`,
    '--start-at',
    new Date(startAt).toISOString(),
    '--json',
    '-',
    '-q',
  ];
}
