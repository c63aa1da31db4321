/**
 * A staged run in the HTML report: the closed model's connections chart (target beside the
 * connections carrying load) and the stage table, one row per stage.
 */
import type { RunResult } from '../../model/result.ts';
import { targetLabel } from '../../model/scenario.ts';
import { windowTarget } from '../../stages/load-plan.ts';
import { stageTable } from '../stages.ts';
import { formatGrouped } from '../../figures/units.ts';
import { lineChart } from './svg.ts';
import { htmlTable } from './table.ts';

/** The stages' target over the samples, for the throughput chart (open) or the connections chart (closed). */
export function targetPoints(r: RunResult): (readonly [number, number | null])[] {
  return r.samples.map((s) => [s.elapsedSeconds, windowTarget(r.load, s.elapsedSeconds, s.intervalSeconds)]);
}

/** The closed model's connections over time, target and carrying load; empty for anything else. */
export function connectionsChart(r: RunResult, id: string): string {
  if (!r.load.stages || r.load.model !== 'closed') return '';
  return lineChart({
    title: `Connections over time · ${targetLabel(r.target)}`,
    xLabel: 'seconds since the start',
    yLabel: 'connections',
    series: [
      { label: 'target (stages)', points: targetPoints(r) },
      {
        label: 'carrying load',
        points: r.samples.map((s) => [s.elapsedSeconds, s.connections ?? null] as const),
      },
    ],
    testId: `${id}-chart-connections`,
    yFormat: (v) => `${formatGrouped(v, 0)} connections`,
  });
}

/** The stage table; empty for a run without stages. */
export function stagesTable(r: RunResult, id: string): string {
  const table = stageTable(r);
  if (!table) return '';
  return (
    `<h4>Stages</h4>` +
    htmlTable({
      head: table.head,
      rows: table.rows,
      numeric: (i) => i > 2,
      rowHeaders: 1,
      testId: `${id}-stages`,
    })
  );
}
