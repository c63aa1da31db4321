/* How a response's status counts (the host rebuilds totals from samples with them too, so they stay out of recorder.ts and its histograms). */

/** A response outside 200-299 is a non-2xx one (ab's "Non-2xx responses"). */
export function isNon2xx(status: number): boolean {
  return status < 200 || status > 299;
}

/** A response within 200-399 is ok, unless it was slower than the SLO. */
export function isOkStatus(status: number): boolean {
  return status >= 200 && status < 400;
}
