import { loadSeconds, scheduledRate } from '../../../shared/stages/load-plan.ts';
import { peakTarget, stagesSeconds } from '../../../shared/stages/stages.ts';
import { sentRate } from '../result.ts';
import { clientLimitWarning } from '../limits.ts';
import type { Warning } from '../../../shared/model/result.ts';
import { Recorder } from '../recorder.ts';
import type { PreparedRun, PrepareHints, Runner, RunnerContext, RunnerOutcome, RunSpec } from '../types.ts';
import { ClosedDriver } from './closed-driver.ts';
import { createDialer, type Dialer } from './dial.ts';
import { warmClients, watchedDialer, type WarmStock } from './warm-phase.ts';
import { warmConnections, WARM_DEADLINE_MS } from './warm-pool.ts';
import { Http1Client, type Http1Config } from './http1-client.ts';
import { Http2Client, type Http2Config } from './http2-client.ts';
import { OpenDriver, LATE_TOLERANCE_MS, MAX_OPENING, type OpenOutcome } from './open-driver.ts';
import { fixedRateSchedule, stagedSchedule } from './open-schedule.ts';
import { http1Request, http2Request, notSentWarnings, type NotSent } from './request-bytes.ts';
import { RequestLedger, type Client, type ClientOwner } from './run-state.ts';
import { RequestChooser, runRequests } from '../request-list.ts';
import { encodeRequestBlock } from './hpack-encoder.ts';
import { h2ListRequest } from './h2-exchange.ts';
import { StageHistograms } from './stage-histograms.ts';
import { NATIVE_RUNNER_VERSION } from './version.ts';

/**
 * The native runner: HTTP/1.1 and HTTP/2 on raw net/tls sockets, in the
 * closed model (connections x pipelining, duration or request count, optional rate cap) and
 * the open model (fixed schedule, latency from the intended send time), with per-request
 * timing phases.
 */
export const nativeRunner: Runner = {
  name: 'native',
  version: NATIVE_RUNNER_VERSION,
  run: (ctx) => prepareNative(ctx.spec, null, ctx.signal).then((p) => p.run(ctx)),
  prepare: (spec, hints, signal) => prepareNative(spec, hints, signal),
};

/**
 * Builds the run's requests, dialer and clients; with `hints` (a shard before the common
 * start), the open model's pool is opened too, TLS handshakes done (warm-phase.ts), so its
 * schedule starts on open connections.
 */
async function prepareNative(
  spec: RunSpec,
  hints: PrepareHints | null,
  signal: AbortSignal,
): Promise<PreparedRun> {
  const { load, options } = spec;
  const dialer = createDialer(spec, options.protocol === 'h2' ? ['h2'] : ['http/1.1']);
  // Without keep-alive every request opens its own connection: there is no pool to open ahead.
  if (load.model !== 'open' || !options.keepAlive || hints === null) {
    return { warm: null, run: (ctx) => runNative(ctx, { dialer, factory: null, stock: null }) };
  }
  // The clients' ledger until run() sets the run's own (no request goes out before).
  const placeholder = new RequestLedger(new Recorder({ sloMs: null, warmup: true, now: performance.now() }), {
    clock: 'intended',
    corrected: false,
    timeoutMs: options.timeoutMs,
  });
  const watched = watchedDialer(dialer);
  const factory = clientFactory(spec, placeholder, watched);
  const wanted = warmConnections({
    rate: load.stages ? peakTarget(load.stages) : load.rate,
    roundTripMs: hints.roundTripMs,
    maxInFlight: load.maxInFlight,
    perConnection: depthOf(spec),
  });
  const o = await warmClients({
    connections: wanted,
    deadlineMs: Math.min(WARM_DEADLINE_MS, options.timeoutMs),
    make: factory.make,
    dialer: watched,
    signal,
  });
  const warm = { seconds: o.seconds, wanted, ready: o.ready, roundTripMs: hints.roundTripMs };
  return { warm, run: (ctx) => runNative(ctx, { dialer, factory, stock: o.stock }) };
}

/**
 * Requests a client carries at once. Open model: one per HTTP/1.1 connection (the pool grows
 * instead); HTTP/2 sessions carry up to maxInFlight streams. Closed model: `pipelining` per
 * connection. Without keep-alive a connection carries one request, then closes.
 */
