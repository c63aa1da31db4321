import { VERDICT } from '../model/defaults.ts';
import { ERROR_KIND_LABELS, type ErrorKind, type RunResult } from '../model/result.ts';
import { scheduledRate } from '../stages/load-plan.ts';
import { statusLine } from '../figures/status-text.ts';
import { fixed, formatCount } from '../figures/units.ts';
import { workerCpu } from '../model/worker-cpu.ts';
import { START_SPREAD_WARN_MS, startSpreadMs } from '../shards/combine.ts';
import type { Caveat } from '../model/verdict-record.ts';
import { generatorFlat, limitCaveats } from './limits.ts';

/*
 * The rules of the verdict: what in a result's counts (summed over a cell's runs) makes a
 * caveat, with the numbers that say why. shared/verdict/verdict.ts turns the caveats into the verdict. Pure.
 */

export type { Caveat, CaveatCode, VerdictFigure } from '../model/verdict-record.ts';

/** "49.2%", "0.02%": two decimals below 0.1 % so a small share never reads 0.0 %. */
function share(part: number, whole: number): string {
  const p = whole > 0 ? (part / whole) * 100 : 0;
  return `${fixed(p, p > 0 && p < 0.1 ? 2 : 1)}%`;
}

export const plural = (n: number, one: string, many = `${one}s`): string =>
  `${formatCount(n)} ${n === 1 ? one : many}`;

/** What the rules read, summed over one or more runs (a comparison cell's repetitions). */
interface Tally {
  runs: number;
  total: number;
  responses: number;
  ok: number;
  sloFailures: number;
  transport: Map<ErrorKind, number>;
  statusCodes: Map<number, number>;
  open: boolean;
  targetRate: number | null;
  scheduled: number;
  late: number;
  dropped: number;
  /** Runs whose generator ran flat out, and the busiest worker's highest mean CPU among all runs. */
  clientBoundRuns: number;
  cpuMean: number;
  cpuMax: number;
  /** The generator's whole process (mean % of a core) and its busiest thread, where one of them ran flat (the machine's readings). */
  process: NonNullable<RunResult['generator']['process']> | null;
  /** Most engine workers a run used, and cores of its machine. */
  workers: number;
  cores: number;
}

function tally(results: readonly RunResult[]): Tally {
  const t: Tally = {
    runs: results.length,
    total: 0,
    responses: 0,
    ok: 0,
    sloFailures: 0,
    transport: new Map(),
    statusCodes: new Map(),
    open: false,
    targetRate: null,
    scheduled: 0,
    late: 0,
    dropped: 0,
    clientBoundRuns: 0,
    cpuMean: 0,
    cpuMax: 0,
    process: null,
    workers: 1,
    cores: 1,
  };
  for (const r of results) {
    const q = r.requests;
    t.total += q.total;
    t.responses += q.responses;
    t.ok += q.ok;
    t.sloFailures += q.sloExceeded;
    for (const e of r.errors) {
      if (e.kind !== 'slo') t.transport.set(e.kind, (t.transport.get(e.kind) ?? 0) + e.count);
    }
    for (const [code, n] of Object.entries(r.statusCodes)) {
      t.statusCodes.set(Number(code), (t.statusCodes.get(Number(code)) ?? 0) + n);
    }
    if (r.load.model === 'open') {
      t.open = true;
      t.targetRate = scheduledRate(r.load);
      t.late += q.late ?? 0;
      t.dropped += q.dropped ?? 0;
      t.scheduled += q.total + q.inFlightAtEnd + (q.dropped ?? 0);
    }
    // Per worker thread: one flat out limits the load, two at 60% each do not; and the whole
    // process, or any of its threads (main, GC), flat out too (saturated by either).
    const cpu = workerCpu(r.generator);
    const proc = r.generator.process;
    if (generatorFlat(r)) t.clientBoundRuns++;
    if (proc?.saturated && !t.process) t.process = proc;
    t.cpuMean = Math.max(t.cpuMean, cpu.busiestMean);
    t.cpuMax = Math.max(t.cpuMax, cpu.busiestMax);
    t.workers = Math.max(t.workers, cpu.workers);
    t.cores = Math.max(t.cores, r.generator.cpuCores);
  }
  return t;
}

/** " over 3 runs" for a cell of several repetitions; nothing for one run. */
const over = (t: Tally): string => (t.runs > 1 ? ` over ${t.runs} runs` : '');

