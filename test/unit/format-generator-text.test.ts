import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { summaryCsv } from '../../shared/format/csv.ts';
import { renderReport } from '../../electron/cli/report.ts';
import { generatorCpuText, sendLatenessText, tickPauseText } from '../../shared/format/generator-text.ts';
import { runHtmlReport } from '../../shared/format/html-report.ts';
import type { RunResult } from '../../shared/model/result.ts';
import { amendResult, seed000Result } from '../helpers/run-result.ts';

/** seed 000's run as if split over two workers, with its schedule's send lateness. */
function twoWorkers(): RunResult {
  return amendResult(seed000Result(), {
    generator: {
      cpuPercentMean: 101,
      cpuPercentMax: 130,
      saturated: true,
      workers: [
        { cpuPercentMean: 93.4, cpuPercentMax: 99.6, saturated: true },
        { cpuPercentMean: 7.6, cpuPercentMax: 30.2, saturated: false },
      ],
      tickPause: { ticks: 41, p50: 0.0123, p99: 0.0871, max: 0.412 },
    },
    sendLateness: { min: 0, mean: 0.4, stdev: 0.2, max: 9.1, percentiles: { '50': 0.12, '99': 2.3 } },
  });
}

describe("the generator's own figures in the reports", () => {
  it("gives each worker's CPU, and the send lateness of a schedule", () => {
    expect(generatorCpuText(twoWorkers())).toBe(
      '2 workers: 93%, 8% of a core on average (max 100%, 30%) (1 flat out)',
    );
    expect(sendLatenessText(twoWorkers())).toBe('p50 0.120 ms, p99 2.300 ms, max 9.100 ms');
    // A result saved before workers existed ran in one; a closed run without a rate has no schedule.
    const old = amendResult(seed000Result(), { generator: { cpuPercentMean: 54.2, cpuPercentMax: 61 } });
    expect(generatorCpuText(old)).toBe('1 worker: 54% of a core on average (max 61%)');
    expect(sendLatenessText({ ...old, sendLateness: null })).toBeNull();
    expect(tickPauseText(twoWorkers())).toBe('p50 0.012 ms, p99 0.087 ms, max 0.412 ms over 41 ticks');
    // A result saved before the figure existed has none to say.
    expect(tickPauseText(old)).toBeNull();
  });

  it('prints them under the verdict in the CLI and in the HTML report', () => {
    const text = renderReport([twoWorkers()], 'text').split('\n');
    const at = text.findIndex((l) => l.startsWith('Generator CPU: '));
    expect(text[at]).toBe(
      'Generator CPU: 2 workers: 93%, 8% of a core on average (max 100%, 30%) (1 flat out)',
    );
    expect(text[at + 1]).toBe(
      "Send lateness: p50 0.120 ms, p99 2.300 ms, max 9.100 ms (the generator's delay, part of the latency)",
    );
    expect(text[at + 2]).toBe(
      'Tick pause: p50 0.012 ms, p99 0.087 ms, max 0.412 ms over 41 ticks (the sending thread held up at each tick)',
    );
    expect(text.slice(0, at).some((l) => l.startsWith('Verdict: CLIENT-BOUND'))).toBe(true);
    const html = runHtmlReport([twoWorkers()]);
    expect(html).toContain('2 workers: 93%, 8% of a core on average (max 100%, 30%) (1 flat out)');
    expect(html).toContain('p50 0.120 ms, p99 2.300 ms, max 9.100 ms');
    expect(html).toContain('<dt>Tick pause</dt>');
    expect(html).toContain('p50 0.012 ms, p99 0.087 ms, max 0.412 ms over 41 ticks');
  });

  it('gives the worker count, the busiest worker and the send lateness columns in the summary CSV', () => {
    const [head, row]: string[][] = parse(summaryCsv([{ label: 'two', result: twoWorkers() }]));
    const cell = (name: string) => row![head!.indexOf(name)];
    expect(cell('generator workers')).toBe('2');
    expect(cell('busiest worker cpu mean (%)')).toBe('93.4');
    expect(cell('send lateness p50 (ms)')).toBe('0.12');
    expect(cell('send lateness p99 (ms)')).toBe('2.3');
    expect(cell('tick pause p99 (ms)')).toBe('0.0871');
    expect(cell('tick pause max (ms)')).toBe('0.412');
  });
});
