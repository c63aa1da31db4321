/**
 * A comparison in the HTML report: the matrix with the plan's columns (figures a caveat
 * affects flagged), every cell's caveats, the bar and scaling charts (flagged cells marked;
 * the server CPU-seconds per 10,000 requests when the servers were watched),
 * seed 001's percentile tables, one row per run (seed 002), the plan, and each run in full.
 */
import {
  columnHasData,
  columnMarks,
  columnSeries,
  marksNote,
  type ColumnSeries,
} from '../../comparison/column-series.ts';
import { columnAffected, columnText, matrixColumns } from '../../comparison/columns.ts';
import { cellsWithCaveats, matrixCells, type MatrixCell } from '../../comparison/matrix.ts';
import { REPETITION_COLUMNS, repetitionRows } from '../../comparison/repetitions.ts';
import { cellKey, type CellOutcome } from '../../comparison/cells.ts';
import {
  aggregateComparison,
  cellAt,
  comparisonPercentileTable,
  type ComparisonTable,
} from '../../comparison/table.ts';
import {
  cellLabel,
  comparisonTargetLabel,
  levelLabel,
  urlFor,
  type ComparisonPlan,
} from '../../comparison/plan.ts';
import { PREFLIGHT_FIX_LABELS, type PreflightFailure } from '../../model/preflight.ts';
import { jobStatusText } from '../../model/interruption.ts';
import type { RunStatus } from '../../model/result.ts';
import { planReport } from '../../comparison/report-settings.ts';
import {
  runVerdict,
  VERDICT_STATES,
  verdictSummary,
  verdictTone,
  verdictWord,
} from '../../verdict/verdict.ts';
import { formatCpuPer10k } from '../../resources/figure-text.ts';
import { formatGrouped } from '../../figures/units.ts';
import { esc } from './escape.ts';
import { describeLoad, optionFacts, runSection, VERDICT_CLASS } from './run-section.ts';
import { barChart, lineChart, type Series } from './svg.ts';
import { factList, htmlTable, type CellInput } from './table.ts';

function matrix(table: ComparisonTable, cells: readonly MatrixCell[], plan: ComparisonPlan): string {
  const columns = matrixColumns(planReport(plan).columns);
  const rows = cells.map((c): CellInput[] => {
    const bad = c.results.length > 0 && verdictTone(c.verdict) === 'bad';
    const why = c.verdict.caveats.map((v) => v.message).join('\n');
    return [
      {
        text: c.results.length === 0 ? '' : bad ? '!' : c.verdict.state === 'partial' ? '~' : '',
        className: bad ? 'flag' : '',
      },
      c.target,
      c.protocol,
      levelLabel(table.levelKind, c.level),
      ...columns.map((col): CellInput => {
        const affected = columnAffected(col, c);
        return {
          text: columnText(col, c),
          ...(affected ? { className: 'flag', title: why } : {}),
          ...(col.id === 'verdict' && why ? { title: why } : {}),
        };
      }),
    ];
  });
  return htmlTable({
    head: [
      '',
      'Target',
      'Protocol',
      'Level',
      // min, max and ± stdev say what they are of.
      ...columns.map((c) =>
        c.unit === 'req/s' && !c.label.includes('req/s') ? `${c.label} (req/s)` : c.label,
      ),
    ],
    rows,
    numeric: (i) => i >= 4 && columns[i - 4]?.id !== 'verdict',
    rowHeaders: 2,
    testId: 'matrix',
  });
}

function caveats(plan: ComparisonPlan, cells: readonly MatrixCell[]): string {
  // As the app lists them: a cell per line, not clean first, its verdict word and every caveat.
  const items = cellsWithCaveats(cells).map((c) => {
    const tone = VERDICT_CLASS[verdictTone(c.verdict)];
    return `<li class="${tone}" data-testid="matrix-caveat" data-verdict="${esc(c.verdict.state)}"><span class="badge ${tone}" data-testid="caveat-word">${esc(verdictWord(c.verdict))}</span> <strong>${esc(cellLabel(plan, c))}</strong>: ${esc(c.verdict.caveats.map((v) => v.message).join(' '))}</li>`;
  });
  const measured = cells.filter((c) => c.results.length > 0);
  const counts = VERDICT_STATES.flatMap((s) => {
    const n = measured.filter((c) => c.verdict.state === s).length;
    const word = measured.find((c) => c.verdict.state === s);
    return n > 0 && word ? [`${n} ${verdictWord(word.verdict)}`] : [];
  }).join(' · ');
  return (
    `<div class="verdict ${items.length === 0 ? 'good' : 'warn'}" data-testid="comparison-verdicts"><p><strong>Cells:</strong> ${esc(counts || 'none measured yet')}</p>` +
    (items.length === 0 ? '' : `<ul>${items.join('')}</ul>`) +
    `</div>`
  );
}

