/**
 * Unit formatting: the text reports, the CLI's progress lines, the HTML report and the app all
 * format a figure here, so the screen and an exported file agree to the digit. Pure: no Node or DOM.
 */

const NS_PER_US = 1_000;
const NS_PER_MS = 1_000_000;
const NS_PER_S = 1_000_000_000;

/** Digits of `frac` (an integer holding `prec` decimal places) without trailing zeros. */
function fraction(frac: number, prec: number): string {
  const digits = String(frac).padStart(prec, '0').replace(/0+$/, '');
  return digits ? `.${digits}` : '';
}

/**
 * A duration in nanoseconds as Go's time.Duration prints it (and so vegeta):
 * `0s`, `850ns`, `254.706µs`, `1.742608ms`, `4.990221181s`, `1m30.5s`, `2h0m0s`.
 */
export function formatGoDuration(nanoseconds: number): string {
  const ns = Math.round(Math.abs(nanoseconds));
  const sign = nanoseconds < 0 && ns > 0 ? '-' : '';
  if (ns === 0) return '0s';
  if (ns < NS_PER_US) return `${sign}${ns}ns`;
  if (ns < NS_PER_MS) return `${sign}${Math.floor(ns / NS_PER_US)}${fraction(ns % NS_PER_US, 3)}µs`;
  if (ns < NS_PER_S) return `${sign}${Math.floor(ns / NS_PER_MS)}${fraction(ns % NS_PER_MS, 6)}ms`;
  const frac = fraction(ns % NS_PER_S, 9);
  let seconds = Math.floor(ns / NS_PER_S);
  const s = `${seconds % 60}${frac}s`;
  seconds = Math.floor(seconds / 60);
  if (seconds === 0) return `${sign}${s}`;
  const m = `${seconds % 60}m`;
  const hours = Math.floor(seconds / 60);
  return hours === 0 ? `${sign}${m}${s}` : `${sign}${hours}h${m}${s}`;
}

/** Milliseconds (with µs resolution) in Go's duration notation: 0.254706 -> `254.706µs`. */
export function formatDurationMs(ms: number): string {
  return formatGoDuration(ms * NS_PER_MS);
}

/** Seconds in Go's duration notation: 4.990221181 -> `4.990221181s`. */
export function formatDurationSeconds(seconds: number): string {
  return formatGoDuration(seconds * NS_PER_S);
}

/** Fixed decimals, with -0 shown as 0 (toFixed keeps the sign of tiny negatives). */
export function fixed(value: number, decimals: number): string {
  const text = value.toFixed(decimals);
  return /^-0\.?0*$/.test(text) ? text.slice(1) : text;
}

const BYTE_UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'] as const;

/** A byte count in binary units: `512 B`, `2.44 KiB`, `1.50 MiB`. */
export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (Math.abs(value) >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${Math.round(value)} B` : `${fixed(value, 2)} ${BYTE_UNITS[unit]}`;
}

/** "94.1 Mb/s", "1.20 Gb/s", "880 kb/s" */
export function bitsText(b: number): string {
  if (b >= 1e9) return `${fixed(b / 1e9, 2)} Gb/s`;
  if (b >= 1e6) return `${fixed(b / 1e6, 1)} Mb/s`;
  return `${formatCount(Math.round(b / 1e3))} kb/s`;
}

/** Fixed decimals with grouped thousands: (12345.678, 2) -> `12,345.68`. */
export function formatGrouped(value: number, decimals: number): string {
  return groupThousands(fixed(value, decimals));
}

/** A rate with grouped thousands: `12,345.67 req/s`. */
export function formatRate(perSecond: number, unit = 'req/s'): string {
  return `${formatGrouped(perSecond, 2)} ${unit}`;
}

/** A whole count with grouped thousands: 1234567 -> `1,234,567`. */
export function formatCount(count: number): string {
  return groupThousands(String(Math.round(count)));
}

/** A ratio in [0, 1] as a percentage: 0.98765 -> `98.77%` (vegeta's Success, the Success card). */
export function formatPercent(ratio: number, digits = 2): string {
  return `${formatGrouped(ratio * 100, digits)}%`;
}

/** Requests per second as reports show them: two decimals like ab ("12,345.68"). */
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
  const ss = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/** Seconds in words for reports: "3.00 s", "2 min 5 s". */
export function formatSeconds(seconds: number): string {
  if (seconds < 120) return `${formatGrouped(seconds, 2)} s`;
  const m = Math.floor(seconds / 60);
  return `${m} min ${Math.round(seconds - m * 60)} s`;
}

function groupThousands(text: string): string {
  const [int = '', dec] = text.split('.');
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return dec === undefined ? grouped : `${grouped}.${dec}`;
}

/** Drops trailing fractional zeros and a bare point: "1.500" -> "1.5", "2.000" -> "2". */
function trimFraction(text: string): string {
  return text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
}

/**
 * A number as C's printf("%g") writes it (http_load prints every figure so): `precision`
 * significant digits, trailing zeros dropped, exponent notation below 1e-4 or from
 * 10^precision on: 289884 -> `289884`, 4.892741 -> `4.89274`, 30720000 -> `3.072e+07`.
 */
export function formatCG(value: number, precision = 6): string {
  if (Number.isNaN(value)) return 'nan';
  if (!Number.isFinite(value)) return value > 0 ? 'inf' : '-inf';
  if (value === 0) return '0';
  const p = Math.max(1, precision);
  // The exponent after rounding to p digits decides the notation (9999995 -> 1e+07).
  const [mantissa = '', exp = '0'] = value.toExponential(p - 1).split('e');
  const x = Number(exp);
  if (x < -4 || x >= p) {
    const digits = String(Math.abs(x)).padStart(2, '0');
    return `${trimFraction(mantissa)}e${x < 0 ? '-' : '+'}${digits}`;
  }
  return trimFraction(value.toFixed(p - 1 - x));
}

/** A moment (ISO 8601) the same on every machine: "2026-12-04 21:46:12 UTC"; the text as given when it is none. */
export function formatUtcTime(iso: string): string {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? iso : `${new Date(t).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}