function depthOf({ load, options }: RunSpec): number {
  const h2 = options.protocol === 'h2';
  if (load.model === 'open') return h2 ? load.maxInFlight : 1;
  return options.keepAlive || h2 ? load.pipelining : 1;
}

function clientFactory(spec: RunSpec, state: RequestLedger, dialer: Dialer): ClientFactory {
  const depth = depthOf(spec);
  return spec.options.protocol === 'h2'
    ? http2Factory(spec, state, dialer, depth)
    : http1Factory(spec, state, dialer, depth);
}

interface Prepared {
  dialer: Dialer;
  /** The clients' factory when the warm phase made clients already; null: run() makes it. */
  factory: ClientFactory | null;
  /** The warm clients for the open model's pool; null without a warm phase. */
  stock: WarmStock | null;
}

async function runNative(ctx: RunnerContext, prepared: Prepared): Promise<RunnerOutcome> {
  const { spec, recorder, signal } = ctx;
  const { load, options } = spec;
  const { dialer, stock } = prepared;
  // Without a warm-up, measuring has begun (the promise is already resolved) and the limit
  // counts from the first request.
  const warmupDone = ctx.warmupSeconds > 0 ? ctx.warmupDone : null;
  if (warmupDone === null) await ctx.warmupDone;
  const h2 = options.protocol === 'h2';
  const open = load.model === 'open';
  const state = new RequestLedger(recorder, {
    clock: open ? 'intended' : 'start',
    corrected: load.model === 'closed' && load.rate !== null,
    timeoutMs: options.timeoutMs,
    ...(load.stages ? { stages: new StageHistograms(load.stages, load.model) } : {}),
  });
  // Every client (the warm ones too: none has sent anything) books into the run's ledger.
  const factory = prepared.factory ?? clientFactory(spec, state, dialer);
  factory.config.state = state;
  const makeClient = factory.make;
  const warnings: Warning[] = notSentWarnings(factory.notSent);
  if (!options.keepAlive && !h2 && load.model === 'closed' && load.pipelining > 1) {
    warnings.push({
      code: 'engine-limit',
      message: 'pipelining needs keep-alive: without keep-alive each connection carries one request',
    });
  }

  let attackSeconds: number | null = null;
  let waitSeconds: number | null = null;
  let dropped: number | null = null;
  let loadEndedAt: number;
  if (open) {
    const driver = new OpenDriver(
      {
        schedule: load.stages
          ? stagedSchedule(load.stages, ctx.schedule?.arrivalPhase)
          : fixedRateSchedule(load.rate),
        durationMs: (loadSeconds(load) ?? load.durationSeconds) * 1000,
        maxInFlight: load.maxInFlight,
        timeoutMs: options.timeoutMs,
        warm: stock,
      },
      state,
      makeClient,
    );
    const o = await driver.run(signal, warmupDone, ctx.schedule ?? null);
    stock?.close();
    loadEndedAt = performance.now();
    attackSeconds = o.attackSeconds;
    waitSeconds = o.waitSeconds;
    dropped = o.dropped;
    // Measured figures only: warm-up sends would inflate the rate over a measured attack.
    // The same rate as the result's, so the warning and the report agree.
    const { sent, late } = recorder.totals;
    if (o.dropped > 0 || late > 0.01 * Math.max(1, sent)) {
      warnings.push({
        code: 'rate-not-reached',
        message: rateNotReached(
          scheduledRate(load) ?? load.rate,
          sentRate(sent, attackSeconds, 0),
          late,
          o,
          load.maxInFlight,
        ),
      });
    }
  } else {
    const driver = new ClosedDriver(
      {
        connections: load.connections,
        limit: load.stages
          ? { kind: 'duration', ms: stagesSeconds(load.stages) * 1000 }
          : load.limit.kind === 'duration'
            ? { kind: 'duration', ms: load.limit.seconds * 1000 }
            : { kind: 'requests', count: load.limit.count },
        rate: load.rate,
        stages: load.stages ?? null,
        timeoutMs: options.timeoutMs,
      },
      state,
      makeClient,
    );
    await driver.run(signal, warmupDone, ctx.schedule ?? null);
    loadEndedAt = performance.now();
  }

  const connections =
    load.model === 'open' ? load.maxInFlight : load.stages ? peakTarget(load.stages) : load.connections;
  for (const [limit, failures] of state.limitHits) {
    warnings.push(clientLimitWarning(limit, failures, connections));
  }

  return {
    loadEndedAt,
    tls: dialer.tlsFacts,
    httpVersion: state.httpVersion,
    attackSeconds,
    waitSeconds,
    dropped,
    correctedLatency: state.correctedLatency(),
    phases: state.phases.stats(),
    shardParts: () => ({
      phases: state.phases.buckets(),
      corrected: state.correctedBuckets(),
      stages: state.stages?.counts() ?? null,
    }),
    stages: state.stages?.results() ?? null,
    warnings,
  };
}

