/**
 * A run's machine in the HTML report (issue 32): its CPU over time as inline SVG (the machine
 * busy, the generator, the other processes), and the Machine table: how it was read, the
 * shares, the busiest other processes, the link, notes and the readings' own cost.
 */
import { MACHINE_CHART, machineChartReadings, machineSeriesWithData } from '../../machine/charts.ts';
import type { RunResult } from '../../model/result.ts';
import { targetLabel } from '../../model/scenario.ts';
import { describeMachine, machineRows } from '../machine/machine-table.ts';
import { fixed, formatGrouped } from '../../figures/units.ts';
import { esc } from './escape.ts';
import { lineChart } from './svg.ts';
import { factList, htmlTable } from './table.ts';

/** The machine's chart of a run (none without readings). */
export function machineCharts(r: RunResult, id: string): string[] {
  const samples = machineChartReadings(r.machine?.samples ?? []);
  const series = machineSeriesWithData(samples);
  if (series.length === 0) return [];
  return [
    lineChart({
      title: `${MACHINE_CHART.title} · ${targetLabel(r.target)}`,
      xLabel: 'seconds since the start (warm-up included)',
      yLabel: MACHINE_CHART.unit,
      series: series.map((s) => ({
        label: s.label,
        points: samples.map((x) => [x.elapsedSeconds, s.value(x)] as const),
      })),
      testId: `${id}-chart-${MACHINE_CHART.id}`,
      yFormat: (v) => `${formatGrouped(v, 1)}%`,
    }),
  ];
}

/** The Machine table of a run; '' without readings. */
export function machineSection(r: RunResult, id: string): string {
  const m = r.machine;
  if (!m) return '';
  const table = htmlTable({
    head: ['figure', 'over the measured time'],
    rows: machineRows(m).map((row) => [row.label, row.value]),
    rowHeaders: 1,
    testId: `${id}-machine`,
  });
  const facts = factList([
    ['Read', describeMachine(m)],
    [
      'Readings',
      `${formatGrouped(m.samples.length, 0)}, at least ${fixed(m.minIntervalMs / 1000, 1)} s apart`,
    ],
    ...(m.monitorCpuPercent === null
      ? []
      : ([['Readings\u2019 cost', `${fixed(m.monitorCpuPercent, 2)}% of a core (on the host)`]] as [
          string,
          string,
        ][])),
  ]);
  const notes =
    m.notes.length === 0
      ? ''
      : `<ul class="notes" data-testid="${esc(id)}-machine-notes">${m.notes.map((n) => `<li>${esc(n)}</li>`).join('')}</ul>`;
  return `<h4>Machine</h4>${table}${facts}${notes}`;
}
