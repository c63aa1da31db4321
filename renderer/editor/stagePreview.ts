import { peakTarget, stageSpans, stagesSeconds, type Stage } from '../../shared/model/stages.ts';

/** Room kept around the curve so the line's stroke is not clipped. */
const PAD = 3;

export interface StagePreview {
  /** SVG path of the target over time, and of the area under it. */
  line: string;
  area: string;
  seconds: number;
  peak: number;
}

const round = (v: number): number => Math.round(v * 10) / 10;

/**
 * The stage plan's curve scaled into width x height: the target is linear within a stage,
 * so the curve is the polyline through 0 at the start and each stage's end. Null when the
 * plan lasts no time or never rises above 0 (nothing to draw).
 */
export function stagePreview(
  stages: readonly Stage[] | null,
  size: { width: number; height: number },
): StagePreview | null {
  if (stages === null || stages.length === 0) return null;
  const seconds = stagesSeconds(stages);
  const peak = peakTarget(stages);
  if (!(seconds > 0) || !(peak > 0)) return null;
  const x = (t: number): number => round(PAD + ((size.width - 2 * PAD) * t) / seconds);
  const y = (v: number): number => round(size.height - PAD - ((size.height - 2 * PAD) * v) / peak);
  const points = [`${x(0)},${y(0)}`];
  // Each stage ends where the next starts, so a 0 s stage comes out as a vertical step.
  for (const s of stageSpans(stages)) points.push(`${x(s.endSeconds)},${y(s.to)}`);
  const line = `M${points.join(' L')}`;
  const area = `${line} L${x(seconds)},${y(0)} Z`;
  return { line, area, seconds, peak };
}
