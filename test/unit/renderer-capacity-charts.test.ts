import { describe, expect, it } from 'vitest';
import type { Scale } from 'chart.js';
import { capacityReports } from '../../shared/capacity/report.ts';
import { kneeChart, logTicks, msTickLabel } from '../../renderer/views/Capacity/capacityCharts.ts';
import { paletteFor } from '../../renderer/charts/palette.ts';
import { capacitySearch } from '../helpers/one-result.ts';

describe("the knee chart's latency axis (issue 37)", () => {
  it('puts 1, 2 and 5 of every decade between the ends, so points near 5 ms have labels above them', () => {
    // p50 0.3 ms, p99 5 ms, the goal 10 ms: chart.js' own log ticks labelled nothing above 1.0.
    expect(logTicks(0.3, 10)).toEqual([0.5, 1, 2, 5, 10]);
    expect(logTicks(0.04, 1200)).toEqual([0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000]);
    expect(logTicks(0, 10)).toEqual([]);
    expect([0.05, 2, 1000, 0.5].map(msTickLabel)).toEqual(['0.05', '2', '1,000', '0.5']);
  });

  it('a log axis (p99 2 ms under the knee, 80 ms above) builds those ticks, every one labelled', () => {
    const search = capacitySearch();
    const config = kneeChart(capacityReports(search.plan, search.steps, null), paletteFor('light'));
    const y = config.options!.scales!.y!;
    expect(y.type).toBe('logarithmic');
    const axis = { min: 1, max: 80, ticks: [] as { value: number }[] } as unknown as Scale;
    (y as { afterBuildTicks: (a: Scale) => void }).afterBuildTicks(axis);
    expect(axis.ticks.map((t) => t.value)).toEqual([1, 2, 5, 10, 20, 50]);
    const ticks = y.ticks as { autoSkip: boolean; callback: (v: number) => string };
    // No tick skipped for a tick limit: each of the six says its value.
    expect(ticks.autoSkip).toBe(false);
    expect(axis.ticks.map((t) => ticks.callback(t.value))).toEqual(['1', '2', '5', '10', '20', '50']);
  });
});
