import { Recorder } from '../../electron/engine/recording/recorder.ts';
import { recorderReport } from '../../electron/engine/recording/recorder-report.ts';
import type { TargetFacts } from '../../electron/engine/result.ts';
import { SATURATED_CPU_PERCENT } from '../../electron/engine/result.ts';
import { plannedEngine } from '../../electron/engine/load-generators.ts';
import { buildRunResult } from '../../electron/engine/shards/results.ts';
import { LATE_TOLERANCE_MS } from '../../electron/engine/native/drivers/open-driver.ts';
import { fixedRateSchedule, stagedSchedule } from '../../electron/engine/native/drivers/open-schedule.ts';
import {
  PhaseHistograms,
  RESPONSE_TIMES,
  T_DONE,
  T_FIRST_BYTE,
  T_START,
  T_WRITTEN,
} from '../../electron/engine/native/phases.ts';
import { StageHistograms } from '../../electron/engine/native/stage-histograms.ts';
import { emptyOutcome, type RunSpec } from '../../electron/engine/types.ts';
import { UrlRecorder } from '../../electron/engine/recording/url-recorder.ts';
import {
  addSample,
  type ErrorKind,
  type RunResult,
  type Sample,
  type Warning,
} from '../../shared/model/result.ts';
import { peakTarget, stagesSeconds, targetAt } from '../../shared/model/stages.ts';

/**
 * How a scripted server answers each request of a run (scripted-engine.ts): every one alike.
 * Defaults: 4, 5 and 6 ms in turn, status 200, the pre-flight's document length.
 */
export interface ServerScript {
  /** Each response's time in ms from its send, in turn (the open model adds the wait for a slot). */
  latencyMs?: readonly number[];
  status?: number;
  bodyBytes?: number;
  /** Every request fails with this error instead of an answer. */
  error?: { kind: ErrorKind; message: string };
  /** The generator's CPU in every window, percent of a core per engine worker. */
  cpuPercent?: number;
}

/** A simulated run: its samples as the engine sends them, and its result. */
export interface SimulatedLoad {
  /** Every sample in the order sent; a final one folded into its window repeats that window's seq. */
  readonly sent: readonly Sample[];
  /** The result, its samples those of `sent` (a fold replacing its window). */
  result(status: 'completed' | 'cancelled'): RunResult;
}

const REQUEST_HEAD_BYTES = 90;
const RESPONSE_HEAD_BYTES = 120;

/** A min-heap of lanes by the time each is free. */
class Lanes {
  readonly free: number[];
  readonly #heap: number[];

  constructor(count: number) {
    this.free = new Array<number>(count).fill(0);
    this.#heap = Array.from({ length: count }, (_, i) => i);
  }

  get size(): number {
    return this.#heap.length;
  }

  pop(): number {
    const h = this.#heap;
    const top = h[0]!;
    const last = h.pop()!;
    if (h.length > 0) {
      h[0] = last;
      for (let i = 0; ;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < h.length && this.free[h[l]!]! < this.free[h[m]!]!) m = l;
        if (r < h.length && this.free[h[r]!]! < this.free[h[m]!]!) m = r;
        if (m === i) break;
        [h[i], h[m]] = [h[m]!, h[i]!];
        i = m;
      }
    }
    return top;
  }

  push(lane: number, freeAt: number): void {
    this.free[lane] = freeAt;
    const h = this.#heap;
    h.push(lane);
    for (let i = h.length - 1; i > 0;) {
      const p = (i - 1) >> 1;
      if (this.free[h[p]!]! <= this.free[h[i]!]!) break;
      [h[i], h[p]] = [h[p]!, h[i]!];
      i = p;
    }
  }
}

interface InFlight {
  /** When it was due (the open model's schedule, or its send) and sent, ms after the start. */
  due: number;
  sentAt: number;
  doneAt: number;
  /** Its place in the target's list of requests (0 without one). */
  request: number;
  /** It opened its connection. */
  opened: boolean;
}

/**
 * The load of `spec` against a server answering as `script`, simulated on a virtual clock:
 * each request is sent and answered when a real server answering so would, and counted by the
 * engine's own recorders (Recorder, PhaseHistograms, StageHistograms, UrlRecorder), so its
 * samples and result are made by the engine's own code. No socket and no wall clock: the same
 * spec and script give the same figures. `stopAtMs` ends the load there (a stopped run).
 */
