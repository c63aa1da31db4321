import {
  ERROR_KIND_LABELS,
  PHASES,
  type Phase,
  type PhaseStats,
  type RunResult,
  type Warning,
} from '../../shared/model/result.ts';
import { formatCount, formatGrouped } from '../../shared/figures/units.ts';

/** What the report's tables show, computed from a RunResult; the components only lay it out. */

export interface PercentileRow {
  p: number;
  label: string;
  ms: number;
  /** Share of the largest value in the table, 0..1, for the inline bar. */
  share: number;
}

/** ab's "Percentage of the requests served within a certain time", lowest percentile first. */
export function percentileRows(percentiles: Record<string, number>): PercentileRow[] {
  const keys = Object.keys(percentiles)
    .map(Number)
    .filter((p) => Number.isFinite(p));
  const order = [...new Set(keys)].sort((a, b) => a - b);
  const max = Math.max(0, ...order.map((p) => percentiles[String(p)] ?? 0));
  return order.map((p) => {
    const ms = percentiles[String(p)] ?? 0;
    return { p, label: `${p}%`, ms, share: max > 0 ? ms / max : 0 };
  });
}

export interface StatusRow {
  code: string;
  count: number;
  share: number;
  tone: 'good' | 'info' | 'warn' | 'bad';
}

/** Status codes in numeric order with their share of all responses. */
export function statusRows(codes: Record<string, number>): StatusRow[] {
  const total = Object.values(codes).reduce((a, b) => a + b, 0);
  return Object.entries(codes)
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([code, count]) => ({
      code,
      count,
      share: total > 0 ? count / total : 0,
      tone: code.startsWith('2')
        ? 'good'
        : code.startsWith('3')
          ? 'info'
          : code.startsWith('4')
            ? 'warn'
            : 'bad',
    }));
}

export interface ErrorRow {
  kind: string;
  label: string;
  count: number;
  share: number;
  message: string;
}

/** vegeta's Error Set: each kind of failure, how often, and the first message seen. */
export function errorRows(r: RunResult): ErrorRow[] {
  return [...r.errors]
    .sort((a, b) => b.count - a.count)
    .map((e) => ({
      kind: e.kind,
      label: ERROR_KIND_LABELS[e.kind],
      count: e.count,
      share: r.requests.total > 0 ? e.count / r.requests.total : 0,
      message: e.message,
    }));
}

const CLOSED_LOOP_CAVEAT =
  'Closed-loop run: each connection waits for an answer before sending again, so a slow server also slows the load and the latency figures understate what users arriving at a steady rate would see (coordinated omission). Use the open model to measure latency at a fixed rate.';

/**
 * The result's warnings plus the ones the report always states when they apply: a
 * saturated generator, an unverified certificate, and the closed-loop latency caveat.
 * One per code; the engine's own wording wins.
 */
export function reportWarnings(r: RunResult): Warning[] {
  const out = [...r.warnings];
  const has = (code: Warning['code']): boolean => out.some((w) => w.code === code);
  if (r.generator.saturated && !has('generator-saturated')) {
    out.push({
      code: 'generator-saturated',
      message: `The load generator ran flat out (CPU up to ${formatGrouped(r.generator.cpuPercentMax, 0)}% of a core): these numbers may measure the client, not the server.`,
    });
  }
  if (r.tls && !r.tls.verified && !has('tls-not-verified')) {
    out.push({
      code: 'tls-not-verified',
      message: `The server certificate was not verified${r.tls.authorizationError ? ` (${r.tls.authorizationError})` : ''}.`,
    });
  }
  if (
    r.load.model === 'closed' &&
    r.load.rate === null &&
    r.requests.responses > 0 &&
    !has('closed-loop-latency')
  ) {
    out.push({ code: 'closed-loop-latency', message: CLOSED_LOOP_CAVEAT });
  }
  return out;
}

/**
 * A sentence for a target that could not be measured: the run-level error, or every
 * request failing without a single response (a server that is down).
 */
export function failureSummary(r: RunResult): string | null {
  if (r.error) return `${capitalize(ERROR_KIND_LABELS[r.error.kind])}: ${r.error.message}`;
  if (r.requests.responses === 0 && r.requests.errors > 0) {
    const top = errorRows(r)[0];
    if (top) {
      return `No response from the target: ${top.label} on ${formatCount(top.count)} of ${formatCount(r.requests.total)} requests (${top.message}).`;
    }
  }
  if (r.status === 'failed') return 'The run failed before it could measure anything.';
  return null;
}

const capitalize = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

const PHASE_LABELS: Record<Phase, string> = {
  dns: 'DNS lookup',
  connect: 'Connect',
  tls: 'TLS handshake',
  setup: 'Setup (DNS + connect + TLS)',
  waiting: 'Waiting',
  transfer: 'Transfer',
  processing: 'Processing',
  total: 'Total',
};

export interface PhaseRow {
  phase: Phase;
  label: string;
  stats: PhaseStats;
}

/** ab's "Connection Times (ms)" rows in the order a request goes through them. */
export function phaseRows(phases: Partial<Record<Phase, PhaseStats>>): PhaseRow[] {
  return PHASES.flatMap((phase) => {
    const stats = phases[phase];
    return stats ? [{ phase, label: PHASE_LABELS[phase], stats }] : [];
  });
}
