import { describe, expect, it } from 'vitest';
import { chartReadings, foldReadings, readingOver } from '../../shared/resources/charts.ts';
import { SampleSeries } from '../../shared/figures/sample-series.ts';
import type { ResourceSample } from '../../shared/model/server-resources.ts';

const reading = (seq: number, over: Partial<ResourceSample>): ResourceSample => ({
  seq,
  elapsedSeconds: seq,
  intervalSeconds: 1,
  warmup: false,
  ...over,
});

describe('server readings as the charts draw them', () => {
  it('folds the run’s short last reading into its tick: rates by window length, levels the later one’s', () => {
    const tick = reading(3, { cpuPercent: 60, cpuSeconds: 0.6, rssBytes: 1000, load1: 1.5 });
    const tail = reading(3, {
      elapsedSeconds: 3.25,
      intervalSeconds: 0.25,
      cpuPercent: 10,
      cpuSeconds: 0.025,
      rssBytes: 1200,
      load1: 1.4,
    });
    const folded = foldReadings(tick, tail);
    // (60 × 1 + 10 × 0.25) / 1.25: the near-idle tail no longer ends the line on a dip.
    expect(folded.cpuPercent).toBeCloseTo(50, 10);
    expect(folded.cpuSeconds).toBeCloseTo(0.625, 10);
    expect(folded.intervalSeconds).toBe(1.25);
    expect(folded).toMatchObject({ seq: 3, elapsedSeconds: 3.25, rssBytes: 1200, load1: 1.4 });
  });

  it('keeps the figures of the one with figures when the other is a gap', () => {
    const ok = reading(2, { cpuPercent: 40 });
    const gap = reading(2, { elapsedSeconds: 2.5, gap: 'node_exporter: timed out' });
    expect(foldReadings(ok, gap)).toMatchObject({ seq: 2, elapsedSeconds: 2.5, cpuPercent: 40 });
    expect(foldReadings(gap, ok)).toEqual(ok);
    expect(foldReadings(gap, gap)).toEqual(gap);
  });

  it('gives one point per engine tick, appending readings of new ticks', () => {
    const samples = [
      reading(1, { cpuPercent: 20 }),
      reading(2, { cpuPercent: 30 }),
      reading(2, { elapsedSeconds: 2.5, intervalSeconds: 0.5, cpuPercent: 0 }),
    ];
    const drawn = chartReadings(samples);
    expect(drawn.map((s) => s.seq)).toEqual([1, 2]);
    expect(drawn[1]!.cpuPercent).toBeCloseTo(20, 10);
    // The input is left as it was (it is the result's).
    expect(samples).toHaveLength(3);

    const live = new SampleSeries<ResourceSample>({ sameTick: foldReadings });
    expect(samples.map((s) => live.add(s))).toEqual(['appended', 'appended', 'replaced']);
    expect(live.items).toEqual(drawn);
  });

  it('reads a first window longer than the load as the load’s own: the process’s CPU scaled, the machine’s as read', () => {
    // 3 s read, of which the load ran 1 s: the server process was idle before it.
    const first = readingOver(
      reading(1, {
        intervalSeconds: 3,
        cpuPercent: 10,
        cpuUserPercent: 6,
        cpuSystemPercent: 4,
        cpuBusyPercent: 95,
        netInBytesPerSecond: 1000,
        rssBytes: 5000,
      }),
      1,
    );
    expect(first).toMatchObject({
      intervalSeconds: 1,
      cpuPercent: 30,
      cpuUserPercent: 18,
      cpuSystemPercent: 12,
    });
    // A machine busy with everything else too: scaling would read 285% busy.
    expect(first).toMatchObject({ cpuBusyPercent: 95, netInBytesPerSecond: 1000, rssBytes: 5000 });
  });
});