const sortedCodes = (t: Tally): [number, number][] =>
  [...t.statusCodes].sort(([a, x], [b, y]) => y - x || a - b);

const codeList = (codes: readonly [number, number][]): string =>
  codes.map(([code, n]) => `${statusLine(code)} ${formatCount(n)}`).join(', ');

/** What to do about a server that answered every request with this status. */
function statusAdvice(code: number): string {
  if (code === 404 || code === 410) return 'check the path';
  if (code === 401 || code === 403 || code === 407) return 'check the credentials and headers';
  if (code >= 300 && code < 400) return 'the server redirects: point the URL at the final location';
  if (code === 400 || code === 405 || code === 411 || code === 413 || code === 415)
    return 'check the method, headers and body';
  if (code === 429) return 'the server is rate-limiting: lower the load or lift the limit';
  if (code >= 500) return 'the server failed every request: check its logs';
  return 'check the URL and the request';
}

function allNon2xx(t: Tally): Caveat | null {
  if (t.responses === 0 || sortedCodes(t).some(([code]) => code >= 200 && code < 300)) return null;
  const codes = sortedCodes(t);
  const [first] = codes;
  const message =
    codes.length === 1 && first
      ? `Every response was ${statusLine(first[0])}${over(t)}: ${statusAdvice(first[0])}.`
      : `No response was a 2xx${over(t)} (${codeList(codes)}): ${statusAdvice(first?.[0] ?? 0)}.`;
  return {
    code: 'all-non-2xx',
    severity: 'bad',
    label: codes.length === 1 && first ? `all ${first[0]}` : 'all non-2xx',
    message,
  };
}

function notMeasured(t: Tally): Caveat | null {
  if (t.responses > 0) return null;
  const kinds = [...t.transport].sort(([, a], [, b]) => b - a);
  const why = kinds.map(([k, n]) => `${ERROR_KIND_LABELS[k]} ${formatCount(n)}`).join(', ');
  const message =
    t.total === 0
      ? 'No request finished: nothing was measured.'
      : `No response arrived: all ${plural(t.total, 'request')} failed${why ? ` (${why})` : ''}${over(t)}.`;
  return { code: 'not-measured', severity: 'bad', label: 'not measured', message };
}

function clientBound(t: Tally): Caveat | null {
  if (t.clientBoundRuns === 0) return null;
  const runs = t.runs > 1 ? ` in ${t.clientBoundRuns} of ${t.runs} runs` : '';
  const who = t.workers > 1 ? `the busiest of its ${t.workers} engine workers` : 'the load generator';
  const p = t.process;
  const thread = p?.busiestThread;
  const whole = p
    ? ` Its whole process used ${fixed(p.cpuPercentMean, 0)}% of a core${thread ? `, its busiest thread (${thread.name}) ${fixed(thread.cpuPercentMean, 0)}%` : ''}.`
    : '';
  const fix =
    t.workers < t.cores
      ? `Give it more workers (-t, up to the machine's ${t.cores} cores) or run it from another machine`
      : 'Run it from another machine, or more machines';
  return {
    code: 'client-bound',
    severity: 'bad',
    label: 'client-bound',
    message: `The client, not the server, was the limit${runs}: ${who} used ${fixed(t.cpuMean, 0)}% of a CPU core on average (max ${fixed(t.cpuMax, 0)}%), so the throughput is understated and the latency includes the client's own delay.${whole} ${fix}.`,
    figures: ['throughput', 'latency'],
  };
}

/** Open model: late or dropped requests beyond this many of the scheduled ones: the rate was not reached. */
const shortfallLimit = (scheduled: number): number => (VERDICT.rateShortfallPercent / 100) * scheduled;

/**
 * How far an open-model run fell behind its schedule: its scheduled, late and dropped
 * requests, and which of the two passed the limit that makes the verdict 'rate-not-reached'
 * (null for a closed-model run). For a reader that must tell a schedule sent late from one
 * not sent at all (the capacity search).
 */
export function scheduleShortfall(result: RunResult): {
  scheduled: number;
  late: number;
  dropped: number;
  lateOver: boolean;
  droppedOver: boolean;
} | null {
  const t = tally([result]);
  if (!t.open) return null;
  const limit = shortfallLimit(t.scheduled);
  return {
    scheduled: t.scheduled,
    late: t.late,
    dropped: t.dropped,
    lateOver: t.late > limit,
    droppedOver: t.dropped > limit,
  };
}

