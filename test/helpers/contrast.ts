/**
 * WCAG 2 contrast of CSS colours as a browser computes them ("rgb(29, 90, 224)",
 * "rgba(37, 99, 235, 0.35)"), a translucent one laid over what is under it first.
 */

export interface Rgba {
  r: number;
  g: number;
  b: number;
  a: number;
}

export function parseCssColor(text: string): Rgba {
  const m = /^rgba?\(\s*([\d.]+)[ ,]+([\d.]+)[ ,]+([\d.]+)(?:\s*[,/]\s*([\d.]+%?))?\s*\)$/.exec(text.trim());
  if (!m) throw new Error(`not an rgb() colour: ${text}`);
  const alpha = m[4] === undefined ? 1 : m[4].endsWith('%') ? Number(m[4].slice(0, -1)) / 100 : Number(m[4]);
  return { r: Number(m[1]), g: Number(m[2]), b: Number(m[3]), a: alpha };
}

/** `top` laid over `under` (which is made opaque first, over white). */
export function over(top: Rgba, under: Rgba): Rgba {
  const base = under.a >= 1 ? under : over(under, { r: 255, g: 255, b: 255, a: 1 });
  const mix = (t: number, u: number): number => t * top.a + u * (1 - top.a);
  return { r: mix(top.r, base.r), g: mix(top.g, base.g), b: mix(top.b, base.b), a: 1 };
}

/** The colour of a stack of backgrounds, the first one on top. */
export function flatten(stack: readonly string[]): Rgba {
  let out: Rgba = { r: 255, g: 255, b: 255, a: 1 };
  for (const c of [...stack].reverse()) out = over(parseCssColor(c), out);
  return out;
}

function luminance(c: Rgba): number {
  const lin = (v: number): number => {
    const s = v / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(c.r) + 0.7152 * lin(c.g) + 0.0722 * lin(c.b);
}

/** The contrast ratio of a colour (laid over the background when translucent) against the background. */
export function contrast(color: Rgba, background: Rgba): number {
  const fg = color.a >= 1 ? color : over(color, background);
  const [hi, lo] = [luminance(fg), luminance(background)].sort((a, b) => b - a) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}
