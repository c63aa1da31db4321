import type { Chart } from 'chart.js';

/**
 * A chart as a PNG worth sending: drawn again at least twice its size on screen, under a
 * title line that says what it shows, on the background it is shown on (chart.js leaves the
 * background transparent, which viewers show as black or checkerboard).
 */

/** The first opaque background colour from el upwards (the chart card's surface), else white. */
export function backgroundBehind(el: Element): string {
  for (let node: Element | null = el; node; node = node.parentElement) {
    const color = getComputedStyle(node).backgroundColor;
    if (isOpaque(color)) return color;
  }
  return '#ffffff';
}

/** True for a CSS colour with no transparency ("rgb(…)", "rgba(…, 1)"); transparent and partial alpha are not. */
export function isOpaque(color: string): boolean {
  const c = color.trim().toLowerCase();
  if (c === '' || c === 'transparent') return false;
  const m = /^rgba\((.*)\)$/.exec(c);
  if (!m) return true;
  const alpha = Number(
    m[1]!
      .split(/[ ,/]+/)
      .filter(Boolean)
      .at(-1),
  );
  return alpha >= 1;
}

/** The least scale of an exported chart against its size on screen (CSS pixels). */
export const EXPORT_SCALE = 2;

/** The title's font size, line height and margins in CSS pixels (scaled with the chart). */
const TITLE_FONT = 13;
const TITLE_LINE = 18;
const TITLE_PAD = 12;
/** A narrow chart's title wraps at its " · " separators onto this many lines at most. */
const TITLE_LINES = 3;

/**
 * Draws the chart at `scale` device pixels per CSS pixel for a moment (chart.js draws
 * synchronously with animation off), copies it, and puts the chart back as it was.
 */
function drawnAt(chart: Chart, scale: number, draw: (canvas: HTMLCanvasElement) => void): void {
  const options = chart.options;
  const previous = options.devicePixelRatio;
  options.devicePixelRatio = scale;
  chart.resize();
  try {
    draw(chart.canvas);
  } finally {
    options.devicePixelRatio = previous;
    chart.resize();
  }
}

/**
 * The title in lines that fit `width`: parts joined by " · " while they fit, a part too long
 * for a line of its own cut with an ellipsis, at most TITLE_LINES lines.
 */
export function titleLines(
  parts: readonly string[],
  width: number,
  measure: (text: string) => number,
): string[] {
  const cut = (text: string): string => {
    if (measure(text) <= width) return text;
    let t = text;
    while (t.length > 1 && measure(`${t}…`) > width) t = t.slice(0, -1);
    return `${t}…`;
  };
  const lines: string[] = [];
  for (const part of parts) {
    const last = lines.at(-1);
    if (last !== undefined && measure(`${last} · ${part}`) <= width)
      lines[lines.length - 1] = `${last} · ${part}`;
    else lines.push(cut(part));
  }
  if (lines.length > TITLE_LINES) {
    const kept = lines.slice(0, TITLE_LINES);
    kept[TITLE_LINES - 1] = cut(`${kept[TITLE_LINES - 1]!} · ${lines.slice(TITLE_LINES).join(' · ')}`);
    return kept;
  }
  return lines;
}

/** A chart.js chart under its title (the title's parts, joined by " · " or wrapped there), as a PNG. */
export function chartToPng(
  chart: Chart,
  title: readonly string[],
  background = backgroundBehind(chart.canvas),
): Promise<Blob> {
  const scale = Math.max(EXPORT_SCALE, window.devicePixelRatio || 1);
  const out = document.createElement('canvas');
  const ctx = out.getContext('2d');
  if (!ctx) return Promise.reject(new Error('this browser cannot draw on a canvas'));
  const pad = TITLE_PAD * scale;
  const line = TITLE_LINE * scale;
  drawnAt(chart, scale, (source) => {
    ctx.font = `600 ${TITLE_FONT * scale}px system-ui, sans-serif`;
    const lines = titleLines(title, source.width - 2 * pad, (t) => ctx.measureText(t).width);
    const band = Math.round(lines.length * line + pad);
    out.width = source.width;
    out.height = source.height + band;
    // Resizing the canvas reset its context: the font again, then the background and the lines.
    ctx.fillStyle = background;
    ctx.fillRect(0, 0, out.width, out.height);
    ctx.font = `600 ${TITLE_FONT * scale}px system-ui, sans-serif`;
    ctx.fillStyle = getComputedStyle(source).color;
    ctx.textBaseline = 'middle';
    lines.forEach((text, i) => ctx.fillText(text, pad, pad / 2 + line * (i + 0.5)));
    ctx.drawImage(source, 0, band);
  });
  return new Promise((resolve, reject) => {
    out.toBlob(
      (blob) => (blob ? resolve(blob) : reject(new Error('could not encode the chart as PNG'))),
      'image/png',
    );
  });
}
