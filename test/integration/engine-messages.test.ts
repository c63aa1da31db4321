import type * as WorkerThreads from 'node:worker_threads';
import { describe, expect, it, vi } from 'vitest';
import { endAfterEach } from '../helpers/cleanup.ts';
import { oneTarget, runTarget } from '../helpers/engine.ts';
import { handlers, startHttpServer } from '../helpers/servers.ts';

/*
 * The engine→host live path: every message the engine worker posts to the host, counted. Each
 * Sample crosses once (one message per tick, a final fold once more under its seq), and the
 * result comes without samples: the host puts back the ones it received.
 */

const posted = vi.hoisted(() => [] as unknown[]);

vi.mock('node:worker_threads', async (importOriginal) => {
  const actual = await importOriginal<typeof WorkerThreads>();
  // The host's engine worker, with a listener that keeps what it posts (the shard threads
  // inside the engine worker are not the host's: the mock does not reach them).
  class CountedWorker extends actual.Worker {
    constructor(...args: ConstructorParameters<typeof actual.Worker>) {
      super(...args);
      this.on('message', (m: unknown) => posted.push(m));
    }
  }
  return { ...actual, Worker: CountedWorker };
});

const track = endAfterEach();

type Posted =
  { type: 'sample'; sample: { seq: number; final?: boolean } } | { type: 'result'; result: object };

describe('worker to host messages', () => {
  for (const workers of [1, 2]) {
    it(`${workers} worker(s): one sample message per tick, none again in the result`, async () => {
      const server = track(await startHttpServer(handlers.ok()));
      posted.length = 0;
      const { result, samples } = await runTarget(
        oneTarget(server.url, {
          load: { model: 'closed', connections: 2, limit: { kind: 'duration', seconds: 1.5 } },
          options: { sampleIntervalMs: 250, workers },
        }),
      );
      expect(result.status).toBe('completed');
      const messages = posted as Posted[];
      const sampleMessages = messages.flatMap((m) => (m.type === 'sample' ? [m.sample] : []));
      const results = messages.flatMap((m) => (m.type === 'result' ? [m.result] : []));
      // One result, last, without samples; the host's result carries the ones it received.
      expect(results).toHaveLength(1);
      expect(messages.at(-1)!.type).toBe('result');
      expect(Object.keys(results[0]!)).not.toContain('samples');
      expect(result.samples).toEqual(samples);
      // One message per tick: seqs 0, 1, 2, ... each once, but a final fold, which repeats the
      // last seq once (it replaces that sample).
      const seqs = sampleMessages.map((s) => s.seq);
      const folded = seqs.length - result.samples.length;
      expect(folded === 0 || folded === 1).toBe(true);
      expect(seqs.slice(0, result.samples.length)).toEqual(result.samples.map((_, i) => i));
      if (folded === 1) expect(seqs.at(-1)).toBe(seqs.at(-2));
      expect(sampleMessages.map((s) => s.final === true)).toEqual(seqs.map((_, i) => i === seqs.length - 1));
      // 1.5 s of 250 ms ticks: 6 windows and the last one, folded or not (fewer when a
      // stalled event loop made a tick skip a grid point).
      expect(result.samples.length).toBeGreaterThanOrEqual(4);
      expect(result.samples.length).toBeLessThanOrEqual(7);
    });
  }
});
