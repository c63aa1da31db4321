import { loadSeconds, scheduledRate } from '../../../shared/stages/load-plan.ts';
import { peakTarget, stagesSeconds } from '../../../shared/model/stages.ts';
import { sentRate } from '../result.ts';
import { clientLimitWarning } from '../limits.ts';
import type { Warning } from '../../../shared/model/result.ts';
import { Recorder } from '../recording/recorder.ts';
import type {
  PreparedRun,
  PrepareHints,
  LoadGenerator,
  LoadGeneratorContext,
  LoadOutcome,
  RunSpec,
} from '../types.ts';
import { ClosedDriver } from './drivers/closed-driver.ts';
import { createDialer } from './socket/dial.ts';
import { warmResponsePath } from './hot-path-warmup.ts';
import { warmClients, watchedDialer, type WarmStock } from './drivers/warm-phase.ts';
import { warmConnections, warmDeadline } from './drivers/warm-pool.ts';
import { OpenDriver, LATE_TOLERANCE_MS, MAX_OPENING, type OpenOutcome } from './drivers/open-driver.ts';
import { fixedRateSchedule, stagedSchedule } from './drivers/open-schedule.ts';
import { notSentWarnings } from './request-bytes.ts';
import { RequestLedger } from './run-state.ts';
import {
  clientFactory,
  depthOf,
  originPools,
  originsOf,
  type ClientFactory,
  type Origins,
} from './run-clients.ts';
import { UrlRecorder } from '../recording/url-recorder.ts';
import { StageHistograms } from './stage-histograms.ts';
import { NATIVE_ENGINE_VERSION } from './version.ts';

/**
 * The native load generator: HTTP/1.1 and HTTP/2 on raw net/tls sockets, in the
 * closed model (connections x pipelining, duration or request count, optional rate cap) and
 * the open model (fixed schedule, latency from the intended send time), with per-request
 * timing phases.
 */
export const nativeLoadGenerator: LoadGenerator = {
  name: 'native',
  version: NATIVE_ENGINE_VERSION,
  run: (ctx) => prepareNative(ctx.spec, null, ctx.signal).then((p) => p.run(ctx)),
  prepare: (spec, hints, signal) => prepareNative(spec, hints, signal),
};

/**
 * Builds the run's requests, dialer and clients; with `hints` (a shard before the common
 * start), the open model's pool is opened too, TLS handshakes done (drivers/warm-phase.ts), so its
 * schedule starts on open connections.
 */
async function prepareNative(
  spec: RunSpec,
  hints: PrepareHints | null,
  signal: AbortSignal,
): Promise<PreparedRun> {
  const { load, options } = spec;
  // Once per run: the warm phase's test and the pools both need them.
  const groups = originsOf(spec);
  // Without keep-alive every request opens its own connection: there is no pool to open ahead.
  // A list over several origins opens each slot's connections as its requests come (origin-slot.ts).
  if (load.model !== 'open' || !options.keepAlive || hints === null || groups.origins.length > 1) {
    return { warm: null, run: (ctx) => runNative(ctx, groups, null) };
  }
  // The clients' ledger until run() sets the run's own (no request goes out before).
  const placeholder = new RequestLedger(new Recorder({ sloMs: null, warmup: true, now: performance.now() }), {
    clock: 'intended',
    corrected: false,
    timeoutMs: options.timeoutMs,
  });
  const watched = watchedDialer(createDialer(spec, alpnOf(spec)));
  const factory = clientFactory(spec, placeholder);
  const pools = originPools(spec, groups, alpnOf(spec), depthOf(spec), factory, watched);
  const rate = load.stages ? peakTarget(load.stages) : load.rate;
  const wanted = warmConnections({
    rate,
    roundTripMs: hints.roundTripMs,
    maxInFlight: load.maxInFlight,
    perConnection: depthOf(spec),
  });
  const deadline = warmDeadline(options.timeoutMs, spec.placement?.startAt ?? null, Date.now());
  const opening = warmClients({
    connections: wanted,
    deadlineMs: deadline.ms,
    make: pools.makeClient,
    dialer: watched,
    signal,
  });
  // While the connections open: HTTP/2's answers take another path (its frames), not warmed here.
  if (options.protocol !== 'h2') warmResponsePath(rate, options.timeoutMs);
  const o = await opening;
  const warm = {
    seconds: o.seconds,
    wanted,
    ready: o.ready,
    roundTripMs: hints.roundTripMs,
    ...(deadline.byStart && o.ready < wanted ? { cutAtStart: true as const } : {}),
  };
  return { warm, run: (ctx) => runNative(ctx, groups, { factory, pools, stock: o.stock }) };
}

const alpnOf = (spec: RunSpec): string[] => (spec.options.protocol === 'h2' ? ['h2'] : ['http/1.1']);

/** What the warm phase made before the run: its clients' factory and pool, and the warm clients. */
interface Prepared {
  factory: ClientFactory;
  pools: ReturnType<typeof originPools>;
  stock: WarmStock;
}

async function runNative(
  ctx: LoadGeneratorContext,
  groups: Origins,
  prepared: Prepared | null,
): Promise<LoadOutcome> {
  const { spec, recorder, signal } = ctx;
  const { load, options } = spec;
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
    ...(spec.target.requests ? { urls: new UrlRecorder(spec.target.requests) } : {}),
  });
  // Every client (the warm ones too: none has sent anything) books into the run's ledger.
  const factory = prepared?.factory ?? clientFactory(spec, state);
  factory.useLedger(state);
  const { makeClient, dialers, opened } =
    prepared?.pools ?? originPools(spec, groups, alpnOf(spec), depthOf(spec), factory);
  const stock = prepared?.stock ?? null;
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
    await ctx.startGate();
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
    await ctx.startGate();
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
    tls: dialers.find((d) => d.tlsFacts !== null)?.tlsFacts ?? null,
    ...(opened === null ? {} : { originConnections: opened }),
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
      urls: state.urls?.counts() ?? null,
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
      `${o.heldBack.openingCap} found ${MAX_OPENING} new connections still opening, none answered yet (the engine opens at most ${MAX_OPENING} at once)`,
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
