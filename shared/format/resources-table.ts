/**
 * A run's Server resources as one table model for the screen and the HTML report (the text
 * report prints the same rows): what was sampled and how, mean and max per figure, the
 * efficiency figure (server CPU-seconds per 10,000 requests) with the verdict's word on it,
 * the gaps with their reasons, the notes and the monitor's own cost.
 */
import {
  RESOURCE_FIGURE_LABELS,
  RESOURCE_FIGURES,
  type ResourceFigure,
  type ResourceSource,
  type ServerResources,
  type ServerWorkers,
} from '../model/server-resources.ts';
import { gapText } from '../resources/charts.ts';
import { formatCpuPer10k, formatResourceValue, SERVER_VERDICT_FIGURE } from '../resources/figure-text.ts';
import { badCaveatsOn, type Verdict } from '../verdict/verdict.ts';
import { fixed, formatCount } from '../figures/units.ts';

/** "process tree of nginx (pid 12, listening on port 8080): 3 processes via /proc" */
export function describeResourceSource(source: ResourceSource): string {
  switch (source.method) {
    case 'process': {
      const root = source.processes.find((p) => p.pid === source.rootPid)?.name ?? 'process';
      const how =
        source.found === 'port'
          ? `listening on port ${source.port}`
          : source.found === 'unix-socket'
            ? `listening on ${source.socketPath ?? 'its unix socket'}`
            : 'given by pid';
      const names = [...new Set(source.processes.map((p) => p.name))].join(', ');
      return `process tree of ${root} (pid ${source.rootPid}, ${how}): ${source.processes.length} processes seen (${names}), read from /proc on ${source.platform}`;
    }
    case 'node-exporter':
      return `node_exporter ${source.url}${source.cpuCount === null ? '' : ` (${source.cpuCount} CPUs)`}: the whole machine`;
    case 'none':
      return `not sampled: ${source.reason}`;
  }
}

export interface ResourceRow {
  figure: ResourceFigure;
  label: string;
  mean: number;
  max: number;
  meanText: string;
  maxText: string;
}

export interface ServerResourcesTable {
  source: string;
  rows: ResourceRow[];
  /** Server CPU-seconds per 10,000 requests; null when the readings did not cover the run (a note says why). */
  efficiency: { value: number; text: string } | null;
  /** CPU-seconds the server used while measured. */
  cpuSeconds: string | null;
  /** "busiest worker 99.1% (nginx, pid 12), 1 of 4 busy": a process tree's serving processes; null otherwise. */
  workers: string | null;
  /** "12 readings, at least 1 s apart" */
  readings: string;
  gaps: { reason: string; count: number; text: string }[];
  notes: string[];
  /** "0.14% of a core", the monitor's own readings. */
  cost: string | null;
  /** Why the server's figures are not the server's under the load asked for (the verdict's bad caveats), else null. */
  caveat: string | null;
}

/** Mean and max of each figure measured, in the reports' order. */
export function resourceRows(sr: ServerResources): ResourceRow[] {
  return RESOURCE_FIGURES.flatMap((figure) => {
    const stats = sr.summary[figure];
    if (!stats) return [];
    return [
      {
        figure,
        label: RESOURCE_FIGURE_LABELS[figure],
        mean: stats.mean,
        max: stats.max,
        meanText: formatResourceValue(figure, stats.mean),
        maxText: formatResourceValue(figure, stats.max),
      },
    ];
  });
}

/** "busiest worker 99.1% of a core (nginx, pid 12), 1 of 4 busy" */
export function workersText(w: ServerWorkers): string {
  const b = w.busiest;
  return `busiest worker ${fixed(b.cpuPercentMean, 1)}% of a core (${b.name}, pid ${b.pid}), ${w.busy} of ${w.count} busy`;
}

export function serverResourcesTable(sr: ServerResources, verdict?: Verdict): ServerResourcesTable {
  const caveats = verdict ? badCaveatsOn(verdict, SERVER_VERDICT_FIGURE) : [];
  const n = sr.samples.length;
  return {
    source: describeResourceSource(sr.source),
    rows: resourceRows(sr),
    efficiency:
      sr.cpuSecondsPer10kRequests === null
        ? null
        : { value: sr.cpuSecondsPer10kRequests, text: formatCpuPer10k(sr.cpuSecondsPer10kRequests) },
    cpuSeconds: sr.cpuSeconds === null ? null : `${fixed(sr.cpuSeconds, 3)} s`,
    workers: sr.workers ? workersText(sr.workers) : null,
    readings:
      sr.source.method === 'none'
        ? 'none'
        : `${formatCount(n)} reading${n === 1 ? '' : 's'}, at least ${fixed(sr.minIntervalMs / 1000, sr.minIntervalMs % 1000 === 0 ? 0 : 1)} s apart, on the engine's ticks`,
    gaps: sr.gaps.map((g) => ({ reason: g.reason, count: g.count, text: gapText(g) })),
    notes: sr.notes,
    cost: sr.monitorCpuPercent === null ? null : `${fixed(sr.monitorCpuPercent, 2)}% of a core`,
    caveat: caveats.length === 0 ? null : caveats.map((c) => c.message).join(' '),
  };
}
