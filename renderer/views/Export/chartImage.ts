/**
 * A chart as a PNG: the chart canvas (device pixels, so its full resolution) drawn onto a
 * canvas of the same size filled with the background the chart is shown on. Chart.js
 * leaves the background transparent, which viewers show as black or checkerboard.
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

export function chartToPng(canvas: HTMLCanvasElement, background = backgroundBehind(canvas)): Promise<Blob> {
  const out = document.createElement('canvas');
  out.width = canvas.width;
  out.height = canvas.height;
  const ctx = out.getContext('2d');
  if (!ctx) return Promise.reject(new Error('this browser cannot draw on a canvas'));
  ctx.fillStyle = background;
  ctx.fillRect(0, 0, out.width, out.height);
  ctx.drawImage(canvas, 0, 0);
  return new Promise((resolve, reject) => {
    out.toBlob(
      (blob) => (blob ? resolve(blob) : reject(new Error('could not encode the chart as PNG'))),
      'image/png',
    );
  });
}