/** A chart, and under it what its marks mean when it has one (shared/comparison/column-series.ts). */
function withNote(chart: string, note: string | null): string {
  return note === null ? chart : `${chart}<p class="muted chart-note">${esc(note)}</p>`;
}

/** Bars per level and series of a column, a marked cell's bar hatched with its verdict in the tooltip. */
function columnBars(
  table: ComparisonTable,
  cells: readonly MatrixCell[],
  series: readonly ColumnSeries[],
  opts: { title: string; yLabel: string; testId: string; yFormat?: (v: number) => string },
): string {
  const byKey = new Map(cells.map((c) => [c.key, c]));
  return withNote(
    barChart({
      title: opts.title,
      yLabel: opts.yLabel,
      xLabel: table.levelKind === 'connections' ? 'connections' : 'rate (req/s)',
      seriesLabels: series.map((s) => s.label),
      groups: (series[0]?.levels ?? []).map((level, li) => ({
        label: levelLabel(table.levelKind, level),
        bars: series.map((s) => {
          const c = byKey.get(cellKey({ targetIndex: s.targetIndex, protocol: s.protocol, level }));
          return {
            value: s.values[li] ?? null,
            flagged: s.affected[li] === true,
            ...(c && c.results.length > 0 && c.verdict.caveats.length > 0
              ? { note: verdictSummary(c.verdict) }
              : {}),
          };
        }),
      })),
      testId: opts.testId,
      ...(opts.yFormat ? { yFormat: opts.yFormat } : {}),
    }),
    marksNote(columnMarks(series), 'Hatched bar (!)'),
  );
}

function charts(table: ComparisonTable, cells: readonly MatrixCell[]): string {
  // Levels evenly spaced, as the matrix lists them (10, 100, 1000 would crowd a linear axis).
  const levels = [...table.levels].sort((a, b) => a - b);
  const xTicks = levels.map((l, i) => ({ value: i, label: levelLabel(table.levelKind, l) }));
  const scaling = (id: 'rps' | 'p99', title: string, unit: string, decimals: number): string => {
    const series = columnSeries(table, cells, id);
    return withNote(
      lineChart({
        title,
        xLabel: table.levelKind === 'connections' ? 'connections' : 'rate (req/s)',
        yLabel: unit,
        series: series.map((s): Series => ({
          label: s.affected.some(Boolean) ? `${s.label} (!)` : s.label,
          points: s.values.map((v, i) => [i, v] as const),
          dashed: s.affected.some(Boolean),
        })),
        xTicks,
        testId: `chart-compare-${id}`,
        yFormat: (v) => `${formatGrouped(v, decimals)} ${unit}`,
      }),
      marksNote(columnMarks(series), 'Dashed line (!)'),
    );
  };
  const cpu = columnSeries(table, cells, 'serverCpuPer10k');
  return [
    columnBars(table, cells, columnSeries(table, cells, 'rps'), {
      title: 'Requests per second by level',
      yLabel: 'req/s',
      testId: 'chart-compare-bars',
    }),
    columnHasData(cpu)
      ? columnBars(table, cells, cpu, {
          title: 'Server CPU-seconds per 10,000 requests by level (lower: less CPU for the same work)',
          yLabel: 'CPU-s / 10k req',
          testId: 'chart-compare-cpu',
          yFormat: (v) => `${formatCpuPer10k(v)} CPU-s`,
        })
      : '',
    scaling('rps', 'Scaling: requests per second', 'req/s', 2),
    scaling('p99', 'Scaling: p99 latency', 'ms', 3),
  ]
    .filter((chart) => chart !== '')
    .join('\n');
}

