import { describe, expect, it } from 'vitest';
import {
  PushQueue,
  RefusedPushError,
  SlowPushError,
  type PushQueueOptions,
} from '../../electron/metrics/push-queue.ts';
import type { Snapshot } from '../../shared/metrics/series.ts';
import { METRICS } from '../../shared/metrics/catalog.ts';

/** A snapshot at `at` holding `series` counter series. */
const snap = (at: number, series = 1): Snapshot => ({
  at,
  series: Array.from({ length: series }, (_, i) => ({
    kind: 'scalar' as const,
    def: METRICS.requests,
    labels: { status: String(200 + i) },
    since: 0,
    value: at,
  })),
});

/** A writer the test answers push by push. */
function scriptedWriter() {
  const calls: { batch: number[]; resolve: () => void; reject: (e: Error) => void }[] = [];
  return {
    calls,
    write: (batch: readonly Snapshot[]) =>
      new Promise<void>((resolve, reject) => calls.push({ batch: batch.map((s) => s.at), resolve, reject })),
  };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

function queue(write: PushQueueOptions['write'], over: Partial<PushQueueOptions> = {}): PushQueue {
  return new PushQueue({ write, maxSeries: 1000, maxBatchSeries: 1000, backoffMs: 20, ...over });
}

describe("a push endpoint's queue", () => {
  it('pushes at once when idle, then what came meanwhile in one batch, in order, one push in flight', async () => {
    const w = scriptedWriter();
    const q = queue(w.write);
    q.add(snap(1), 'a');
    q.add(snap(2), 'a');
    q.add(snap(3), 'b');
    expect(w.calls.map((c) => c.batch)).toEqual([[1]]);
    w.calls[0]!.resolve();
    await tick();
    expect(w.calls.map((c) => c.batch)).toEqual([[1], [2, 3]]);
    w.calls[1]!.resolve();
    await tick();
    expect(q.account('a')).toEqual({ made: 2, delivered: 2, dropped: 0, lastDelivered: true });
    expect(q.account('b')).toEqual({ made: 1, delivered: 1, dropped: 0, lastDelivered: true });
    expect(q.lastError).toBeNull();
  });

  it('keeps at most maxSeries while the endpoint hangs, dropping the oldest; a batch is at most maxBatchSeries', async () => {
    const w = scriptedWriter();
    const q = queue(w.write, { maxSeries: 6, maxBatchSeries: 4 });
    for (let at = 1; at <= 6; at++) q.add(snap(at, 2), 't');
    // 1 in flight, 2..6 queued: 12 series held, 6 allowed: 2, 3 and 4 dropped (the one in flight stays: its outcome counts it).
    expect(q.account('t').dropped).toBe(3);
    w.calls[0]!.resolve();
    await tick();
    // 5 and 6 fill a batch of 4 series.
    expect(w.calls.map((c) => c.batch)).toEqual([[1], [5, 6]]);
    w.calls[1]!.resolve();
    await tick();
    expect(q.account('t')).toEqual({ made: 6, delivered: 3, dropped: 3, lastDelivered: true });
    // A batch holds at least one snapshot, however many series it has.
    q.add(snap(7, 5), 't');
    expect(w.calls.at(-1)!.batch).toEqual([7]);
  });

  it('tries a failed push again after a pause, with what came meanwhile', async () => {
    const w = scriptedWriter();
    // The pause runs on the queue's clock, moved by hand: a loaded machine's slow turn of the
    // loop cannot end it early (a real 20 ms pause once passed during one setTimeout(0)).
    let clock = 0;
    const q = queue(w.write, { now: () => clock });
    q.add(snap(1), 't');
    w.calls[0]!.reject(new Error('connect ECONNREFUSED'));
    await tick();
    q.add(snap(2), 't');
    await new Promise((r) => setTimeout(r, 60));
    expect(w.calls).toHaveLength(1);
    expect(q.lastError).toBe('connect ECONNREFUSED');
    clock = 20;
    await new Promise((r) => setTimeout(r, 60));
    expect(w.calls.map((c) => c.batch)).toEqual([[1], [1, 2]]);
    w.calls[1]!.resolve();
    await tick();
    expect(q.account('t')).toEqual({ made: 2, delivered: 2, dropped: 0, lastDelivered: true });
    expect(q.lastError).toBeNull();
  });

  it('drops a batch the endpoint refused for its content (4xx), and goes on', async () => {
    const w = scriptedWriter();
    const q = queue(w.write);
    q.add(snap(1), 't');
    q.add(snap(2), 't');
    w.calls[0]!.reject(new RefusedPushError('HTTP 400: out of bounds'));
    await tick();
    expect(w.calls.map((c) => c.batch)).toEqual([[1], [2]]);
    w.calls[1]!.resolve();
    await tick();
    expect(q.account('t')).toEqual({ made: 2, delivered: 1, dropped: 1, lastDelivered: true });
  });

  it("at a part's end: tries a failing endpoint once at once, waits for a push in flight, not for one known slow", async () => {
    const w = scriptedWriter();
    const q = queue(w.write, { backoffMs: 60_000 });
    q.add(snap(1), 't');
    w.calls[0]!.reject(new Error('connect ECONNREFUSED'));
    await tick();
    // The pause is a minute; the part's end does not wait it out.
    const settled = q.settle('t', 5000);
    expect(w.calls).toHaveLength(2);
    w.calls[1]!.reject(new Error('connect ECONNREFUSED'));
    await settled;
    expect(q.account('t')).toMatchObject({ made: 1, delivered: 0, lastDelivered: false });

    // In flight and answered: waited for.
    const ok = queue(w.write);
    ok.add(snap(5), 'u');
    const waited = ok.settle('u', 5000);
    w.calls.at(-1)!.resolve();
    await waited;
    expect(ok.account('u')).toMatchObject({ delivered: 1, lastDelivered: true });

    // Its last push went unanswered: the next part's end does not wait again.
    const slow = queue(w.write);
    slow.add(snap(7), 'v');
    w.calls.at(-1)!.reject(new SlowPushError('no answer within 5 s'));
    await tick();
    slow.add(snap(8), 'v');
    const started = Date.now();
    await slow.settle('v', 5000);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(slow.account('v')).toMatchObject({ made: 2, delivered: 0 });
  });

  it('waits at most the time given for a push that does not answer', async () => {
    const w = scriptedWriter();
    const q = queue(w.write);
    q.add(snap(1), 't');
    await q.settle('t', 30);
    expect(q.account('t')).toMatchObject({ made: 1, delivered: 0, dropped: 0, lastDelivered: false });
  });

  it('drops what is queued when closed, and takes nothing after', () => {
    const w = scriptedWriter();
    const q = queue(w.write);
    q.add(snap(1), 't');
    q.add(snap(2), 't');
    q.close();
    q.add(snap(3), 't');
    // The one in flight is counted by its outcome; the one queued is dropped.
    expect(q.account('t')).toMatchObject({ made: 2, dropped: 1 });
    expect(w.calls).toHaveLength(1);
  });
});
