import type { ErrorKind, WarmFacts } from '../../../shared/model/result.ts';
import type { ShardReport } from '../../../shared/model/shard-facts.ts';
import type { HeldWindow } from '../recording/held-window.ts';
import type { ShardBackend, ShardLink } from './links.ts';
import type { ShardMachineFacts, TargetFactsOfShard } from './messages.ts';

/*
 * What the coordinator (coordinator.ts) holds of each shard, and what it hands to an Assembly,
 * the part that makes something of the merged places and reports: the run's Samples and
 * RunResult (run-assembly.ts), or a machine's shard's messages one level up
 * (electron/distributed/link-end.ts).
 */

/** The coordinator as an assembly sees it once every shard is ready: the shards, and the start. */
export interface Starter {
  readonly members: readonly Member[];
  /** The load begins at t0 (performance.now() ms) on every shard. */
  start(t0: number): void;
}

/** A shard's window as it arrived, until it goes into a place. */
export interface Arrived {
  index: number;
  /** performance.now() when it closed, and its length (from the shard's window before). */
  at: number;
  seconds: number;
  endsWarmup: boolean;
  window: HeldWindow;
}

export interface Member {
  /** 0-based, in the order of the run's shards. */
  index: number;
  /** How messages name it: "engine worker 2", "shard 2/3". */
  name: string;
  link: ShardLink;
  backend: ShardBackend;
  ready: boolean;
  queue: Arrived[];
  /** Grid index of its latest window; Infinity once its report is in, or once it is lost. */
  frontier: number;
  lastAt: number;
  /** performance.now() of its latest message, or of its link's opening: what its silence is counted from. */
  heardAt: number;
  /** At its latest window's end: requests in flight, connections carrying load. */
  inFlight: number;
  connections: number | null;
  report: ShardReport | null;
  /** Grid index of its report's window. */
  reportIndex: number;
  machine: ShardMachineFacts | null;
  /** Why it was lost before its report; null while it is there. */
  lost: string | null;
  /** Where its last window closed: where its load ended. */
  endAt: number;
  /** Where its load began (its report says), performance.now() ms. */
  startedAt: number;
  /** Its warm phase, as its `ready` said; null without one. */
  warm: WarmFacts | null;
  /** A machine's shard's pre-flight facts, as its `ready` said. */
  target: TargetFactsOfShard | null;
}

/** A grid place's windows, every shard's, merged: what becomes one Sample (or one window upward). */
export interface Place {
  /** Its grid index; the final place's is the latest report's. */
  index: number;
  /** performance.now() where it closes. */
  at: number;
  endsWarmup: boolean;
  /** The coordinator's, and reused once place() returns: read it there, keep nothing of it. */
  window: HeldWindow;
  /** Each member's CPU over it, percent of one core (0 for one that sent no window for it). */
  cpus: number[];
  final: boolean;
}

export interface RunFailure {
  kind: ErrorKind;
  message: string;
}

/** Every shard reported or was lost: what the run measured. */
export interface Completion {
  /** performance.now() where the last load ended. */
  end: number;
  failure: RunFailure | null;
  /** Every member, in order: the ones that reported, and the ones lost. */
  members: readonly Member[];
  /** The members that reported, in order. */
  reported: readonly (Member & { report: ShardReport })[];
}

/** What the merged places and reports become. */
export interface Assembly<R> {
  /** Every shard is ready: the assembly starts the load (Starter.start) now or when it is told. */
  ready(coordinator: Starter): void;
  /** The load starts at t0 (performance.now() ms). */
  started(t0: number): void;
  place(place: Place): void;
  complete(completion: Completion): R;
  /** Nothing whole to keep: stopped before the load began, or a shard could not get ready. */
  abandoned(status: 'cancelled' | 'failed', failure: RunFailure | null, members: readonly Member[]): R;
}
