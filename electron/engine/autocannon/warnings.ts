import type { ClosedLoad } from '../../../shared/model/scenario.ts';
import type { Warning } from '../../../shared/model/result.ts';

/** What autocannon cannot do well for this load, said up front in the result. */
export function autocannonWarnings(load: ClosedLoad): Warning[] {
  const out: Warning[] = [];
  if (load.rate !== null) {
    const perConnection = load.rate / Math.min(load.connections, Math.floor(load.rate));
    out.push({
      code: 'engine-limit',
      message:
        `autocannon's rate limiter lets each connection send its share (${perConnection.toFixed(1)} req/s) back to back at the start of every second and then idle, so the load arrives in bursts rather than evenly spaced` +
        (load.pipelining > 1
          ? '; after its first pause a connection sends one request at a time, whatever the pipelining'
          : '') +
        (load.connections > load.rate
          ? `; it also cuts the connections to ${Math.floor(load.rate)} (one per req/s)`
          : '') +
        (Number.isInteger(load.rate / Math.min(load.connections, load.rate))
          ? ''
          : "; each connection's share is rounded down to whole requests per second") +
        '. Its own coordinated-omission correction assumes an interval of Math.ceil(1/rate) ms (1 ms at any rate of 1 req/s or more), so it is not used: latencies are service times. For an even schedule use the open model (native engine).',
    });
  }
  return out;
}
