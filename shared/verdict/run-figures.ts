/**
 * The few figures derived from a RunResult that several views print (the ab and vegeta
 * reports, CSV files, the UI). Computed here once so no two views disagree.
 */
import type { ErrorKind, RunResult } from '../model/result.ts';
import { peakTarget } from '../model/stages.ts';
import { statusLine } from '../figures/status-text.ts';

/** ab's "Failed requests" breakdown; `slo` is ours (responses slower than the SLO). */
export interface FailureBreakdown {
  /** Could not connect: refused, DNS, TLS handshake. */
  connect: number;
  /** Broke while sending or receiving: reset, timeout, protocol error. */
  receive: number;
  /** Responses whose body length differs from the first response's (ab's check). */
  length: number;
  exceptions: number;
  slo: number;
}

const BREAKDOWN_OF: Record<ErrorKind, keyof FailureBreakdown> = {
  refused: 'connect',
  dns: 'connect',
  tls: 'connect',
  reset: 'receive',
  timeout: 'receive',
  protocol: 'receive',
  'refused-stream': 'receive',
  goaway: 'receive',
  other: 'exceptions',
  status: 'exceptions',
  slo: 'slo',
};

/**
 * Requests that did not succeed (vegeta's 1 - success): transport errors, responses slower
 * than the SLO and statuses outside 200-399. The UI, the CSV and the comparison table all
 * mean this by "failed"; ab's own narrower count is abFailedRequests.
 */
export function failedRequests(r: RunResult): number {
  return r.requests.total - r.requests.ok;
}

export function failureBreakdown(r: RunResult): FailureBreakdown {
  const out: FailureBreakdown = {
    connect: 0,
    receive: 0,
    length: r.requests.lengthMismatch ?? 0,
    exceptions: 0,
    slo: 0,
  };
  for (const e of r.errors) out[BREAKDOWN_OF[e.kind]] += e.count;
  return out;
}

/**
 * ab's "Failed requests": the sum of its breakdown, Length included. A response of another
 * length is a failure to ab only (vegeta's success ratio and the error rate ignore it), and
 * a response both slower than the SLO and of another length counts once per reason, as
 * ab's own breakdown would count it.
 */
export function abFailedRequests(r: RunResult): number {
  const b = failureBreakdown(r);
  return b.connect + b.receive + b.length + b.exceptions + b.slo;
}

/**
 * ab's "Keep-Alive requests". ab counts responses after which the server kept the
 * connection open. The runners do not report that per response, so this is every response
 * of a keep-alive run and 0 otherwise: equal to ab's figure when the server honours
 * keep-alive, too high when it closes connections (e.g. nginx after keepalive_requests; the
 * runners reconnect and count the new connection's responses too).
 */
export function keepAliveRequests(r: RunResult): number {
  return r.options.keepAlive ? r.requests.responses : 0;
}

/** Success in percent (ok / total): 2xx-3xx within the SLO. */
export function successPercent(r: RunResult): number {
  return r.successRatio * 100;
}

/** Everything that is not a success, in percent: what an `errorRate` threshold compares. */
export function errorPercent(r: RunResult): number {
  return r.requests.total === 0 ? 0 : (1 - r.successRatio) * 100;
}

/** Requests a closed loop keeps in flight (connections x pipelining); null for the open model. */
export function concurrencyLevel(r: RunResult): number | null {
  if (r.load.model !== 'closed') return null;
  return (r.load.stages ? peakTarget(r.load.stages) : r.load.connections) * r.load.pipelining;
}

/**
 * ab's first "Time per request" (concurrency x time / requests). For the open model, whose
 * concurrency varies, the same figure by Little's law is the mean latency.
 */
export function timePerRequestMs(r: RunResult): number | null {
  const rps = r.throughput.requestsPerSecond;
  const concurrency = concurrencyLevel(r);
  if (concurrency === null) return r.latency?.mean ?? null;
  return rps > 0 ? (concurrency * 1000) / rps : null;
}

/** ab's second "Time per request" (mean, across all concurrent requests). */
export function timePerRequestAcrossMs(r: RunResult): number | null {
  const rps = r.throughput.requestsPerSecond;
  return rps > 0 ? 1000 / rps : null;
}

/** ab's "Transfer rate": everything received, in KiB per second. */
export function transferRateKiBps(r: RunResult): number {
  return r.durationSeconds > 0 ? r.bytes.inTotal / 1024 / r.durationSeconds : 0;
}

/** Everything sent (request lines, headers, bodies), in KiB per second: JMeter's "Sent KB/sec". */
export function sentRateKiBps(r: RunResult): number {
  return r.durationSeconds > 0 ? r.bytes.outTotal / 1024 / r.durationSeconds : 0;
}

/** A run's Duration as every view shows it; see runDurations. */
export interface RunDurations {
  total: number;
  attack: number;
  wait: number;
  /** The run reports an attack and a wait of its own (an open run of the native engine). */
  split: boolean;
}

/**
 * A run's Duration, the same in every view (the cards, vegeta's [total, attack, wait], ab's
 * Time taken, the CSV and HTML files): the measured time, and for an open run its attack and
 * wait, which add up to it (the engine measures an open run so: electron/engine/result.ts
 * openRunSeconds). A run without them is all attack, no wait.
 */
export function runDurations(r: RunResult): RunDurations {
  if (r.attackSeconds === null || r.waitSeconds === null) {
    return { total: r.durationSeconds, attack: r.durationSeconds, wait: 0, split: false };
  }
  return { total: r.durationSeconds, attack: r.attackSeconds, wait: r.waitSeconds, split: true };
}

/** vegeta's "throughput": successful requests per second over attack plus wait (the Duration). */
export function vegetaThroughput(r: RunResult): number {
  const { total } = runDurations(r);
  return total > 0 ? r.requests.ok / total : 0;
}

/** vegeta's "rate": requests sent per second of attack. */
export function vegetaRate(r: RunResult): number {
  return r.throughput.sentRate;
}

export interface ErrorSetLine {
  text: string;
  count: number;
}

/**
 * vegeta's Error Set: each transport error kind by its first message, then one line per
 * HTTP status >= 400 ("404 Not Found"), as vegeta counts those as errors too.
 */
export function errorSet(r: RunResult): ErrorSetLine[] {
  const lines: ErrorSetLine[] = r.errors.map((e) => ({ text: e.message, count: e.count }));
  for (const code of sortedStatusCodes(r)) {
    if (Number(code) >= 400) lines.push({ text: statusLine(Number(code)), count: r.statusCodes[code]! });
  }
  return lines;
}

/** Status codes in numeric order. */
export function sortedStatusCodes(r: Pick<RunResult, 'statusCodes'>): string[] {
  return Object.keys(r.statusCodes).sort((a, b) => Number(a) - Number(b));
}
