import { describe, expect, it } from 'vitest';
import { monitorOf } from '../../electron/monitor/server-monitor.ts';
import type { MonitorSource, SourceReading } from '../../electron/monitor/source.ts';
import type { ResourceSample } from '../../shared/model/server-resources.ts';
import { sampleFixture } from '../helpers/run-result.ts';

/** A source whose every reading is 0.1 CPU-seconds over 1 s, or what `next` says. */
function fakeSource(
  next: () => Promise<SourceReading> = () =>
    Promise.resolve({ figures: { cpuSeconds: 0.1, intervalSeconds: 1 } }),
) {
  let reads = 0;
  const source: MonitorSource = {
    facts: () => ({ method: 'none', reason: 'fake' }),
    read: () => {
      reads++;
      return next();
    },
    notes: () => [],
    rootPid: () => null,
    selfCpuMicros: () => 0,
    close: () => undefined,
  };
  return { source, reads: () => reads };
}

const tick = (seq: number, elapsedSeconds: number, over: Parameters<typeof sampleFixture>[0] = {}) =>
  sampleFixture({ seq, elapsedSeconds, ...over });

describe('when the server monitor reads', () => {
  it('reads at most once a second on the engine clock, and always at the last tick', async () => {
    const { source, reads } = fakeSource();
    const seen: ResourceSample[] = [];
    const m = monitorOf(source, '', {
      options: { sampleIntervalMs: 100, warmupSeconds: 0 },
      onSample: (s) => seen.push(s),
    });
    for (let seq = 0; seq < 25; seq++) m.tick(tick(seq, (seq + 1) / 10, { final: seq === 24 }));
    const sr = await m.stop({ seconds: 2.5, requests: 100 });
    expect(reads()).toBe(3);
    expect(sr.samples.map((s) => [s.seq, s.elapsedSeconds])).toEqual([
      [9, 1],
      [19, 2],
      [24, 2.5],
    ]);
    expect(seen).toEqual(sr.samples);
  });

  it("reads the warm-up's last tick, so measured readings hold no warm-up time", async () => {
    const { source } = fakeSource();
    const m = monitorOf(source, '', { options: { sampleIntervalMs: 1000, warmupSeconds: 1.5 } });
    m.tick(tick(0, 1, { warmup: true }));
    m.tick(tick(1, 1.5, { warmup: true, intervalSeconds: 0.5 }));
    m.tick(tick(2, 2.5));
    m.tick(tick(3, 3.5, { final: true }));
    const sr = await m.stop({ seconds: 2, requests: 1000 });
    expect(sr.samples.map((s) => [s.seq, s.warmup])).toEqual([
      [0, true],
      [1, true],
      [2, false],
      [3, false],
    ]);
    expect(sr.cpuSeconds).toBeCloseTo(0.2, 9);
    expect(sr.cpuSecondsPer10kRequests).toBeCloseTo(2, 9);
  });

  it('marks a tick that comes while the previous reading runs as a gap, and still takes the final reading', async () => {
    let release: () => void = () => undefined;
    const slow = new Promise<void>((r) => (release = r));
    let first = true;
    const { source, reads } = fakeSource(async () => {
      if (first) {
        first = false;
        await slow;
      }
      return { figures: { cpuSeconds: 0.1, intervalSeconds: 1 } };
    });
    const m = monitorOf(source, '', { options: { sampleIntervalMs: 1000, warmupSeconds: 0 } });
    m.tick(tick(0, 1));
    await Promise.resolve();
    m.tick(tick(1, 2));
    m.tick(tick(2, 2.4, { final: true }));
    release();
    const sr = await m.stop({ seconds: 2.4, requests: 10 });
    expect(reads()).toBe(2);
    expect(sr.samples.map((s) => [s.seq, s.gap ?? null])).toEqual([
      [1, 'the previous reading was still running (slower than the tick)'],
      [0, null],
      [2, null],
    ]);
    expect(sr.gaps).toEqual([
      {
        reason: 'the previous reading was still running (slower than the tick)',
        count: 1,
        firstElapsedSeconds: 2,
      },
    ]);
  });

  it("reads the first window as the load's own, not the pre-flight's and the engine start's before it", async () => {
    // The baseline was read 3.2 s before the first tick, 1 s into the load: 0.1 CPU-s is 10%, not 3.1%.
    const windows = [
      { cpuSeconds: 0.1, cpuPercent: (0.1 / 3.2) * 100, intervalSeconds: 3.2 },
      { cpuSeconds: 0.1, cpuPercent: 10, intervalSeconds: 1 },
    ];
    const { source } = fakeSource(() => Promise.resolve({ figures: windows.shift() ?? {} }));
    const m = monitorOf(source, '', { options: { sampleIntervalMs: 1000, warmupSeconds: 0 } });
    m.tick(tick(0, 1));
    m.tick(tick(1, 2, { final: true }));
    const sr = await m.stop({ seconds: 2, requests: 100 });
    expect(sr.samples.map((s) => [s.intervalSeconds, s.cpuPercent])).toEqual([
      [1, 10],
      [1, 10],
    ]);
    expect(sr.summary.cpuPercent).toEqual({ mean: 10, max: 10 });
    expect(sr.cpuSeconds).toBeCloseTo(0.2, 9);
  });
});
