import type { ErrorKind } from '../../../shared/model/result.ts';

/** Status codes are three digits (100-999: RFC 9110 section 15 has a client count 600-999 as 5xx). */
export const MAX_STATUS = 1000;

/** A window's plain counts (recorder.ts): what a Sample, or a shard's window, is made of besides its histograms. */
export interface Window {
  requests: number;
  bytesIn: number;
  /** By status code; a window slot's own table for a shard with slots (window-slots.ts). */
  status: Uint32Array;
  errors: Map<ErrorKind, number>;
  late: number;
}

export const emptyWindow = (status: Uint32Array<ArrayBufferLike> = new Uint32Array(MAX_STATUS)): Window => ({
  requests: 0,
  bytesIn: 0,
  status,
  errors: new Map(),
  late: 0,
});

/** Forgets a window's counts, in place (its status table may be a slot's). */
export function clearWindow(w: Window): void {
  w.requests = 0;
  w.bytesIn = 0;
  w.status.fill(0);
  w.errors.clear();
  w.late = 0;
}

/** A status table's codes that came, with their counts. */
export function statusCodesOf(status: Uint32Array): Record<string, number> {
  const out: Record<string, number> = {};
  for (let s = 0; s < MAX_STATUS; s++) if (status[s]! > 0) out[s] = status[s]!;
  return out;
}

/** Adds codes with their counts (statusCodesOf's shape) to a status table; a code past the table is left out. */
export function addStatusCodes(status: Uint32Array, codes: Record<string, number>): void {
  for (const [code, n] of Object.entries(codes)) {
    const s = Number(code);
    if (s >= 0 && s < MAX_STATUS) status[s]! += n;
  }
}

/** Adds one window's counts to another's. */
export function addWindow(into: Window, w: Window): void {
  into.requests += w.requests;
  into.bytesIn += w.bytesIn;
  for (let s = 0; s < MAX_STATUS; s++) into.status[s]! += w.status[s]!;
  for (const [k, c] of w.errors) into.errors.set(k, (into.errors.get(k) ?? 0) + c);
  into.late += w.late;
}
