import {
  ERROR_KIND_LABELS,
  PHASES,
  type Phase,
  type PhaseStats,
  type RunResult,
  type ThresholdOutcome,
  type Warning,
} from '../../shared/model/result.ts';
import { THRESHOLD_UNITS } from '../../shared/model/scenario.ts';
import type { VerdictFigure } from '../../shared/verdict/caveats.ts';
import { badCaveatsOn, runVerdict, type Verdict } from '../../shared/verdict/verdict.ts';
import {
  formatBytes,
  formatCount,
  formatGrouped,
  formatMs,
  formatRateValue,
  formatRatio,
  formatSeconds,
} from '../lib/format.ts';

/** What the report's parts show, computed from a RunResult; the components only lay it out. */

export interface SummaryCard {
  id: string;
  label: string;
  value: string;
  /** The number behind the text (for tests and copy), null when there is none. */
  raw: number | null;
  detail: string;
  tone?: 'good' | 'warn' | 'bad';
  /** Why the figure is not the server's (a bad caveat of the verdict on it), when it is not. */
  caveat?: string;
}

/** A verdict's tone on screen: good (clean, nothing to note), note (clean with a note), bad (not clean). */
export function verdictTone(v: Verdict): 'good' | 'note' | 'bad' {
  if (!v.clean) return 'bad';
  return v.caveats.length > 0 ? 'note' : 'good';
}

/** The verdict's bad caveats on one figure, as one sentence; undefined when none. */
function caveatOn(v: Verdict, figure: VerdictFigure): string | undefined {
  const on = badCaveatsOn(v, figure);
  return on.length === 0 ? undefined : on.map((c) => c.message).join(' ');
}

/** Requests that failed, by reason: the SLO (when there is one), error statuses and no response. */
function failureDetail(r: RunResult): string {
  const q = r.requests;
  const slo =
    r.options.sloMs === null ? [] : [`${formatCount(q.sloExceeded)} over the ${r.options.sloMs} ms SLO`];
  return [...slo, `${formatCount(q.non2xx)} non-2xx`, `${formatCount(q.errors)} errors`].join(' · ');
}

export function summaryCards(r: RunResult, verdict: Verdict = runVerdict(r)): SummaryCard[] {
  const t = r.throughput;
  const q = r.requests;
  const on = (figure: VerdictFigure) => {
    const caveat = caveatOn(verdict, figure);
    return caveat === undefined ? {} : { caveat };
  };
  const lat = r.latency;
  const p = (key: string): number | null => lat?.percentiles[key] ?? null;
  const ms = (v: number | null): string => (v === null ? '–' : formatMs(v));
  const rateDetail =
    t.targetRate !== null
      ? `target ${formatRateValue(t.targetRate)} · sent ${formatRateValue(t.sentRate)}`
      : `min ${formatCount(t.requestsPerSecondMin)} · max ${formatCount(t.requestsPerSecondMax)}`;
  const failed = q.total - q.ok;
  return [
    {
      id: 'rps',
      label: 'Requests/s',
      value: formatRateValue(t.requestsPerSecond),
      raw: t.requestsPerSecond,
      detail: rateDetail,
      ...on('throughput'),
    },
    {
      id: 'requests',
      label: 'Requests',
      value: formatCount(q.total),
      raw: q.total,
      // The open model's schedule: what it did not send on time, or at all.
      detail:
        q.late !== null && q.dropped !== null
          ? `${formatCount(q.dropped)} dropped · ${formatCount(q.late)} late`
          : `${formatCount(q.ok)} ok · ${formatCount(failed)} not ok`,
      tone: q.dropped !== null && q.dropped > 0 ? 'warn' : undefined,
    },
    {
      id: 'success',
      label: 'Success',
      value: formatRatio(r.successRatio),
      raw: r.successRatio,
      detail: failureDetail(r),
      tone:
        q.total === 0 ? 'bad' : r.successRatio >= 0.999 ? 'good' : r.successRatio >= 0.99 ? 'warn' : 'bad',
      ...on('success'),
    },
    {
      id: 'p50',
      label: 'Latency p50',
      value: ms(p('50')),
      raw: p('50'),
      detail: lat ? `min ${formatMs(lat.min)}` : 'no responses',
      ...on('latency'),
    },
    {
      id: 'p99',
      label: 'Latency p99',
      value: ms(p('99')),
      raw: p('99'),
      detail: lat ? `max ${formatMs(lat.max)}` : 'no responses',
      ...on('latency'),
    },
    {
      id: 'mean',
      label: 'Latency mean',
      value: ms(lat?.mean ?? null),
      raw: lat?.mean ?? null,
      detail: lat ? `± ${formatMs(lat.stdev)} sd` : 'no responses',
      ...on('latency'),
    },
    {
      id: 'transfer',
      label: 'Transfer',
      value: `${formatBytes(t.bytesInPerSecond)}/s`,
      raw: t.bytesInPerSecond,
      detail: `${formatBytes(r.bytes.inTotal)} received`,
      ...on('throughput'),
    },
    {
      id: 'duration',
      label: 'Duration',
      value: formatSeconds(r.durationSeconds),
      raw: r.durationSeconds,
      detail:
        r.attackSeconds !== null && r.waitSeconds !== null
          ? `attack ${formatSeconds(r.attackSeconds)} · wait ${formatSeconds(r.waitSeconds)}`
          : r.options.warmupSeconds > 0
            ? `after ${formatSeconds(r.options.warmupSeconds)} warm-up`
            : `${r.generator.engine} engine`,
    },
  ];
}

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

/** "p99 < 50 ms" */
export function thresholdText(o: ThresholdOutcome): string {
  const t = o.threshold;
  return `${t.metric} ${t.op} ${t.value} ${THRESHOLD_UNITS[t.metric]}`;
}

export function thresholdActualText(o: ThresholdOutcome): string {
  if (o.actual === null) return '–';
  return `${formatGrouped(o.actual, o.actual >= 100 ? 1 : 3)} ${THRESHOLD_UNITS[o.threshold.metric]}`;
}
