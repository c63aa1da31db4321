/**
 * The coordinator driven by hand (tests of electron/engine/shards/): links whose shards the
 * test speaks for, a run of two shards over them, and the target's facts a pre-flight or a
 * machine's shard would give.
 */
import type { RunResult, Sample } from '../../shared/model/result.ts';
import { splitLoad } from '../../shared/shards/plan.ts';
import { CpuAccount } from '../../electron/engine/cpu.ts';
import type { TargetFacts } from '../../electron/engine/result.ts';
import type { LinkListener, ShardBackend } from '../../electron/engine/shards/links.ts';
import type { FromShard, ToShard } from '../../electron/engine/shards/messages.ts';
import { newWindowSlots, type SlotNumber } from '../../electron/engine/recording/window-slots.ts';
import { SlotReader } from '../../electron/engine/shards/slot-reader.ts';
import { coordinate } from '../../electron/engine/shards/run-assembly.ts';
import { oneTarget, runSpecFixture } from './engine.ts';

/** What a pre-flight of 127.0.0.1:9 learnt: no TLS, an HTTP/1.1 server. */
export const TARGET_FACTS: TargetFacts = {
  tls: null,
  server: {
    software: null,
    hostname: '127.0.0.1',
    port: 9,
    documentPath: '/',
    documentLength: null,
    httpVersion: '1.1',
  },
};

/** A shard the test speaks for: what it was sent, whether its link was closed. */
export interface HandShard {
  listener: LinkListener;
  sent: ToShard[];
  closed: boolean;
  say: (m: FromShard) => void;
  /** Its link found slot `slot` handed over (a link with slots looks for them itself). */
  found: (slot: SlotNumber) => void;
  /** What its link says it waits for (a pod's scheduler), null for nothing. */
  waiting: string | null;
  /** Its window slots' reader, for links with slots (a worker thread's). */
  slots?: SlotReader;
}

/** Links of a kind, with the limits given, whose shards the test speaks for. */
export function handLinks(
  kind: ShardBackend['kind'] = 'thread',
  limits: { readyTimeoutMs?: number; silenceMs?: number; slots?: boolean } = {},
): { backend: ShardBackend; shards: HandShard[] } {
  const shards: HandShard[] = [];
  const backend: ShardBackend = {
    kind,
    startMarginMs: 0,
    readyTimeoutMs: limits.readyTimeoutMs ?? null,
    silenceMs: limits.silenceMs ?? null,
    open(data, listener) {
      const slots = limits.slots
        ? new SlotReader(newWindowSlots(), { warmup: data.spec.options.warmupSeconds > 0 })
        : undefined;
      const shard: HandShard = {
        listener,
        sent: [],
        closed: false,
        say: (m) => listener.message(m),
        found: (slot) => listener.slot(slot),
        waiting: null,
        ...(slots ? { slots } : {}),
      };
      shards.push(shard);
      return {
        send: (m) => shard.sent.push(m),
        close: () => (shard.closed = true),
        waiting: () => shard.waiting,
        ...(slots ? { slots } : {}),
      };
    },
  };
  return { backend, shards };
}

/** A run of two shards (100 ms ticks) over `backend`; `facts`: its pre-flight's, absent when its shards check the target. */
export function handCoordinated(
  backend: ShardBackend,
  facts?: TargetFacts,
): { samples: Sample[]; done: Promise<RunResult> } {
  const spec = runSpecFixture(
    oneTarget('http://127.0.0.1:9/', { options: { workers: 2, sampleIntervalMs: 100 } }),
  );
  const samples: Sample[] = [];
  const done = coordinate({
    spec,
    shards: splitLoad(spec.load, 2),
    backendFor: () => backend,
    signal: new AbortController().signal,
    onSample: (s) => samples.push(s),
    engine: { name: 'native', version: 'fake' },
    startedAt: new Date(0),
    cpu: new CpuAccount(),
    ...(facts ? { facts } : {}),
  });
  return { samples, done };
}

/** Both shards say ready; the start they are sent (epoch ms), the same for both. */
export function readyBoth(shards: readonly HandShard[], ready: FromShard = { type: 'ready' }): number {
  for (const s of shards) s.say(ready);
  const start = shards[0]!.sent[0];
  if (start?.type !== 'start') throw new Error('no start was sent');
  if (JSON.stringify(shards[1]!.sent) !== JSON.stringify([start]))
    throw new Error('the shards were told different starts');
  return start.at;
}
