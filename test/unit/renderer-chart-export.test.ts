import { describe, expect, it } from 'vitest';
import { titleLines } from '../../renderer/charts/chartImage.ts';
import {
  aboutComparison,
  aboutResults,
  chartFileName,
  chartTitle,
  levelsTag,
  loadTag,
} from '../../renderer/charts/chartSubject.ts';
import { twoServerPlan, resultWith } from '../helpers/comparison-results.ts';

// Local time, so the day in the name is the person's own whatever the machine's zone.
const when = new Date(2026, 11, 1, 14, 3);

describe('a chart PNG says what it shows', () => {
  it('names the file after the figure, targets, load and day', () => {
    const subject = {
      figure: 'Throughput (req/s)',
      slug: 'throughput',
      targets: ['nginx'],
      load: loadTag({
        model: 'closed',
        connections: 500,
        pipelining: 1,
        limit: { kind: 'duration', seconds: 5 },
        rate: null,
      }),
      date: when,
    };
    expect(chartFileName(subject)).toBe('trebuchet-throughput-nginx-c500-2026-12-01.png');
    expect(chartTitle(subject)).toEqual(['Throughput (req/s)', 'nginx', 'c=500', '2026-12-01 14:03']);
  });

  it('tags connection and rate levels for the title and the file name', () => {
    expect(levelsTag('connections', [1000, 10, 100])).toEqual({
      text: 'c=10, 100, 1000',
      slug: 'c10-100-1000',
    });
    expect(levelsTag('rate', [100])).toEqual({ text: '100 req/s', slug: '100rps' });
    expect(loadTag({ model: 'open', rate: 250, durationSeconds: 1, maxInFlight: 10 })).toEqual({
      text: '250 req/s',
      slug: '250rps',
    });
  });

  it("takes a comparison's targets, levels and first start; a run's target and load", () => {
    const plan = twoServerPlan({ levels: [10, 100] });
    const early = { ...resultWith({ rps: 1 }), startedAt: '2026-12-01T10:00:00.000Z' };
    const late = { ...resultWith({ rps: 1 }), startedAt: '2026-12-01T11:00:00.000Z' };
    const cell = (result: typeof early) => ({
      cellIndex: 0,
      coordinates: { targetIndex: 0, protocol: 'http' as const, level: 10, repetition: 0 },
      result,
    });
    const about = aboutComparison(plan, [cell(late), cell(early)]);
    expect(about).toEqual({
      targets: ['nginx', 'apache'],
      load: { text: 'c=10, 100', slug: 'c10-100' },
      date: '2026-12-01T10:00:00.000Z',
    });
    const run = aboutResults([early]);
    expect(run.targets).toEqual(['127.0.0.1:8080']);
    expect(run.date).toBe(early.startedAt);
    // No date (a comparison before its first cell): the name and title leave it out.
    const none = aboutComparison(plan, []);
    expect(chartFileName({ figure: 'x', slug: 'scaling-rps', ...none })).toBe(
      'trebuchet-scaling-rps-nginx-apache-c10-100.png',
    );
  });

  it('wraps a long title at its separators onto at most three lines, cutting what still does not fit', () => {
    // One unit per character.
    const measure = (t: string) => t.length;
    expect(titleLines(['Throughput', 'nginx', 'c=5'], 40, measure)).toEqual(['Throughput · nginx · c=5']);
    expect(titleLines(['Throughput (req/s)', 'nginx vs apache', 'c=5'], 20, measure)).toEqual([
      'Throughput (req/s)',
      'nginx vs apache',
      'c=5',
    ]);
    const lines = titleLines(['aaaa', 'bbbb', 'cccc', 'dddd', 'a very long last part'], 6, measure);
    expect(lines).toHaveLength(3);
    expect(lines.slice(0, 2)).toEqual(['aaaa', 'bbbb']);
    expect(lines[2]).toMatch(/^cccc.*…$/);
    for (const l of lines) expect(measure(l)).toBeLessThanOrEqual(6);
  });
});
