/**
 * Charts as inline SVG, drawn from the report's own data: a line chart (throughput and
 * latency over time, latency by percentile, scaling against the level) and a grouped bar
 * chart (req/s per level and server). No script, no external resource; every label escaped.
 */
import { esc } from './escape.ts';
import { fixed, formatGrouped } from '../../figures/units.ts';

const W = 720;
const PLOT_H = 200;
const LEFT = 72;
const RIGHT = 36;
const TITLE_H = 26;
const LEGEND_ROW = 18;
const BOTTOM = 42;

/** Distinct colours readable on white, also in grey print. */
export const PALETTE = [
  '#2563eb',
  '#dc2626',
  '#16a34a',
  '#d97706',
  '#7c3aed',
  '#0891b2',
  '#db2777',
  '#4b5563',
];

const color = (i: number): string => PALETTE[i % PALETTE.length]!;

/** Round tick values (1, 2 or 5 times a power of ten) covering [0 or min, max]. */
export function niceTicks(min: number, max: number, count = 5): number[] {
  if (!(max > min)) return [min, min + 1];
  const raw = (max - min) / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? 10 * power;
  const first = Math.floor(min / step) * step;
  const ticks: number[] = [];
  for (let v = first; v <= max + step * 1e-9; v += step) ticks.push(Number(v.toPrecision(12)));
  if (ticks[ticks.length - 1]! < max) ticks.push(Number((ticks[ticks.length - 1]! + step).toPrecision(12)));
  return ticks;
}

/** A tick label: grouped, with as many decimals as the step needs. */
function tickLabel(v: number, step: number): string {
  const decimals = step >= 1 ? 0 : Math.min(6, Math.ceil(-Math.log10(step)));
  return formatGrouped(v, decimals);
}

export interface Series {
  label: string;
  /** [x, y]; a null y leaves a gap. */
  points: readonly (readonly [number, number | null])[];
  /** Drawn dashed: figures a caveat affects. */
  dashed?: boolean;
}

function legend(labels: readonly { label: string; dashed?: boolean }[], y: number): string {
  let x = LEFT;
  return labels
    .map((s, i) => {
      const item =
        `<g class="legend-item"><line x1="${x}" y1="${y - 4}" x2="${x + 18}" y2="${y - 4}" stroke="${color(i)}" stroke-width="3"${s.dashed ? ' stroke-dasharray="4 3"' : ''}/>` +
        `<text x="${x + 24}" y="${y}">${esc(s.label)}</text></g>`;
      x += 24 + Math.min(220, 7 * s.label.length + 20);
      return item;
    })
    .join('');
}

function frame(title: string, height: number, body: string, testId: string): string {
  return (
    `<figure class="chart" data-testid="${esc(testId)}"><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${height}" width="${W}" height="${height}" role="img" aria-label="${esc(title)}">` +
    `<title>${esc(title)}</title><text class="chart-title" x="${LEFT}" y="18">${esc(title)}</text>${body}</svg></figure>`
  );
}

/** An empty chart that says so, the size it would have had. */
function noData(title: string, top: number, testId: string): string {
  const body = `<text class="tick" x="${LEFT}" y="${top + PLOT_H / 2}">no data</text>`;
  return frame(title, top + PLOT_H + BOTTOM, body, testId);
}

interface Axes {
  top: number;
  x: (v: number) => number;
  y: (v: number) => number;
  svg: string;
}

