/**
 * A comparison in the HTML report: the matrix with the plan's columns (figures a caveat
 * affects flagged), every cell's caveats, the bar and scaling charts (flagged cells marked;
 * the server CPU-seconds per 10,000 requests when the servers were watched),
 * seed 001's percentile tables, one row per run (seed 002), the plan, and each run in full.
 */
import { columnHasData, columnSeries } from '../../comparison/column-series.ts';
import { columnAffected, columnText, matrixColumns } from '../../comparison/columns.ts';
import { matrixCells, type MatrixCell } from '../../comparison/matrix.ts';
import { REPETITION_COLUMNS, repetitionRows } from '../../comparison/repetitions.ts';
import type { CellOutcome } from '../../comparison/cells.ts';
import {
  aggregateComparison,
  cellAt,
  comparisonPercentileTable,
  type ComparisonTable,
} from '../../comparison/table.ts';
import { comparisonTargetLabel, levelLabel, urlFor, type ComparisonPlan } from '../../comparison/plan.ts';
import { PREFLIGHT_FIX_LABELS, type PreflightFailure } from '../../model/preflight.ts';
import { planReport } from '../../comparison/report-settings.ts';
import { runVerdict, VERDICT_STATE_LABELS, VERDICT_STATES } from '../../verdict/verdict.ts';
import { runLabel } from '../comparison-text.ts';
import { formatCpuPer10k } from '../resources-table.ts';
import { formatGrouped } from '../units.ts';
import { esc } from './escape.ts';
import { describeLoad, optionFacts, runSection } from './run-section.ts';
import { barChart, lineChart, type Series } from './svg.ts';
import { factList, htmlTable, type CellInput } from './table.ts';

const cellName = (table: ComparisonTable, c: MatrixCell): string =>
  `${c.target} · ${c.protocol} · ${levelLabel(table.levelKind, c.level)}`;

