import type { Warning } from '../../../shared/model/result.ts';
import { loadSeconds, scheduledRate } from '../../../shared/stages/load-plan.ts';
import { peakTarget, stagesSeconds } from '../../../shared/stages/stages.ts';
import { sentRate } from '../result.ts';
import { clientLimitWarning } from '../limits.ts';
import type { Runner, RunnerContext, RunnerOutcome, RunSpec } from '../types.ts';
import { ClosedDriver } from './closed-driver.ts';
import { createDialer, type Dialer } from './dial.ts';
import { Http1Client, type Http1Config } from './http1-client.ts';
import { Http2Client, type Http2Config } from './http2-client.ts';
import { OpenDriver, LATE_TOLERANCE_MS, MAX_OPENING, type OpenOutcome } from './open-driver.ts';
import { fixedRateSchedule, stagedSchedule } from './open-schedule.ts';
import { http1Request, http2Request, notSentWarnings, type NotSent } from './request-bytes.ts';
import { UrlRecorder } from '../url-recorder.ts';
import { RequestLedger, type Client, type ClientOwner } from './run-state.ts';
import { RequestChooser, runRequests, specOfRequest } from '../request-list.ts';
import { originGroups } from '../../../shared/model/request-list.ts';
import { OriginSlot, RequestHandoff } from './origin-slot.ts';
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
  run: runNative,
};

async function runNative(ctx: RunnerContext): Promise<RunnerOutcome> {
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
  const alpn = h2 ? ['h2'] : ['http/1.1'];
  // Open model: one request per HTTP/1.1 connection (the pool grows instead); HTTP/2 sessions
  // carry up to maxInFlight streams. Closed model: `pipelining` per connection. Without
  // keep-alive a connection carries one request, then closes.
  const depth = open ? (h2 ? load.maxInFlight : 1) : options.keepAlive || h2 ? load.pipelining : 1;
  const factory = h2 ? http2Factory(spec, state, depth) : http1Factory(spec, state, depth);
  const { makeClient, dialers, opened } = originPools(spec, alpn, depth, factory);
  const notSent = factory.notSent;
  const warnings: Warning[] = notSentWarnings(notSent);
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
      },
      state,
      makeClient,
    );
    const o = await driver.run(signal, warmupDone, ctx.schedule ?? null);
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

/** Pipelined copies of a request are kept in one buffer up to this size (else written one by one). */
const MAX_PIPELINED_BYTES = 1024 * 1024;

interface ClientFactory {
  /** A client on `dialer`; with a list, `chooser` names each send's request. */
  make: (owner: ClientOwner, dialer: Dialer, chooser: Pick<RequestChooser, 'next'>) => Client;
  /** The user's headers the request goes without. */
  notSent: NotSent[];
}

/**
 * The run's clients: on one dialer, or, for a list over several origins, slots holding a
 * client per origin, each origin on a dialer of its own (its route, Host and SNI).
 */
function originPools(
  spec: RunSpec,
  alpn: string[],
  depth: number,
  factory: ClientFactory,
): {
  makeClient: (owner: ClientOwner) => Client;
  dialers: Dialer[];
  /** Several origins: the connections opened to each so far; null for one. */
  opened: number[] | null;
} {
  const runs = runRequests(spec);
  const chooser = new RequestChooser(spec);
  const groups = originGroups(runs.map((r) => r.target.url));
  if (spec.target.requests === undefined || groups.origins.length === 1) {
    const dialer = createDialer(spec, alpn);
    return { makeClient: (owner) => factory.make(owner, dialer, chooser), dialers: [dialer], opened: null };
  }
  const opened = groups.origins.map(() => 0);
  const dialers = groups.origins.map((_, o) =>
    counting(
      createDialer(specOfRequest(spec, runs[groups.originOfRequest.indexOf(o)]!), alpn),
      () => opened[o]!++,
    ),
  );
  const handoff = new RequestHandoff();
  const routing = {
    chooser,
    originOfRequest: groups.originOfRequest,
    makers: dialers.map((d) => (owner: ClientOwner) => factory.make(owner, d, handoff)),
    handoff,
  };
  return { makeClient: (owner) => new OriginSlot(routing, depth, owner), dialers, opened };
}

/** A dialer that calls `opened` for each connection it opens (connected, TLS done). */
function counting(dialer: Dialer, opened: () => void): Dialer {
  return {
    endpoint: dialer.endpoint,
    dial: (onRead, done) =>
      dialer.dial(onRead, (err, socket, timing) => {
        if (err === null && socket !== null) opened();
        done(err, socket, timing);
      }),
    get tlsFacts() {
      return dialer.tlsFacts;
    },
  };
}

function http1Factory(spec: RunSpec, state: RequestLedger, depth: number): ClientFactory {
  const opts = { keepAlive: spec.options.keepAlive, appVersion: spec.appVersion };
  const all = runRequests(spec).map((r) => http1Request(r.target, r.body, opts));
  const request = all[0]!;
  const listed = spec.target.requests !== undefined;
  const copies =
    !listed && depth > 1 && request.body === null && depth * request.length <= MAX_PIPELINED_BYTES;
  const cfg: Omit<Http1Config, 'dialer' | 'list'> = {
    state,
    request,
    requests: copies ? Buffer.concat(Array.from({ length: depth }, () => request.bytes)) : null,
    depth,
    keepAlive: spec.options.keepAlive,
    // A list is all HEAD or none (shared/model/request-list.ts).
    headRequests: runRequests(spec)[0]!.target.method === 'HEAD',
  };
  return {
    make: (owner, dialer, chooser) =>
      new Http1Client({ ...cfg, dialer, list: listed ? { requests: all, chooser } : null }, owner),
    notSent: uniqueNotSent(all),
  };
}

/** The headers left out of any request of the run, each said once. */
function uniqueNotSent(requests: readonly { notSent: NotSent[] }[]): NotSent[] {
  const seen = new Map<string, NotSent>();
  for (const r of requests) for (const n of r.notSent) seen.set(`${n.header}\n${n.why}`, n);
  return [...seen.values()];
}

function http2Factory(spec: RunSpec, state: RequestLedger, depth: number): ClientFactory {
  const runs = runRequests(spec);
  const all = runs.map((r) => http2Request(r.target, r.body, spec.appVersion));
  const requests =
    spec.target.requests === undefined
      ? null
      : all.map((r, j) => h2ListRequest(j, encodeRequestBlock(r.fields), runs[j]!.body));
  const cfg: Omit<Http2Config, 'dialer' | 'list'> = {
    state,
    fields: all[0]!.fields,
    body: runs[0]!.body,
    streams: depth,
    keepAlive: spec.options.keepAlive,
  };
  return {
    make: (owner, dialer, chooser) =>
      new Http2Client({ ...cfg, dialer, list: requests === null ? null : { requests, chooser } }, owner),
    notSent: uniqueNotSent(all),
  };
}