function axes(opts: {
  top: number;
  xMin: number;
  xMax: number;
  yMax: number;
  xLabel: string;
  yLabel: string;
  xTicks?: readonly { value: number; label: string }[];
}): Axes {
  const { top } = opts;
  const yTicks = niceTicks(0, opts.yMax > 0 ? opts.yMax : 1);
  const yTop = yTicks[yTicks.length - 1]!;
  // A single x value (one level, one sample) sits in the middle.
  const x = (v: number) =>
    LEFT + (opts.xMax > opts.xMin ? (v - opts.xMin) / (opts.xMax - opts.xMin) : 0.5) * (W - LEFT - RIGHT);
  const y = (v: number) => top + PLOT_H - (v / yTop) * PLOT_H;
  const yStep = yTicks.length > 1 ? yTicks[1]! - yTicks[0]! : 1;
  const xTicks =
    opts.xTicks ??
    (() => {
      const t = niceTicks(opts.xMin, opts.xMax, 6).filter((v) => v >= opts.xMin && v <= opts.xMax);
      const step = t.length > 1 ? t[1]! - t[0]! : 1;
      return t.map((value) => ({ value, label: tickLabel(value, step) }));
    })();
  const grid = yTicks
    .map(
      (v) =>
        `<line class="grid" x1="${LEFT}" x2="${W - RIGHT}" y1="${y(v)}" y2="${y(v)}"/>` +
        `<text class="tick" x="${LEFT - 6}" y="${y(v) + 4}" text-anchor="end">${esc(tickLabel(v, yStep))}</text>`,
    )
    .join('');
  const xs = xTicks
    .map(
      (t) =>
        `<line class="axis" x1="${x(t.value)}" x2="${x(t.value)}" y1="${top + PLOT_H}" y2="${top + PLOT_H + 4}"/>` +
        `<text class="tick" x="${x(t.value)}" y="${top + PLOT_H + 16}" text-anchor="middle">${esc(t.label)}</text>`,
    )
    .join('');
  const labels =
    `<text class="axis-label" x="${(LEFT + W - RIGHT) / 2}" y="${top + PLOT_H + 34}" text-anchor="middle">${esc(opts.xLabel)}</text>` +
    `<text class="axis-label" transform="translate(14 ${top + PLOT_H / 2}) rotate(-90)" text-anchor="middle">${esc(opts.yLabel)}</text>`;
  const border = `<line class="axis" x1="${LEFT}" x2="${W - RIGHT}" y1="${top + PLOT_H}" y2="${top + PLOT_H}"/>`;
  return { top, x, y, svg: grid + xs + border + labels };
}

/** A line chart; each series a polyline with a dot per point. Empty data draws "no data". */
export function lineChart(opts: {
  title: string;
  xLabel: string;
  yLabel: string;
  series: readonly Series[];
  xTicks?: readonly { value: number; label: string }[];
  testId: string;
  /** Value text for a point's tooltip. */
  yFormat?: (v: number) => string;
}): string {
  const drawn = opts.series.filter((s) => s.points.some(([, v]) => v !== null));
  const top = TITLE_H + (drawn.length > 1 || opts.series.some((s) => s.dashed) ? LEGEND_ROW : 0);
  const height = top + PLOT_H + BOTTOM;
  if (drawn.length === 0) return noData(opts.title, top, opts.testId);
  const xsAll = drawn.flatMap((s) => s.points.map(([x]) => x));
  const ysAll = drawn.flatMap((s) => s.points.flatMap(([, v]) => (v === null ? [] : [v])));
  const a = axes({
    top,
    xMin: Math.min(...xsAll),
    xMax: Math.max(...xsAll),
    yMax: Math.max(...ysAll),
    xLabel: opts.xLabel,
    yLabel: opts.yLabel,
    ...(opts.xTicks ? { xTicks: opts.xTicks } : {}),
  });
  const yFormat = opts.yFormat ?? ((v: number) => formatGrouped(v, 3));
  const lines = opts.series
    .map((s, i) => {
      const segments: string[][] = [[]];
      for (const [x, v] of s.points) {
        if (v === null) segments.push([]);
        else segments[segments.length - 1]!.push(`${fixed(a.x(x), 1)},${fixed(a.y(v), 1)}`);
      }
      const path = segments
        .filter((seg) => seg.length > 0)
        .map(
          (seg) =>
            `<polyline fill="none" stroke="${color(i)}" stroke-width="2"${s.dashed ? ' stroke-dasharray="6 4"' : ''} points="${seg.join(' ')}"/>`,
        )
        .join('');
      const dots = s.points
        .flatMap(([x, v]) =>
          v === null
            ? []
            : [
                `<circle cx="${fixed(a.x(x), 1)}" cy="${fixed(a.y(v), 1)}" r="2.5" fill="${color(i)}"><title>${esc(`${s.label}: ${yFormat(v)}`)}</title></circle>`,
              ],
        )
        .join('');
      return path + dots;
    })
    .join('');
  const key = top > TITLE_H ? legend(opts.series, TITLE_H + 12) : '';
  return frame(opts.title, height, a.svg + lines + key, opts.testId);
}