function rateNotReached(t: Tally): Caveat | null {
  if (!t.open || (t.late === 0 && t.dropped === 0)) return null;
  const limit = shortfallLimit(t.scheduled);
  const bad = t.late > limit || t.dropped > limit;
  const parts = [
    ...(t.dropped > 0
      ? [`${formatCount(t.dropped)} (${share(t.dropped, t.scheduled)}) were never sent`]
      : []),
    ...(t.late > 0 ? [`${formatCount(t.late)} (${share(t.late, t.scheduled)}) went out late`] : []),
  ];
  const rate = t.targetRate === null ? '' : ` at ${formatCount(t.targetRate)} req/s`;
  const what = `of ${plural(t.scheduled, 'scheduled request')}${over(t)}, ${parts.join(' and ')}`;
  return bad
    ? {
        code: 'rate-not-reached',
        severity: 'bad',
        label: 'rate not reached',
        message: `The rate was not reached${rate}: ${what}.`,
        figures: ['throughput', 'latency'],
      }
    : {
        code: 'rate-not-reached',
        severity: 'warn',
        label: t.dropped > 0 ? 'some dropped' : 'some late',
        message: `The schedule held within ${VERDICT.rateShortfallPercent}%: ${what}.`,
      };
}

/** A failure kind over the threshold is bad; under it, a note. */
function failureCaveat(
  code: 'transport-errors' | 'error-statuses' | 'slo-failures',
  count: number,
  t: Tally,
  label: string,
  sentence: (pct: string) => string,
): Caveat | null {
  if (count === 0) return null;
  const pct = share(count, t.total);
  const bad = count > (VERDICT.failurePercent / 100) * t.total;
  return {
    code,
    severity: bad ? 'bad' : 'warn',
    label: `${label} ${pct}`,
    message: sentence(pct),
    figures: ['success'],
  };
}

function failures(t: Tally, sloMs: number | null): Caveat[] {
  const transport = [...t.transport].sort(([, a], [, b]) => b - a);
  const transportCount = transport.reduce((a, [, n]) => a + n, 0);
  const failing = sortedCodes(t).filter(([code]) => code < 200 || code >= 400);
  const failingCount = failing.reduce((a, [, n]) => a + n, 0);
  const of = `of ${plural(t.total, 'request')}${over(t)}`;
  const slo = sloMs === null ? 'the SLO' : `the ${sloMs} ms SLO`;
  return [
    failureCaveat('transport-errors', transportCount, t, 'errors', (pct) => {
      const kinds = transport.map(([k, n]) => `${ERROR_KIND_LABELS[k]} ${formatCount(n)}`).join(', ');
      return `${formatCount(transportCount)} ${of} (${pct}) got no response: ${kinds}.`;
    }),
    failureCaveat(
      'error-statuses',
      failingCount,
      t,
      'non-2xx',
      (pct) => `${formatCount(failingCount)} ${of} (${pct}) had an error status: ${codeList(failing)}.`,
    ),
    failureCaveat(
      'slo-failures',
      t.sloFailures,
      t,
      'SLO',
      (pct) => `${formatCount(t.sloFailures)} ${of} (${pct}) were slower than ${slo} and count as failures.`,
    ),
  ].filter((c): c is Caveat => c !== null);
}

/** The rules on figures, over the counts of these runs summed. */
export function figureCaveats(results: readonly RunResult[], sloMs: number | null): Caveat[] {
  const t = tally(results);
  const none = notMeasured(t);
  if (none) return [none];
  const all = allNon2xx(t);
  return [
    ...(all ? [all] : []),
    ...[clientBound(t), rateNotReached(t)].filter((c): c is Caveat => c !== null),
    // With no 2xx at all, the error statuses are the all-non-2xx caveat already.
    ...failures(t, sloMs).filter((c) => !(all && c.code === 'error-statuses')),
    ...limitCaveats(results),
  ];
}

/** A merged result's shards whose loads began more than START_SPREAD_WARN_MS apart: a note, the figures stand. */
export function shardsApart(r: RunResult): Caveat | null {
  if (!r.shards) return null;
  const spread = startSpreadMs(r.shards);
  if (spread <= START_SPREAD_WARN_MS) return null;
  return {
    code: 'shards-apart',
    severity: 'warn',
    label: 'shards apart',
    message: `The shards' loads began ${fixed(spread, 1)} ms apart (more than ${START_SPREAD_WARN_MS} ms): the merged samples add windows of different moments. Check the machines' clocks (NTP) and give a start with more margin.`,
  };
}
