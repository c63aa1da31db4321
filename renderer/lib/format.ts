/**
 * Number and time formatting for the UI. Grouped numbers ("12,345.68") and byte sizes are
 * the text reports' own (shared/format/units.ts), so the screen and an exported report
 * agree to the digit; the rest (latency at a precision that suits its size, clocks) suits
 * a screen.
 */
import { formatCount, formatGrouped } from '../../shared/format/units.ts';

export { formatBytes, formatCount, formatGrouped } from '../../shared/format/units.ts';

/** Requests per second as the report shows it: two decimals like ab ("12,345.68"). */
export function formatRateValue(reqPerSecond: number): string {
  return formatGrouped(reqPerSecond, 2);
}

/** A live rate: no decimals once it is large enough that they are noise. */
export function formatLiveRate(reqPerSecond: number): string {
  return reqPerSecond >= 100 ? formatCount(reqPerSecond) : formatGrouped(reqPerSecond, 1);
}

/** Milliseconds with a precision that suits the size: "0.123 ms", "12.3 ms", "1.23 s". */
export function formatMs(ms: number): string {
  if (ms >= 10_000) return `${formatGrouped(ms / 1000, 1)} s`;
  if (ms >= 1000) return `${formatGrouped(ms / 1000, 2)} s`;
  if (ms >= 100) return `${formatGrouped(ms, 0)} ms`;
  if (ms >= 10) return `${formatGrouped(ms, 1)} ms`;
  if (ms >= 1) return `${formatGrouped(ms, 2)} ms`;
  return `${formatGrouped(ms, 3)} ms`;
}

/** Milliseconds as a bare number for tables (ab prints whole ms; we keep µs resolution). */
export function formatMsValue(ms: number): string {
  return formatGrouped(ms, ms >= 100 ? 1 : 3);
}

/** Seconds as a clock: 3.4 -> "0:03", 3725 -> "1:02:05". */
export function formatClock(seconds: number): string {
  const total = Math.max(0, Math.floor(seconds));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const ss = String(s).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/** Seconds in words for reports: "3.00 s", "2 min 5 s". */
export function formatSeconds(seconds: number): string {
  if (seconds < 120) return `${formatGrouped(seconds, 2)} s`;
  const m = Math.floor(seconds / 60);
  return `${m} min ${Math.round(seconds - m * 60)} s`;
}

/** A ratio in [0, 1] as a percentage: 0.98765 -> "98.77%". */
export function formatRatio(ratio: number, digits = 2): string {
  return `${formatGrouped(ratio * 100, digits)}%`;
}
