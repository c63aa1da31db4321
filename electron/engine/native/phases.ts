import { REPORT_PERCENTILES } from '../../../shared/model/defaults.ts';
import { PHASES, type Phase, type PhaseStats } from '../../../shared/model/result.ts';
import type { PhaseBuckets } from '../../../shared/model/shard-facts.ts';
import { ValueRecorder } from '../recording/histogram.ts';

/**
 * Where a response's times sit in the array a client fills before booking it
 * (RequestLedger.times, performance.now() ms): its schedule's time (the start, unscheduled),
 * its start, when its bytes went out, its first byte and its last.
 */
export const T_INTENDED = 0;
export const T_START = 1;
export const T_WRITTEN = 2;
export const T_FIRST_BYTE = 3;
export const T_DONE = 4;
export const RESPONSE_TIMES = 5;

/** How long each step of opening a connection took, ms (socket/dial.ts DialTiming has these). */
export interface SetupTimes {
  dnsMs: number;
  connectMs: number;
  /** null for plain TCP. */
  tlsMs: number | null;
}

/**
 * Per-request timing phases, in histograms (never arrays), and how they map to ab's
 * "Connection Times (ms)" table (ab.c: ctime = connect - start, time = done - start,
 * waittime = beginread - endwrite):
 *
 *   dns       name lookup, when the request opened a connection (0 for an IP literal)
 *   connect   TCP handshake, when the request opened a connection
 *   tls       TLS handshake, when the request opened an https connection
 *   setup     dns + connect + tls: ab's "Connect" row; 0 for a request on a reused
 *             keep-alive connection (ab -k resets its start to the reuse time too)
 *   waiting   request written to first response byte: ab's "Waiting" row
 *   transfer  first response byte to last
 *   processing total - setup: ab's "Processing" row
 *   total     request start (connection opening included) to last byte: ab's "Total" row
 *
 * A phase that did not happen (dns, connect, tls, setup on a reused connection) counts as 0,
 * as in ab, so every row holds one value per completed request.
 */
export class PhaseHistograms {
  private readonly h: Record<Phase, ValueRecorder>;
  /** Requests on reused connections: their dns/connect/tls/setup are 0, added in one go at the end. */
  private reused = 0;
  private tlsUsed = false;

  constructor() {
    this.h = {
      dns: new ValueRecorder(),
      connect: new ValueRecorder(),
      tls: new ValueRecorder(),
      setup: new ValueRecorder(),
      waiting: new ValueRecorder(),
      transfer: new ValueRecorder(),
      processing: new ValueRecorder(),
      total: new ValueRecorder(),
    };
  }

  /** A request on a reused connection; `t`: its times (the T_ indexes). */
  reusedConnection(t: Float64Array): void {
    this.reused++;
    const h = this.h;
    h.waiting.record(us(t[T_FIRST_BYTE]! - t[T_WRITTEN]!));
    h.transfer.record(us(t[T_DONE]! - t[T_FIRST_BYTE]!));
    const total = us(t[T_DONE]! - t[T_START]!);
    h.processing.record(total);
    h.total.record(total);
  }

  /** The first request on a connection it opened: it carries the connection's setup. */
  newConnection(d: SetupTimes, t: Float64Array): void {
    const h = this.h;
    const tlsMs = d.tlsMs;
    const setup = us(d.dnsMs) + us(d.connectMs) + (tlsMs === null ? 0 : us(tlsMs));
    const total = Math.max(us(t[T_DONE]! - t[T_START]!), setup);
    h.dns.record(us(d.dnsMs));
    h.connect.record(us(d.connectMs));
    if (tlsMs !== null) this.tlsUsed = true;
    h.tls.record(tlsMs === null ? 0 : us(tlsMs));
    h.setup.record(setup);
    h.waiting.record(us(t[T_FIRST_BYTE]! - t[T_WRITTEN]!));
    h.transfer.record(us(t[T_DONE]! - t[T_FIRST_BYTE]!));
    h.processing.record(total - setup);
    h.total.record(total);
  }

  /** The phases as buckets (to send to another thread); null before any measured response. */
  buckets(): PhaseBuckets | null {
    if (this.h.total.count === 0) return null;
    const buckets: PhaseBuckets['buckets'] = {};
    for (const phase of PHASES) buckets[phase] = this.h[phase].buckets();
    return { buckets, reused: this.reused, tlsUsed: this.tlsUsed };
  }

  /** A recorder holding phases sent as buckets (several shards' merged, say). */
  static fromBuckets(b: PhaseBuckets): PhaseHistograms {
    const r = new PhaseHistograms();
    for (const phase of PHASES) {
      const of = b.buckets[phase];
      if (of) r.h[phase].addBuckets(of);
    }
    r.reused = b.reused;
    r.tlsUsed = b.tlsUsed;
    return r;
  }

  /** Summaries per phase in ms; null before any measured response. */
  stats(): Partial<Record<Phase, PhaseStats>> | null {
    if (this.h.total.count === 0) return null;
    const out: Partial<Record<Phase, PhaseStats>> = {};
    for (const phase of PHASES) {
      if (phase === 'tls' && !this.tlsUsed) continue;
      const zeros =
        phase === 'dns' || phase === 'connect' || phase === 'tls' || phase === 'setup' ? this.reused : 0;
      out[phase] = phaseStats(this.h[phase], zeros);
    }
    return out;
  }
}

const us = (ms: number): number => (ms <= 0 ? 0 : Math.round(ms * 1000));

/** ab-style row (min, mean, sd, median, max) plus the report's percentiles, in ms, with `zeros` more 0 values. */
export function phaseStats(source: ValueRecorder, zeros = 0): PhaseStats {
  const s = source.summary([0, 50, ...REPORT_PERCENTILES], zeros)!;
  const ms = (v: number) => v / 1000;
  const percentiles: Record<string, number> = {};
  for (const p of REPORT_PERCENTILES) percentiles[String(p)] = ms(s.percentiles.get(p)!);
  return {
    // Percentile 0 is the lowest recorded value, zero included (minNonZeroValue skips zeros).
    min: ms(s.lowest),
    mean: ms(s.mean),
    stdev: ms(s.stdev),
    median: ms(s.percentiles.get(50)!),
    max: ms(s.max),
    percentiles,
  };
}