/** Says how far the open model fell behind its schedule, and which limit held it back. */
function rateNotReached(
  rate: number,
  sentRate: number,
  late: number,
  o: OpenOutcome,
  maxInFlight: number,
): string {
  const held: string[] = [];
  if (o.heldBack.openingCap > 0) {
    held.push(
      o.openingLimit === MAX_OPENING
        ? `${o.heldBack.openingCap} found ${MAX_OPENING} new connections still opening, none answered yet (the engine opens at most ${MAX_OPENING} at once)`
        : `${o.heldBack.openingCap} found ${o.openingLimit} new connections still opening (the engine opens at most as many at once as have answered)`,
    );
  }
  if (o.heldBack.inFlightCap > 0) {
    held.push(`${o.heldBack.inFlightCap} found the in-flight cap of ${maxInFlight} reached`);
  }
  const why =
    held.length > 0
      ? `requests due found no free slot: ${held.join('; ')}`
      : 'no limit held requests back: the generator could not keep the schedule';
  return (
    `target ${rate} req/s, sent ${sentRate.toFixed(1)} req/s over the schedule: ${late} requests went out more than ` +
    `${LATE_TOLERANCE_MS} ms late and ${o.dropped} were never sent; ${why}. Latency is measured from the scheduled time`
  );
}

/** Pipelined copies of a request are kept in one buffer up to this size (else written one by one). */
const MAX_PIPELINED_BYTES = 1024 * 1024;

interface ClientFactory {
  make: (owner: ClientOwner) => Client;
  /** What every client shares; its ledger is a placeholder until the run sets its own. */
  config: { state: RequestLedger };
  /** The user's headers the request goes without. */
  notSent: NotSent[];
}

function http1Factory(
  spec: RunSpec,
  state: RequestLedger,
  dialer: Http1Config['dialer'],
  depth: number,
): ClientFactory {
  const opts = { keepAlive: spec.options.keepAlive, appVersion: spec.appVersion };
  const all = runRequests(spec).map((r) => http1Request(r.target, r.body, opts));
  const request = all[0]!;
  const list =
    spec.target.requests === undefined ? null : { requests: all, chooser: new RequestChooser(spec) };
  const copies =
    list === null && depth > 1 && request.body === null && depth * request.length <= MAX_PIPELINED_BYTES;
  const cfg: Http1Config = {
    state,
    dialer,
    request,
    requests: copies ? Buffer.concat(Array.from({ length: depth }, () => request.bytes)) : null,
    list,
    depth,
    keepAlive: spec.options.keepAlive,
    // A list is all HEAD or none (shared/model/request-list.ts).
    headRequests: runRequests(spec)[0]!.target.method === 'HEAD',
  };
  return { make: (owner) => new Http1Client(cfg, owner), config: cfg, notSent: uniqueNotSent(all) };
}

/** The headers left out of any request of the run, each said once. */
function uniqueNotSent(requests: readonly { notSent: NotSent[] }[]): NotSent[] {
  const seen = new Map<string, NotSent>();
  for (const r of requests) for (const n of r.notSent) seen.set(`${n.header}\n${n.why}`, n);
  return [...seen.values()];
}

function http2Factory(
  spec: RunSpec,
  state: RequestLedger,
  dialer: Http2Config['dialer'],
  depth: number,
): ClientFactory {
  const runs = runRequests(spec);
  const all = runs.map((r) => http2Request(r.target, r.body, spec.appVersion));
  const list =
    spec.target.requests === undefined
      ? null
      : {
          requests: all.map((r, j) => h2ListRequest(j, encodeRequestBlock(r.fields), runs[j]!.body)),
          chooser: new RequestChooser(spec),
        };
  const cfg: Http2Config = {
    state,
    dialer,
    fields: all[0]!.fields,
    body: runs[0]!.body,
    list,
    streams: depth,
    keepAlive: spec.options.keepAlive,
  };
  return { make: (owner) => new Http2Client(cfg, owner), config: cfg, notSent: uniqueNotSent(all) };
}
