/**
 * A run's headline figures as cards: what the report on screen and the HTML report show
 * above everything else, computed here once so the two never differ by a digit or a word.
 * Pure: a view only lays the cards out.
 */
import type { RunResult } from '../model/result.ts';
import type { VerdictFigure } from '../verdict/caveats.ts';
import { badCaveatsOn, runVerdict, type Verdict } from '../verdict/verdict.ts';
import { runDurations } from '../verdict/run-figures.ts';
import {
  formatBytes,
  formatCount,
  formatMs,
  formatPercent,
  formatRateValue,
  formatSeconds,
} from '../figures/units.ts';

export interface SummaryCard {
  id: 'rps' | 'requests' | 'success' | 'p50' | 'p99' | 'mean' | 'transfer' | 'duration';
  label: string;
  value: string;
  /** The number behind the text (for tests and copy), null when there is none. */
  raw: number | null;
  detail: string;
  tone?: 'good' | 'warn' | 'bad';
  /** Why the figure is not the server's (a bad caveat of the verdict on it), when it is not. */
  caveat?: string;
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

/**
 * The Duration card's detail: an open run's attack and wait (they add up to the duration,
 * as vegeta's Duration row), else the warm-up or the engine.
 */
function durationDetail(r: RunResult): string {
  const d = runDurations(r);
  if (d.split) return `attack ${formatMs(d.attack * 1000)} · wait ${formatMs(d.wait * 1000)}`;
  return r.options.warmupSeconds > 0
    ? `after ${formatSeconds(r.options.warmupSeconds)} warm-up`
    : `${r.generator.engine} engine`;
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
  // The open model's "sent" is vegeta's rate: requests sent over the attack.
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
      value: formatPercent(r.successRatio),
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
      detail: durationDetail(r),
    },
  ];
}
