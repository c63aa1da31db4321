/*
 * Figures measured over windows of time (a CPU share over a tick, bytes per second over a
 * reading), summarised one way for the generator's CPU (electron/engine/result.ts) and the
 * server's readings (shared/model/server-resources.ts). A run ends with a short window (10-120 ms
 * of teardown) where one 10 ms CPU tick reads 46%: alone it would be the run's max, and an
 * unweighted mean counts it as much as a whole second. So a window shorter than
 * SHORT_WINDOW_SHARE of the interval is folded into the one before it (the first into the one
 * after), and the mean is weighted by the windows' lengths: it is then the figure over the
 * whole time (CPU-seconds over seconds), never above the max. Pure.
 */

/** Anything measured over a window: how long the window was. */
export interface TimedWindow {
  intervalSeconds: number;
}

/** A window shorter than this share of the interval is folded into its neighbour. */
export const SHORT_WINDOW_SHARE = 0.5;

/**
 * The windows with every short one folded into the one before it (the first into the one
 * after); `fold` joins two neighbours into one window covering both. Windows in time order.
 */
export function foldShortWindows<W extends TimedWindow>(
  windows: readonly W[],
  intervalSeconds: number,
  fold: (earlier: W, later: W) => W,
): W[] {
  const short = (w: W): boolean => w.intervalSeconds < intervalSeconds * SHORT_WINDOW_SHARE;
  const out: W[] = [];
  let pending: W | null = null;
  for (const w of windows) {
    const joined: W = pending === null ? w : fold(pending, w);
    pending = null;
    const last = out.at(-1);
    if (!short(joined)) out.push(joined);
    else if (last !== undefined) out[out.length - 1] = fold(last, joined);
    // The first windows are short: they join the next one.
    else pending = joined;
  }
  if (pending !== null) out.push(pending);
  return out;
}

/** Two windows' rate (a value per second, a percentage of the time) as one: weighted by length. */
export function weightedRate(a: number, aSeconds: number, b: number, bSeconds: number): number {
  const seconds = aSeconds + bSeconds;
  return seconds > 0 ? (a * aSeconds + b * bSeconds) / seconds : (a + b) / 2;
}

/**
 * Mean (weighted by length) and max of a rate over windows that are already folded, leaving
 * out windows without it; null when none has it.
 */
export function windowStats<W extends TimedWindow>(
  windows: readonly W[],
  rate: (w: W) => number | undefined,
): { mean: number; max: number } | null {
  let weighted = 0;
  let seconds = 0;
  let max: number | null = null;
  let plain = 0;
  let count = 0;
  for (const w of windows) {
    const v = rate(w);
    if (v === undefined) continue;
    weighted += v * w.intervalSeconds;
    seconds += w.intervalSeconds;
    plain += v;
    count++;
    max = max === null ? v : Math.max(max, v);
  }
  if (max === null) return null;
  // Windows of no length at all (readings at one instant) weigh the same.
  return { mean: seconds > 0 ? weighted / seconds : plain / count, max };
}
