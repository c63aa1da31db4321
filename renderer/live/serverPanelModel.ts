import { describeResourceSource } from '../../shared/format/resources-table.ts';
import { formatResourceValue } from '../../shared/resources/figure-text.ts';
import { monitorText, type Monitor } from '../../shared/model/monitor.ts';
import { SERVER_CHARTS, type ServerChartId } from '../../shared/resources/charts.ts';
import type { ResourceFigure, ServerResources } from '../../shared/model/server-resources.ts';
import type { ServerLive } from '../jobs/partLive.ts';

/** What the server panel shows of one target, computed from its state; the component lays it out. */
export interface ServerPanelModel {
  /** The charts, in the panel's order. */
  charts: ServerChartId[];
  /** What is sampled and how: the monitor asked for, then (with the result) what was found. */
  source: string;
  /** The last reading's headline figures. */
  figures: { figure: ResourceFigure; label: string; value: string }[];
  gaps: readonly string[];
  /** Nothing was or will be sampled (the reason is the source line). */
  idle: boolean;
}

/** The charts a method draws even before (or without) a figure: a gap then shows as one. */
const EXPECTED: Record<'process' | 'node-exporter', readonly ServerChartId[]> = {
  process: ['server-cpu', 'server-memory'],
  'node-exporter': ['server-cpu', 'server-memory', 'server-load'],
};

const HEADLINE: readonly [ResourceFigure, string][] = [
  ['cpuPercent', 'CPU'],
  ['rssBytes', 'RSS'],
  ['memoryUsedBytes', 'memory used'],
  ['load1', 'load 1m'],
];

/**
 * The panel of a target watched by `monitor` (null: off), from its live state and, once it
 * ended, its result's server resources. Null when there is nothing to show: monitor off, or
 * no reading yet and no result.
 */
export function serverPanelModel(
  monitor: Monitor | undefined,
  live: ServerLive | undefined,
  resources: ServerResources | null | undefined,
): ServerPanelModel | null {
  if (!monitor || monitor.kind === 'off') return null;
  const last = live?.last ?? null;
  const method = resources?.source.method ?? (monitor.kind === 'node-exporter' ? 'node-exporter' : 'process');
  if (resources?.source.method === 'none') {
    return {
      charts: [],
      source: describeResourceSource(resources.source),
      figures: [],
      gaps: [],
      idle: true,
    };
  }
  if (last === null && !resources) return null;
  const seen = new Set<ServerChartId>([
    ...(live?.charts ?? []),
    ...(method === 'none' ? [] : EXPECTED[method]),
  ]);
  const figures = last
    ? HEADLINE.flatMap(([figure, label]) => {
        const v = last[figure];
        return v === undefined ? [] : [{ figure, label, value: formatResourceValue(figure, v) }];
      })
    : [];
  return {
    charts: SERVER_CHARTS.filter((c) => seen.has(c.id)).map((c) => c.id),
    source: resources
      ? describeResourceSource(resources.source)
      : `monitor ${monitorText(monitor)}: sampling`,
    figures,
    gaps: live?.gaps ?? [],
    idle: false,
  };
}
