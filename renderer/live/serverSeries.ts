import { SERVER_CHARTS, serverValue } from '../../shared/resources/charts.ts';
import type { ResourceSample } from '../../shared/model/server-resources.ts';
import type { Palette } from '../charts/palette.ts';
import type { LiveChartSpec } from '../jobs/liveSeries.ts';

/**
 * The server panel's colours: one hue per place in a chart (the headline figure, then the
 * parts or longer averages), apart from the throughput and latency hues so the two panels
 * are not confused.
 */
const SERVER_HUES = [4, 5, 3] as const;

/** The colour of the k-th series of a server chart. */
export function serverColor(p: Palette, k: number): string {
  return p.series[SERVER_HUES[k % SERVER_HUES.length]!]!;
}

/**
 * The server charts as live chart specs over the server's readings: a gap reading is a gap
 * in every line; every line waits for its first value (RSS or memory used, whichever the
 * method measures; user and system once the server works).
 */
export const SERVER_LIVE_CHARTS: readonly LiveChartSpec<ResourceSample>[] = SERVER_CHARTS.map((chart) => ({
  id: chart.id,
  title: chart.title,
  unit: chart.unit,
  series: chart.series.map((series, k) => ({
    id: series.figure,
    label: series.label,
    color: (p: Palette) => serverColor(p, k),
    value: (s: ResourceSample) => serverValue(chart, series, s),
    fill: series.headline === true,
    optional: true,
  })),
}));