export interface BarGroup {
  label: string;
  bars: readonly { value: number | null; flagged: boolean; note?: string }[];
}

/**
 * Grouped bars: one group per level, one bar per series (server). A flagged bar (its figure
 * is not the server's) is hatched and carries a "!" above it.
 */
export function barChart(opts: {
  title: string;
  yLabel: string;
  xLabel: string;
  seriesLabels: readonly string[];
  groups: readonly BarGroup[];
  testId: string;
  yFormat?: (v: number) => string;
}): string {
  const top = TITLE_H + LEGEND_ROW;
  const height = top + PLOT_H + BOTTOM;
  const values = opts.groups.flatMap((g) => g.bars.flatMap((b) => (b.value === null ? [] : [b.value])));
  if (values.length === 0) return noData(opts.title, top, opts.testId);
  const n = opts.groups.length;
  const a = axes({
    top,
    xMin: 0,
    xMax: n,
    yMax: Math.max(...values),
    xLabel: opts.xLabel,
    yLabel: opts.yLabel,
    xTicks: opts.groups.map((g, i) => ({ value: i + 0.5, label: g.label })),
  });
  const groupW = (W - LEFT - RIGHT) / n;
  const perBar = Math.min(48, (groupW * 0.8) / Math.max(1, opts.seriesLabels.length));
  const yFormat = opts.yFormat ?? ((v: number) => formatGrouped(v, 2));
  const bars = opts.groups
    .map((g, gi) => {
      const start = LEFT + gi * groupW + (groupW - perBar * g.bars.length) / 2;
      return g.bars
        .map((b, bi) => {
          if (b.value === null) return '';
          const x = start + bi * perBar;
          const y = a.y(b.value);
          const h = a.top + PLOT_H - y;
          const tip = `${opts.seriesLabels[bi] ?? ''} · ${g.label}: ${yFormat(b.value)}${b.note ? ` (${b.note})` : ''}`;
          const fill = b.flagged ? `url(#hatch-${bi % PALETTE.length})` : color(bi);
          const mark = b.flagged
            ? `<text class="flag-mark" x="${fixed(x + perBar / 2 - 1, 1)}" y="${fixed(y - 4, 1)}" text-anchor="middle">!</text>`
            : '';
          return (
            `<rect x="${fixed(x, 1)}" y="${fixed(y, 1)}" width="${fixed(perBar - 2, 1)}" height="${fixed(h, 1)}" fill="${fill}" stroke="${color(bi)}"><title>${esc(tip)}</title></rect>` +
            mark
          );
        })
        .join('');
    })
    .join('');
  const hatches = opts.seriesLabels
    .map(
      (_, i) =>
        `<pattern id="hatch-${i % PALETTE.length}" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="6" height="6" fill="#fff"/><line x1="0" y1="0" x2="0" y2="6" stroke="${color(i)}" stroke-width="3"/></pattern>`,
    )
    .join('');
  const key = legend(
    opts.seriesLabels.map((label) => ({ label })),
    TITLE_H + 12,
  );
  return frame(opts.title, height, `<defs>${hatches}</defs>${a.svg}${bars}${key}`, opts.testId);
}
