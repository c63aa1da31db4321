export type ColorScheme = 'light' | 'dark';

/** Chart colours per theme; the CSS variables in styles/app.css follow the same hues. */
export interface Palette {
  text: string;
  muted: string;
  grid: string;
  tooltipBg: string;
  /** The card a chart is drawn on (hollow markers are filled with it). */
  surface: string;
  throughput: string;
  p50: string;
  p90: string;
  p99: string;
  status: { '2xx': string; '3xx': string; '4xx': string; '5xx': string; errors: string };
  /** One colour per target when several are drawn together. */
  series: readonly string[];
}

const LIGHT: Palette = {
  text: '#1f2937',
  muted: '#6b7280',
  grid: 'rgba(15, 23, 42, 0.08)',
  tooltipBg: 'rgba(17, 24, 39, 0.92)',
  surface: '#ffffff',
  throughput: '#2563eb',
  p50: '#059669',
  p90: '#d97706',
  p99: '#dc2626',
  status: { '2xx': '#16a34a', '3xx': '#0891b2', '4xx': '#d97706', '5xx': '#dc2626', errors: '#9333ea' },
  series: ['#2563eb', '#db2777', '#059669', '#d97706', '#7c3aed', '#0891b2', '#65a30d', '#e11d48'],
};

const DARK: Palette = {
  text: '#e5e7eb',
  muted: '#9ca3af',
  grid: 'rgba(226, 232, 240, 0.10)',
  tooltipBg: 'rgba(30, 41, 59, 0.95)',
  surface: '#121829',
  throughput: '#60a5fa',
  p50: '#34d399',
  p90: '#fbbf24',
  p99: '#f87171',
  status: { '2xx': '#4ade80', '3xx': '#22d3ee', '4xx': '#fbbf24', '5xx': '#f87171', errors: '#c084fc' },
  series: ['#60a5fa', '#f472b6', '#34d399', '#fbbf24', '#a78bfa', '#22d3ee', '#a3e635', '#fb7185'],
};

export function paletteFor(scheme: ColorScheme): Palette {
  return scheme === 'dark' ? DARK : LIGHT;
}

/** The colour of the i-th target (or series) of a chart, the palette's colours in turn. */
export function seriesColor(p: Palette, i: number): string {
  return p.series[i % p.series.length]!;
}

/** The same colour with an alpha, for fills under lines. */
export function withAlpha(hex: string, alpha: number): string {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!m) return hex;
  const [r, g, b] = [m[1]!, m[2]!, m[3]!].map((h) => parseInt(h, 16));
  return `rgba(${r}, ${g}, ${b}, ${alpha})`;
}