function percentileTables(table: ComparisonTable): string {
  if (table.targets.length < 2) return '';
  const out: string[] = [];
  for (const level of table.levels) {
    for (const protocol of table.protocols) {
      const measured = table.targets.some(
        (_, targetIndex) => (cellAt(table, { targetIndex, protocol, level })?.runs ?? 0) > 0,
      );
      if (!measured) continue;
      const pt = comparisonPercentileTable(table, { protocol, level });
      out.push(
        `<h4>Latency percentiles (ms), ${esc(protocol)} at ${esc(levelLabel(table.levelKind, level))}</h4>` +
          htmlTable({
            head: ['percentile', ...pt.columns],
            rows: pt.rows.map((r) => [
              r.percentile === 100 ? '100% (longest)' : r.label,
              ...r.values.map((v) => (v === null ? '–' : formatGrouped(v, 3))),
            ]),
            numeric: (i) => i > 0,
            rowHeaders: 1,
          }),
      );
    }
  }
  return out.join('\n');
}

function repetitions(table: ComparisonTable, outcomes: readonly CellOutcome[]): string {
  const rows = repetitionRows(table, outcomes);
  if (rows.length === 0) return '';
  return (
    `<h3>Each run</h3>` +
    htmlTable({
      head: ['Target', 'Protocol', 'Level', 'Run', ...REPETITION_COLUMNS.map((c) => c.label)],
      rows: rows.map((r) => [
        r.target,
        r.protocol,
        r.levelText,
        `#${r.repetition}`,
        ...REPETITION_COLUMNS.map((c) => c.format(c.value(r))),
      ]),
      numeric: (i) => i >= 5 && i < 4 + REPETITION_COLUMNS.length - 1,
      rowHeaders: 1,
      testId: 'repetitions',
    })
  );
}

function planFacts(plan: ComparisonPlan): string {
  const targets = plan.targets.map((t): [string, string] => [
    comparisonTargetLabel(t),
    plan.protocols.map((p) => `${p}: ${t.method} ${urlFor(t, p) ?? '–'}`).join(' · '),
  ]);
  return (
    `<h3>Plan</h3>` +
    factList([
      ...targets,
      ['Protocols', plan.protocols.join(', ')],
      ['Load', describeLoad(plan.load)],
      ['Levels', plan.levels.map((l) => String(l)).join(', ')],
      ['Repetitions', String(plan.repetitions)],
      ['Pause between runs', `${plan.pauseSeconds} s`],
      ['Report layout', planReport(plan).format],
      ...optionFacts(plan.options),
    ])
  );
}

function preflight(failures: readonly PreflightFailure[]): string {
  if (failures.length === 0) return '';
  return (
    `<div class="verdict bad" data-testid="preflight-failures"><p><strong>The comparison did not start:</strong> ${failures.length} URL(s) failed the check before any load.</p><ul>` +
    failures
      .map(
        (f) =>
          `<li class="bad"><strong>${esc(f.url)}</strong> (${esc(f.targets.join(', '))}): ${esc(f.message)}${f.fixes.length > 0 ? `<br>Fix: ${f.fixes.map((x) => esc(PREFLIGHT_FIX_LABELS[x])).join(' · or · ')}` : ''}</li>`,
      )
      .join('') +
    `</ul></div>`
  );
}

export function comparisonSection(input: {
  plan: ComparisonPlan;
  outcomes: readonly CellOutcome[];
  status: RunStatus | null;
  preflightFailures?: readonly PreflightFailure[];
}): string {
  const { plan, outcomes } = input;
  const table = aggregateComparison(plan, outcomes);
  const cells = matrixCells(table, outcomes);
  const layout = planReport(plan).format;
  const runs = outcomes
    .map(
      (o, i) =>
        `<details class="cell-run"><summary>${esc(cellLabel(plan, o.coordinates))} — ${esc(verdictWord(runVerdict(o.result)))}</summary>` +
        runSection(o.result, { id: `run-${i + 1}`, heading: cellLabel(plan, o.coordinates), layout }) +
        `</details>`,
    )
    .join('\n');
  return (
    `<section class="comparison" data-testid="comparison">` +
    `<p class="muted">${esc(`${table.targets.length} target(s) x ${table.protocols.length} protocol(s) x ${table.levels.length} level(s) x ${table.repetitions} repetition(s)${input.status ? ` · ${jobStatusText(input.status, input.outcomes.map((o) => o.result))}` : ''}; figures are means over the counted runs, counts are summed`)}</p>` +
    preflight(input.preflightFailures ?? []) +
    caveats(plan, cells) +
    `<h3>Side by side</h3>` +
    matrix(table, cells, plan) +
    `<div class="charts">${charts(table, cells)}</div>` +
    percentileTables(table) +
    repetitions(table, outcomes) +
    planFacts(plan) +
    (outcomes.length > 0 ? `<h3>Every run</h3>${runs}` : '') +
    `</section>`
  );
}
