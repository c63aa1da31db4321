/**
 * A run's server resources in the HTML report (issue 11): the server's CPU, memory and load
 * over time as inline SVG on the run's time axis (a gap reading breaks the line), and the
 * Server resources table with the efficiency figure, how it was sampled, gaps, notes and the
 * monitor's own cost.
 */
import { chartReadings, chartsWithData, seriesHasData, serverValue } from '../../resources/charts.ts';
import type { RunResult } from '../../model/result.ts';
import { targetLabel } from '../../model/scenario.ts';
import type { Verdict } from '../../verdict/verdict.ts';
import { serverResourcesTable } from '../resources-table.ts';
import { formatGrouped } from '../../figures/units.ts';
import { esc } from './escape.ts';
import { lineChart } from './svg.ts';
import { factList, htmlTable } from './table.ts';

/** The server charts of a run (none when nothing was read). */
export function serverCharts(r: RunResult, id: string): string[] {
  const samples = chartReadings(r.serverResources?.samples ?? []);
  return chartsWithData(samples).map((chart) =>
    lineChart({
      title: `${chart.title} · ${targetLabel(r.target)}`,
      xLabel: 'seconds since the start (warm-up included)',
      yLabel: chart.unit,
      series: chart.series
        .filter((s) => seriesHasData(s, samples))
        .map((s) => ({
          label: s.label,
          points: samples.map((x) => [x.elapsedSeconds, serverValue(chart, s, x)] as const),
        })),
      testId: `${id}-chart-${chart.id}`,
      yFormat: (v) => `${formatGrouped(v, 2)} ${chart.unit}`,
    }),
  );
}

/** The Server resources table of a run; '' when the monitor was off. */
export function serverResourcesSection(r: RunResult, verdict: Verdict, id: string): string {
  const sr = r.serverResources;
  if (!sr) return '';
  const t = serverResourcesTable(sr, verdict);
  const efficiency =
    sr.source.method === 'none'
      ? ''
      : `<p class="efficiency${t.caveat ? ' flag' : ''}" data-testid="${esc(id)}-efficiency"${t.caveat ? ` title="${esc(t.caveat)}"` : ''}>` +
        `<strong>${esc(t.efficiency?.text ?? '–')}</strong> server CPU-seconds per 10,000 requests${t.caveat ? ' (!)' : ''}` +
        `${t.cpuSeconds ? ` <span class="muted">· ${esc(t.cpuSeconds)} of CPU while measured</span>` : ''}</p>`;
  const table =
    t.rows.length === 0
      ? ''
      : htmlTable({
          head: ['figure', 'mean', 'max'],
          rows: t.rows.map((row) => [row.label, row.meanText, row.maxText]),
          numeric: (i) => i > 0,
          rowHeaders: 1,
          testId: `${id}-server-resources`,
        });
  const facts = factList([
    ['Sampled', t.source],
    ...(t.workers ? ([['Workers', t.workers]] as [string, string][]) : []),
    ...(sr.source.method === 'none' ? [] : ([['Readings', t.readings]] as [string, string][])),
    ...(t.cost ? ([['Monitor cost', `${t.cost} (its readings, on the host)`]] as [string, string][]) : []),
  ]);
  const list = (items: readonly string[], className: string, testId: string): string =>
    items.length === 0
      ? ''
      : `<ul class="${className}" data-testid="${esc(testId)}">${items.map((x) => `<li>${esc(x)}</li>`).join('')}</ul>`;
  return (
    `<h4>Server resources</h4>` +
    efficiency +
    table +
    facts +
    (t.caveat ? `<p class="flag">${esc(t.caveat)}</p>` : '') +
    list(
      t.gaps.map((g) => `No reading for ${g.text}`),
      'warnings',
      `${id}-server-gaps`,
    ) +
    list(t.notes, 'notes', `${id}-server-notes`)
  );
}
