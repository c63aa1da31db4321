/**
 * Durations as people type them, in the CLI's flags and the editors' fields alike: Go's
 * notation (`5s`, `1m30s`, `250ms`, as vegeta takes them) or a bare number in the field's
 * own unit (seconds for a duration like ab's -t, milliseconds for an SLO).
 */

export type DurationUnit = 's' | 'ms';

/** How many of each unit a written unit is worth; integers where they can be, so 1.5s is exactly 1500 ms. */
const WORTH: Record<DurationUnit, Readonly<Record<string, number>>> = {
  s: { ns: 1e-9, us: 1e-6, µs: 1e-6, ms: 1e-3, s: 1, m: 60, h: 3600 },
  ms: { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 },
};

/** Seconds per written unit (`m` is 60), for rates such as vegeta's `6000/1m`. */
export const UNIT_SECONDS = WORTH.s;

/** What a field or flag of each unit accepts, for messages. */
export const DURATION_EXAMPLES: Record<DurationUnit, string> = {
  s: '10, 10s, 1m30s',
  ms: '300, 300ms, 1.5s',
};

const PART = /(\d+(?:\.\d+)?|\.\d+)(ns|us|µs|ms|s|m|h)/gy;
const BARE_NUMBER = /^(\d+(?:\.\d+)?|\.\d+)$/;

/** The duration `text` in `unit` (a bare number is already in it), or null when it is no duration. */
export function parseDuration(text: string, unit: DurationUnit): number | null {
  const t = text.trim();
  if (BARE_NUMBER.test(t)) return Number(t);
  const worth = WORTH[unit];
  let value = 0;
  let end = 0;
  PART.lastIndex = 0;
  for (let m = PART.exec(t); m; m = PART.exec(t)) {
    value += Number(m[1]) * worth[m[2]!]!;
    end = PART.lastIndex;
  }
  return t === '' || end !== t.length ? null : value;
}
