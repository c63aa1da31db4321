import { VERDICT } from '../model/defaults.ts';
import type { RunResult } from '../model/result.ts';
import type { MachineFacts } from '../model/machine-facts.ts';
import { workerCpu } from '../model/worker-cpu.ts';
import { fixed, formatCount, formatMs } from '../figures/units.ts';
import { bitsText } from '../figures/units.ts';
import { otherProcessesText } from '../machine/readings.ts';
import type { Caveat } from '../model/verdict-record.ts';

/*
 * What limited a run's figures beyond its own counts (shared/verdict/caveats.ts has those):
 * the machine (other processes, or no idle CPU left), one server process flat while the
 * machine had room, connection setup making the p99, a full link to a server past this
 * machine, and the closed model's note (nothing flat: req/s = connections / latency). Each
 * is judged per run from the run's machine and server readings, then over a comparison
 * cell's runs ("in 2 of 3 runs"). A result without machine readings (saved before they
 * existed, merged shards) is judged by the rest alone. Pure.
 */

const pct = (v: number): string => `${fixed(v, 0)}%`;

/** Readings that cover enough core-seconds to read a share to 1 % (VERDICT.machineMinCoreSeconds). */
export function judgedMachine(r: RunResult): MachineFacts | null {
  const m = r.machine;
  return m && m.cores * m.coveredSeconds >= VERDICT.machineMinCoreSeconds ? m : null;
}

/** Idle CPU (iowait too: a core waiting on a disk is free to run) as cores. */
const idleCores = (m: MachineFacts): number => ((m.cpuIdlePercent + m.cpuIowaitPercent) / 100) * m.cores;

/** The generator ran flat out: an engine worker, its whole process or its busiest thread. */
export function generatorFlat(r: RunResult): boolean {
  const cpu = workerCpu(r.generator);
  return (
    cpu.saturated ||
    cpu.busiestMean > VERDICT.clientBoundCpuPercent ||
    r.generator.process?.saturated === true
  );
}

/** The server's busiest process (or, read through node_exporter, its machine) ran flat out; null when not read. */
function serverFlat(r: RunResult): boolean | null {
  const s = r.serverResources;
  if (!s) return null;
  if (s.workers) return s.workers.busiest.cpuPercentMean > VERDICT.serverProcessFlatPercent;
  const busy = s.summary.cpuBusyPercent?.mean;
  return busy === undefined ? null : busy > VERDICT.serverProcessFlatPercent;
}

interface Busy {
  why: 'others' | 'no-idle';
  machine: MachineFacts;
}

function machineBusy(r: RunResult): Busy | null {
  const m = judgedMachine(r);
  if (!m) return null;
  if (m.otherCpuPercent !== null && m.otherCpuPercent / m.cores > VERDICT.machineOtherPercent) {
    return { why: 'others', machine: m };
  }
  const idle = m.cpuIdlePercent + m.cpuIowaitPercent;
  if (idle < VERDICT.machineIdlePercent && !generatorFlat(r) && serverFlat(r) !== true) {
    return { why: 'no-idle', machine: m };
  }
  return null;
}

/** The machine had room: at least VERDICT.roomCorePercent of one core idle. */
const hadRoom = (m: MachineFacts): boolean => idleCores(m) * 100 >= VERDICT.roomCorePercent;

function workerBound(r: RunResult): NonNullable<NonNullable<RunResult['serverResources']>['workers']> | null {
  const m = judgedMachine(r);
  const w = r.serverResources?.workers;
  if (!m || !w || m.serverInGenerator) return null;
  return w.busiest.cpuPercentMean > VERDICT.serverProcessFlatPercent && hadRoom(m) ? w : null;
}

interface Setup {
  p99: number;
  /** The p99 of the requests' own time (total less setup): what the p99 would be without setup. */
  processing: number;
  /** The longest connect + TLS. */
  setupMax: number;
}

/**
 * The p99 with and without connection setup (the native engine times each request's phases).
 * Percentiles do not add: the slowest 1 % can be the few requests that opened a connection,
 * while the setup's own p99, over every request (most reuse one), stays small.
 */