function matrix(table: ComparisonTable, cells: readonly MatrixCell[], plan: ComparisonPlan): string {
  const columns = matrixColumns(planReport(plan).columns);
  const rows = cells.map((c): CellInput[] => {
    const bad = c.results.length > 0 && c.verdict.caveats.some((v) => v.severity === 'bad');
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

function caveats(table: ComparisonTable, cells: readonly MatrixCell[]): string {
  const items = cells.flatMap((c) =>
    c.results.length === 0
      ? []
      : c.verdict.caveats.map(
          (v) =>
            `<li class="${v.severity}"><span class="badge ${v.severity}">${esc(v.label)}</span> <strong>${esc(cellName(table, c))}</strong>: ${esc(v.message)}</li>`,
        ),
  );
  const counts = VERDICT_STATES.map(
    (s) => [s, cells.filter((c) => c.results.length > 0 && c.verdict.state === s).length] as const,
  )
    .filter(([, n]) => n > 0)
    .map(([s, n]) => `${n} ${VERDICT_STATE_LABELS[s]}`)
    .join(' · ');
  return (
    `<div class="verdict ${items.length === 0 ? 'good' : 'warn'}" data-testid="comparison-verdicts"><p><strong>Cells:</strong> ${esc(counts || 'none measured yet')}</p>` +
    (items.length === 0 ? '' : `<ul>${items.join('')}</ul>`) +
    `</div>`
  );
}

function charts(table: ComparisonTable, cells: readonly MatrixCell[]): string {
  const levels = [...table.levels].sort((a, b) => a - b);
  const seriesKeys = table.protocols.flatMap((protocol) =>
    table.targets.map((target, targetIndex) => ({
      protocol,
      targetIndex,
      label: table.protocols.length > 1 ? `${target} · ${protocol}` : target,
    })),
  );
  const cellOf = (targetIndex: number, protocol: string, level: number) =>
    cells.find((c) => c.targetIndex === targetIndex && c.protocol === protocol && c.level === level);
  const flagged = (c: MatrixCell | undefined, figure: 'throughput' | 'latency') =>
    c !== undefined &&
    c.verdict.caveats.some(
      (v) => v.severity === 'bad' && (v.figures === undefined || v.figures.includes(figure)),
    );
  const bars = barChart({
    title: 'Requests per second by level (! the figure is not the server’s)',
    yLabel: 'req/s',
    xLabel: table.levelKind === 'connections' ? 'connections' : 'rate (req/s)',
    seriesLabels: seriesKeys.map((s) => s.label),
    groups: levels.map((level) => ({
      label: levelLabel(table.levelKind, level),
      bars: seriesKeys.map((s) => {
        const c = cellOf(s.targetIndex, s.protocol, level);
        return {
          value: c?.figures.rps?.mean ?? null,
          flagged: c !== undefined && c.results.length > 0 && flagged(c, 'throughput'),
          ...(c && c.verdict.caveats.length > 0
            ? { note: c.verdict.caveats.map((v) => v.label).join('; ') }
            : {}),
        };
      }),
    })),
    testId: 'chart-compare-bars',
  });
  // Levels evenly spaced, as the matrix lists them (10, 100, 1000 would crowd a linear axis).
  const xTicks = levels.map((l, i) => ({ value: i, label: levelLabel(table.levelKind, l) }));
  const scaling = (figure: 'rps' | 'p99', title: string, unit: string, decimals: number): string => {
    const kind = figure === 'rps' ? 'throughput' : 'latency';
    const series = seriesKeys.map((s): Series => {
      const at = levels.map((level) => cellOf(s.targetIndex, s.protocol, level));
      const dashed = at.some((c) => flagged(c, kind));
      return {
        label: dashed ? `${s.label} (!)` : s.label,
        points: at.map(
          (c, i) => [i, (figure === 'rps' ? c?.figures.rps : c?.figures.p99)?.mean ?? null] as const,
        ),
        dashed,
      };
    });
    return lineChart({
      title,
      xLabel: table.levelKind === 'connections' ? 'connections' : 'rate (req/s)',
      yLabel: unit,
      series,
      xTicks,
      testId: `chart-compare-${figure}`,
      yFormat: (v) => `${formatGrouped(v, decimals)} ${unit}`,
    });
  };
  const cpu = columnSeries(table, cells, 'serverCpuPer10k');
  const cpuBars = columnHasData(cpu)
    ? barChart({
        title: 'Server CPU-seconds per 10,000 requests by level (lower: less CPU for the same work)',
        yLabel: 'CPU-s / 10k req',
        xLabel: table.levelKind === 'connections' ? 'connections' : 'rate (req/s)',
        seriesLabels: cpu.map((s) => s.label),
        groups: levels.map((level, li) => ({
          label: levelLabel(table.levelKind, level),
          bars: cpu.map((s) => ({ value: s.values[li] ?? null, flagged: s.affected[li] === true })),
        })),
        testId: 'chart-compare-cpu',
        yFormat: (v) => `${formatCpuPer10k(v)} CPU-s`,
      })
    : '';
  return [
    bars,
    cpuBars,
    scaling(
      'rps',
      'Scaling: requests per second (dashed: a level whose figure is not the server’s)',
      'req/s',
      2,
    ),
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
  status: 'completed' | 'cancelled' | 'failed' | null;
  preflightFailures?: readonly PreflightFailure[];
}): string {
  const { plan, outcomes } = input;
  const table = aggregateComparison(plan, outcomes);
  const cells = matrixCells(table, outcomes);
  const layout = planReport(plan).format;
  const runs = outcomes
    .map(
      (o, i) =>
        `<details class="cell-run"><summary>${esc(runLabel(plan, o.coordinates))} — ${esc(VERDICT_STATE_LABELS[runVerdict(o.result).state])}</summary>` +
        runSection(o.result, { id: `run-${i + 1}`, heading: runLabel(plan, o.coordinates), layout }) +
        `</details>`,
    )
    .join('\n');
  return (
    `<section class="comparison" data-testid="comparison">` +
    `<p class="muted">${esc(`${table.targets.length} target(s) x ${table.protocols.length} protocol(s) x ${table.levels.length} level(s) x ${table.repetitions} repetition(s)${input.status ? ` · ${input.status}` : ''}; figures are means over the counted runs, counts are summed`)}</p>` +
    preflight(input.preflightFailures ?? []) +
    caveats(table, cells) +
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
