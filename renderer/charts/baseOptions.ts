import type { ChartOptions } from 'chart.js';
import type { Palette } from './palette.ts';

/**
 * Options every chart shares: no animation (data arrives at tick rate and is drawn with
 * update('none')), pre-parsed {x, y} points, themed text and grid.
 */
export function baseLineOptions(p: Palette, xTitle: string, yTitle: string): ChartOptions<'line'> {
  return {
    responsive: true,
    maintainAspectRatio: false,
    animation: false,
    parsing: false,
    normalized: true,
    color: p.text,
    interaction: { mode: 'nearest', axis: 'x', intersect: false },
    elements: {
      // No dots on a line, but a lone first sample needs one to be seen at all.
      point: { radius: (ctx) => (ctx.dataset.data.length < 2 ? 3 : 0), hoverRadius: 3 },
      line: { borderWidth: 2, tension: 0.3, cubicInterpolationMode: 'monotone' },
    },
    plugins: {
      legend: {
        position: 'top',
        align: 'end',
        labels: { color: p.muted, boxWidth: 10, boxHeight: 10, usePointStyle: true, pointStyle: 'circle' },
      },
      tooltip: { backgroundColor: p.tooltipBg, titleColor: '#f9fafb', bodyColor: '#f9fafb' },
    },
    scales: {
      x: {
        type: 'linear',
        min: 0,
        // The axis ends at the last point, not at the next round number (no empty quarter).
        bounds: 'data',
        title: { display: true, text: xTitle, color: p.muted },
        ticks: { color: p.muted, maxTicksLimit: 8 },
        grid: { color: p.grid },
        border: { color: p.grid },
      },
      y: valueAxis(p, yTitle),
    },
  };
}

/** A bar chart's axes: categories along x (titled when xTitle is given), a linear y from 0. */
export function barScales(p: Palette, yTitle: string, xTitle?: string): ChartOptions<'bar'>['scales'] {
  return {
    x: {
      type: 'category',
      ...(xTitle === undefined ? {} : { title: { display: true, text: xTitle, color: p.muted } }),
      ticks: { color: p.muted },
      grid: { display: false },
      border: { color: p.grid },
    },
    y: valueAxis(p, yTitle),
  };
}

/** The y axis of line and bar charts alike: linear from 0, titled, themed. */
function valueAxis(p: Palette, title: string) {
  return {
    type: 'linear' as const,
    beginAtZero: true,
    title: { display: true, text: title, color: p.muted },
    ticks: { color: p.muted, maxTicksLimit: 6 },
    grid: { color: p.grid },
    border: { color: p.grid },
  };
}