function setupBound(r: RunResult): Setup | null {
  const total = r.phases?.total?.percentiles['99'];
  const processing = r.phases?.processing?.percentiles['99'];
  const setupMax = r.phases?.setup?.max;
  if (total === undefined || processing === undefined || setupMax === undefined || total <= 0) return null;
  if (r.requests.responses < VERDICT.setupMinResponses) return null;
  const share = ((total - processing) / total) * 100;
  return share > VERDICT.setupSharePercent && total - processing >= VERDICT.setupMinMs
    ? { p99: total, processing, setupMax }
    : null;
}

function linkBound(r: RunResult): NonNullable<MachineFacts['link']> | null {
  const link = judgedMachine(r)?.link;
  if (!link) return null;
  const top = Math.max(link.inBitsPerSecond, link.outBitsPerSecond);
  return top / link.bitsPerSecond > VERDICT.linkPercent / 100 ? link : null;
}

/** In flight at once in a closed loop: connections x pipelining. */
function inFlight(r: RunResult): number | null {
  return r.load.model === 'closed' && r.load.rate === null && !r.load.stages
    ? r.load.connections * r.load.pipelining
    : null;
}

function closedNote(r: RunResult): { machine: MachineFacts; inFlight: number; meanMs: number } | null {
  const m = judgedMachine(r);
  const n = inFlight(r);
  const meanMs = r.latency?.mean;
  if (!m || n === null || meanMs === undefined || meanMs <= 0) return null;
  if (machineBusy(r) || generatorFlat(r) || serverFlat(r) !== false || !hadRoom(m)) return null;
  return { machine: m, inFlight: n, meanMs };
}

/** " in 2 of 3 runs" for a cell of several runs where only some had it. */
const runsText = (hits: number, runs: number): string => (runs > 1 ? ` in ${hits} of ${runs} runs` : '');

/** Each rule over the runs: the runs it held in, and the first such run's finding (the worst one for a share). */
function over<T>(
  results: readonly RunResult[],
  rule: (r: RunResult) => T | null,
): { hits: number; first: T } | null {
  let hits = 0;
  let first: T | null = null;
  for (const r of results) {
    const found = rule(r);
    if (found === null) continue;
    hits++;
    first ??= found;
  }
  return first === null ? null : { hits, first };
}

/**
 * Why a run's machine was busy, in a few words with the numbers: "other processes took 93% of
 * its 2 cores (yes (pid 4242) 96.0%, ...)" or "no idle CPU was left (idle 2% of its 2
 * cores)"; null when it was not. The verdict's reason starts with it, a capacity answer cites it.
 */
export function machineBusyWhy(r: RunResult): string | null {
  const busy = machineBusy(r);
  return busy ? busyWhy(busy) : null;
}

function busyWhy({ why, machine: m }: Busy): string {
  const cores = `${m.cores} core${m.cores === 1 ? '' : 's'}`;
  const others = m.otherProcesses.length > 0 ? ` (${otherProcessesText(m.otherProcesses)})` : '';
  return why === 'others'
    ? `other processes took ${pct((m.otherCpuPercent ?? 0) / m.cores)} of its ${cores}${others}`
    : `no idle CPU was left (idle ${pct(m.cpuIdlePercent + m.cpuIowaitPercent)} of its ${cores})`;
}

function busyCaveat(results: readonly RunResult[]): Caveat | null {
  const found = over(results, machineBusy);
  if (!found) return null;
  const { why, machine: m } = found.first;
  const runs = runsText(found.hits, results.length);
  const steal =
    m.cpuStealPercent >= 1
      ? ` The hypervisor took ${pct(m.cpuStealPercent)} (steal): other guests share the host.`
      : '';
  const others = m.otherProcesses.length > 0 ? ` (${otherProcessesText(m.otherProcesses)})` : '';
  const message =
    why === 'others'
      ? `The machine was busy${runs}: ${busyWhy(found.first)}, more than ${VERDICT.machineOtherPercent}%: the figures are this machine's, not the server's.${steal} Close them or wait until they end, then run again, or run the generator on another machine.`
      : `The machine was busy${runs}: ${busyWhy(found.first)} while neither the generator nor the server was flat: they${m.otherProcesses.length > 0 ? ` and other processes${others}` : ''} shared the cores, so the figures are this machine's.${steal} Run the generator on another machine, or give the server and the generator cores of their own (taskset).`;
  return {
    code: 'machine-busy',
    severity: 'bad',
    label: 'machine busy',
    message,
    figures: ['throughput', 'latency'],
  };
}