export function simulateLoad(
  spec: RunSpec,
  facts: TargetFacts,
  script: ServerScript,
  opts: { startedAt: Date; stopAtMs?: number },
): SimulatedLoad {
  const { load, options } = spec;
  const latencies = script.latencyMs ?? [4, 5, 6];
  const status = script.status ?? 200;
  const body = script.bodyBytes ?? facts.server.documentLength ?? 0;
  const workers = options.workers === 'auto' ? 1 : options.workers;
  const cpu = script.cpuPercent ?? 20;
  const tickMs = options.sampleIntervalMs;
  const warmupMs = options.warmupSeconds * 1000;
  const stopAt = opts.stopAtMs ?? Infinity;
  const outBody = spec.body?.length ?? 0;
  const list = spec.target.requests;

  const recorder = new Recorder({ sloMs: options.sloMs, warmup: warmupMs > 0, now: 0 });
  const phases = new PhaseHistograms();
  const stages = load.stages ? new StageHistograms(load.stages, load.model) : null;
  stages?.begin(0);
  const urls = list ? new UrlRecorder(list) : null;
  const sent: Sample[] = [];
  let nextTick = Math.min(tickMs, warmupMs > 0 ? warmupMs : tickMs);

  /** Closes every window that ends by `t`; the warm-up's end closes one of its own, as the engine's does. */
  const advanceTo = (t: number): void => {
    while (t >= nextTick) {
      sent.push(recorder.tick(nextTick, cpu * workers));
      if (!recorder.measuring && nextTick >= warmupMs) {
        recorder.startMeasuring();
        nextTick = warmupMs + tickMs;
      } else {
        nextTick += tickMs;
      }
    }
  };
  let answered = 0;
  const times = new Float64Array(RESPONSE_TIMES);
  const answer = (r: InFlight): void => {
    advanceTo(r.doneAt);
    recorder.inFlight--;
    const measured = recorder.measuring;
    if (script.error) {
      recorder.error(script.error.kind, script.error.message);
      stages?.failed(r.doneAt);
      if (measured) urls?.failed(r.request, script.error.kind);
      return;
    }
    const latencyUs = Math.round((r.doneAt - r.due) * 1000);
    if (status >= 200 && status < 300) recorder.noteDocument(facts.server.software, body);
    const total = body + RESPONSE_HEAD_BYTES;
    // A list's Length check is its URL's, as the engine's (native/run-state.ts).
    if (urls && measured) recorder.response(status, latencyUs, body, total, urls.documentLength(r.request));
    else recorder.response(status, latencyUs, body, total);
    stages?.response(status, latencyUs, r.sentAt);
    if (!measured) return;
    urls?.response(r.request, status, latencyUs, body, total);
    // Written at the send, the first byte at 80% of the service time; a connection it opened
    // took 0.35 ms before it (the total counts from the opening).
    const service = r.doneAt - r.sentAt;
    times[T_START] = r.opened ? r.sentAt - 0.35 : r.sentAt;
    times[T_WRITTEN] = r.sentAt;
    times[T_FIRST_BYTE] = r.sentAt + service * 0.8;
    times[T_DONE] = r.doneAt;
    if (r.opened) phases.newConnection({ dnsMs: 0, connectMs: 0.05, tlsMs: facts.tls ? 0.3 : null }, times);
    else phases.reusedConnection(times);
    answered++;
  };
  let sends = 0;
  const send = (due: number, at: number, opened: boolean): InFlight => {
    const latency = latencies[sends % latencies.length]!;
    const r: InFlight = {
      due,
      sentAt: at,
      doneAt: at + latency,
      request: list ? sends % list.length : 0,
      opened,
    };
    sends++;
    recorder.started();
    recorder.sent(outBody, outBody + REQUEST_HEAD_BYTES);
    return r;
  };

  let endMs: number;
  const outcome = {
    attackSeconds: null as number | null,
    waitSeconds: null as number | null,
    dropped: null as number | null,
  };
  const warnings: Warning[] = [];
  if (load.model === 'closed') {
    const level = load.stages ? peakTarget(load.stages) : load.connections;
    const lanes = new Lanes(Math.max(1, level) * load.pipelining);
    const flights: (InFlight | null)[] = new Array<InFlight | null>(lanes.size).fill(null);
    const opened = new Array<boolean>(lanes.size).fill(false);
    const until = load.stages
      ? stagesSeconds(load.stages) * 1000
      : load.limit.kind === 'duration'
        ? warmupMs + load.limit.seconds * 1000
        : Infinity;
    const count = !load.stages && load.limit.kind === 'requests' ? load.limit.count : Infinity;
    const interval = load.rate === null ? 0 : 1000 / load.rate;
    let measuredSends = 0;
    endMs = Math.min(until, stopAt);
    let lastDone = 0;
    while (lanes.size > 0) {
      const lane = lanes.pop();
      const free = lanes.free[lane]!;
      const flight = flights[lane];
      if (flight) {
        if (flight.doneAt > endMs) continue;
        answer(flight);
        lastDone = flight.doneAt;
        flights[lane] = null;
      }
      const at = Math.max(free, interval * sends);
      if (at >= endMs || measuredSends >= count) continue;
      if (load.stages && lane >= Math.ceil(targetAt(load.stages, at / 1000)) * load.pipelining) {
        // Not carrying load at this point of the stages: look again a tick later.
        lanes.push(lane, at + tickMs);
        continue;
      }
      if (recorder.measuring) measuredSends++;
      const fresh = !opened[lane] || !options.keepAlive;
      opened[lane] = true;
      const r = send(at, at, fresh);
      flights[lane] = r;
      lanes.push(lane, r.doneAt);
    }
    // A request-count run ends with its last answer; a timed or stopped one at its end.
    if (count !== Infinity && endMs === Infinity) endMs = lastDone;
    if (endMs === Infinity) endMs = lastDone;
  } else {
    const schedule = load.stages ? stagedSchedule(load.stages) : fixedRateSchedule(load.rate);
    const endAt = warmupMs + (load.stages ? stagesSeconds(load.stages) : load.durationSeconds) * 1000;
    const total = schedule.countBefore(endAt);
    const slowest = Math.max(...latencies);
    const lanes = new Lanes(
      Math.max(1, Math.min(load.maxInFlight, Math.ceil((schedule.peakRate * slowest) / 1000) + 2)),
    );
    const flights: (InFlight | null)[] = new Array<InFlight | null>(lanes.size).fill(null);
    const opened = new Array<boolean>(lanes.size).fill(false);
    let firstMeasured = -1;
    let lastSend = 0;
    let dropped = 0;
    let late = 0;
    for (let k = 0; k < total; k++) {
      const due = schedule.dueAt(k);
      if (due >= stopAt) break;
      const lane = lanes.pop();
      const flight = flights[lane];
      if (flight) answer(flight);
      flights[lane] = null;
      const at = Math.max(due, lanes.free[lane]!);
      if (at > endAt + LATE_TOLERANCE_MS || at >= stopAt) {
        // No slot freed in time: the rest of the schedule was never sent.
        dropped = total - k;
        lanes.push(lane, lanes.free[lane]!);
        break;
      }
      advanceTo(at);
      if (at - due > LATE_TOLERANCE_MS) {
        recorder.late(1);
        late++;
      }
      recorder.sentLate(Math.round((at - due) * 1000));
      if (firstMeasured < 0 && recorder.measuring) firstMeasured = Math.max(due, warmupMs);
      const r = send(due, at, !opened[lane]);
      opened[lane] = true;
      lastSend = at;
      flights[lane] = r;
      lanes.push(lane, r.doneAt);
    }
    // The answers still due come in, then the load ends (a stopped run ends at its stop).
    let lastDone = lastSend;
    while (lanes.size > 0) {
      const lane = lanes.pop();
      const flight = flights[lane];
      if (!flight || flight.doneAt > stopAt) continue;
      answer(flight);
      lastDone = Math.max(lastDone, flight.doneAt);
    }
    endMs = Math.min(stopAt, Math.max(lastDone, dropped > 0 ? endAt : 0));
    const attackEnd = dropped > 0 ? Math.max(lastSend, endAt) : lastSend;
    outcome.attackSeconds = Math.max(0, attackEnd - Math.max(0, firstMeasured)) / 1000;
    outcome.waitSeconds = Math.max(0, endMs - attackEnd) / 1000;
    outcome.dropped = dropped;
    if (dropped > 0 || late > 0.01 * Math.max(1, recorder.totals.sent)) {
      const rate = load.stages ? peakTarget(load.stages) : load.rate;
      warnings.push({
        code: 'rate-not-reached',
        message:
          `target ${rate} req/s, sent ${(recorder.totals.sent / Math.max(outcome.attackSeconds, 1e-3)).toFixed(1)} req/s ` +
          `over the schedule: ${late} requests went out more than ${LATE_TOLERANCE_MS} ms late and ${dropped} were never sent; ` +
          `requests due found no free slot: ${late + dropped} found the in-flight cap of ${load.maxInFlight} reached. ` +
          'Latency is measured from the scheduled time',
      });
    }
  }
  advanceTo(endMs - 1e-6);
  sent.push(recorder.tick(endMs, cpu * workers, true));
  const samples: Sample[] = [];
  for (const s of sent) addSample(samples, s);

  const report = recorderReport(
    recorder,
    emptyOutcome({
      ...outcome,
      tls: facts.tls,
      httpVersion: facts.server.httpVersion ?? '1.1',
      warnings,
      shardParts: () => ({
        phases: answered > 0 ? phases.buckets() : null,
        corrected: null,
        stages: stages?.counts() ?? null,
        urls: urls?.counts() ?? null,
      }),
    }),
  );
  const workerCpu = Array.from({ length: workers }, () => ({
    mean: cpu,
    max: cpu,
    saturated: cpu >= SATURATED_CPU_PERCENT,
  }));
  return {
    sent,
    result: (runStatus) =>
      buildRunResult({
        spec,
        status: runStatus,
        error: null,
        startedAt: opts.startedAt,
        endedAt: new Date(opts.startedAt.getTime() + endMs),
        measuredSeconds: Math.max(0, endMs - warmupMs) / 1000,
        reports: [report],
        samples,
        engine: plannedEngine(options),
        tls: facts.tls,
        server: facts.server,
        ...(workers > 1 ? { workerCpu } : {}),
      }),
  };
}
