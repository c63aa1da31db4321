import type { Warning } from '../model/result-parts.ts';

/*
 * What a part's result says when its live metrics did not all arrive (docs/metrics.md): per
 * endpoint, how many of its snapshots were not delivered by the part's end, why, and whether
 * the last one (every total up to the end: counters are cumulative) got there. The run's own
 * figures never depend on it. Pure.
 */

/** One endpoint's account of a part's snapshots. */
export interface DeliveryAccount {
  /** The endpoint as the person gave it: "prometheus-rw http://…/api/v1/write". */
  where: string;
  made: number;
  delivered: number;
  /** Whether the part's last snapshot was delivered. */
  lastDelivered: boolean;
  /** Why the last failed push failed; null when none failed. */
  reason: string | null;
}

/** The warning a part's result carries for an endpoint; null when everything arrived. */
export function deliveryWarning(a: DeliveryAccount): Warning | null {
  if (a.made === 0 || a.delivered >= a.made) return null;
  const why = a.reason ? ` (${a.reason})` : '';
  const last = a.lastDelivered
    ? 'the last one, with every total, was delivered'
    : 'the last one, with the totals, was not: the totals there fall short of this report';
  return {
    code: 'metrics-not-delivered',
    message: `Live metrics to ${a.where}: ${a.made - a.delivered} of ${a.made} snapshots were not delivered by the end of this run${why}; ${last}. The run's figures are not affected.`,
  };
}

/** The warning of metrics that could not be served for scraping (the address in use, say). */
export function notServedWarning(address: string, reason: string): Warning {
  return {
    code: 'metrics-not-delivered',
    message: `Live metrics were not served at ${address} (${reason}). The run's figures are not affected.`,
  };
}