function workerCaveat(results: readonly RunResult[]): Caveat | null {
  const found = over(results, workerBound);
  if (!found) return null;
  const w = found.first;
  const m = judgedMachine(results.find((r) => workerBound(r) !== null)!)!;
  return {
    code: 'server-worker-bound',
    severity: 'bad',
    label: 'server worker-bound',
    message: `One server process was the limit${runsText(found.hits, results.length)}: busiest worker ${pct(w.busiest.cpuPercentMean)} (${w.busiest.name}, pid ${w.busiest.pid}), ${w.busy} of ${w.count} busy, while the machine had ${fixed(idleCores(m), 1)} of its ${m.cores} cores idle: a limit of the server's configuration, not of its software. Give it more workers or threads (nginx worker_processes, Apache's MPM, a cluster of Node processes), then run again.`,
    figures: ['throughput', 'latency'],
  };
}

function setupCaveat(results: readonly RunResult[]): Caveat | null {
  const found = over(results, setupBound);
  if (!found) return null;
  const s = found.first;
  const keepAlive = results[0]?.options.keepAlive !== false;
  const fix = keepAlive
    ? 'Warm up (--warmup) so the connections are open before measuring, or open fewer connections'
    : 'Keep connections open (keep-alive is off: every request opens one), or warm up (--warmup)';
  return {
    code: 'setup-bound',
    severity: 'bad',
    label: 'setup-bound',
    message: `Connection setup was most of the p99${runsText(found.hits, results.length)}: p99 ${formatMs(s.p99)}, ${formatMs(s.processing)} without it: the slowest requests were those that opened a connection (connect + TLS up to ${formatMs(s.setupMax)}), so the latency measures handshakes, not the page. ${fix}.`,
    figures: ['latency'],
  };
}

function linkCaveat(results: readonly RunResult[]): Caveat | null {
  const found = over(results, linkBound);
  if (!found) return null;
  const l = found.first;
  const dir = l.inBitsPerSecond >= l.outBitsPerSecond ? 'received' : 'sent';
  const top = Math.max(l.inBitsPerSecond, l.outBitsPerSecond);
  const of = l.from === 'shaper' ? 'its traffic shaper' : 'its speed';
  return {
    code: 'link-bound',
    severity: 'bad',
    label: 'link-bound',
    message: `The link was the limit${runsText(found.hits, results.length)}: ${l.device} ${dir} ${bitsText(top)} of the ${bitsText(l.bitsPerSecond)} ${of} allows (${pct((top / l.bitsPerSecond) * 100)}): the figures are the network's, not the server's. Use a faster link, smaller responses (compression), or run the generator nearer the server.`,
    figures: ['throughput', 'latency'],
  };
}

function closedCaveat(results: readonly RunResult[]): Caveat | null {
  // A note only when every run has it: one flat run makes its figures that side's limit.
  const notes = results.map(closedNote);
  const first = notes[0];
  if (!first || notes.some((n) => n === null)) return null;
  const r = results[0]!;
  const predicted = (first.inFlight / first.meanMs) * 1000;
  const idle = fixed(idleCores(first.machine), 1);
  return {
    code: 'closed-model',
    severity: 'warn',
    label: 'closed model',
    message: `Closed model: nothing was flat and the machine had room (${idle} of its ${first.machine.cores} cores idle), so req/s here is connections / latency: ${formatCount(first.inFlight)} in flight / ${formatMs(first.meanMs)} = ${formatCount(Math.round(predicted))} req/s (measured ${formatCount(Math.round(r.throughput.requestsPerSecond))}). More connections would send more; to find what the server holds, raise the connections or run a capacity search.`,
  };
}

/** The limits over these runs (a run's one, or a cell's counted repetitions). */
export function limitCaveats(results: readonly RunResult[]): Caveat[] {
  return [busyCaveat, workerCaveat, linkCaveat, setupCaveat, closedCaveat]
    .map((rule) => rule(results))
    .filter((c): c is Caveat => c !== null);
}
