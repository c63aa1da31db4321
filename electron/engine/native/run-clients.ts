import { originGroups } from '../../../shared/model/request-list.ts';
import { RequestChooser, runRequests, specOfRequest } from '../request-list.ts';
import type { RunSpec } from '../types.ts';
import { createDialer, type Dialer } from './socket/dial.ts';
import { h2ListRequest } from './http2/exchange.ts';
import { encodeRequestBlock } from './hpack/encoder.ts';
import { Http1Client, type Http1Config } from './http1/client.ts';
import { Http2Client, type Http2Config } from './http2/client.ts';
import { OriginSlot, RequestHandoff } from './origin-slot.ts';
import { http1Request, http2Request, type NotSent } from './request-bytes.ts';
import type { Client, ClientOwner, RequestLedger } from './run-state.ts';

/*
 * A run's clients: the request bytes of its protocol built once, a client factory over them,
 * and the pools they go in: one dialer, or, for a list over several origins, slots holding a
 * client per origin, each origin on a dialer of its own.
 */

/** Pipelined copies of a request are kept in one buffer up to this size (else written one by one). */
const MAX_PIPELINED_BYTES = 1024 * 1024;

export interface ClientFactory {
  /** A client on `dialer`; with a list, `chooser` names each send's request. */
  make: (owner: ClientOwner, dialer: Dialer, chooser: Pick<RequestChooser, 'next'>) => Client;
  /**
   * Points every client made so far, and every later one, at the run's ledger: the warm
   * phase's clients are made before it exists (none of them has sent anything).
   */
  useLedger: (state: RequestLedger) => void;
  /** The user's headers the request goes without. */
  notSent: NotSent[];
}

/**
 * Requests a client carries at once. Open model: one per HTTP/1.1 connection (the pool grows
 * instead); HTTP/2 sessions carry up to maxInFlight streams. Closed model: `pipelining` per
 * connection. Without keep-alive a connection carries one request, then closes.
 */
export function depthOf({ load, options }: RunSpec): number {
  const h2 = options.protocol === 'h2';
  if (load.model === 'open') return h2 ? load.maxInFlight : 1;
  return options.keepAlive || h2 ? load.pipelining : 1;
}

/** The run's client factory for its protocol, its clients booking into `state` (see useLedger). */
export function clientFactory(spec: RunSpec, state: RequestLedger): ClientFactory {
  const depth = depthOf(spec);
  return spec.options.protocol === 'h2' ? http2Factory(spec, state, depth) : http1Factory(spec, state, depth);
}

/**
 * A factory whose clients share a config per dialer (one, or one per origin) made from the
 * run's base config: what useLedger updates, so a warm client books into the run's ledger.
 */
function factoryOf<C extends { state: RequestLedger }>(
  base: { state: RequestLedger },
  configFor: (dialer: Dialer, chooser: Pick<RequestChooser, 'next'>) => C,
  client: (config: C, owner: ClientOwner) => Client,
  notSent: NotSent[],
): ClientFactory {
  const configs = new Map<Dialer, C>();
  return {
    make: (owner, dialer, chooser) => {
      let c = configs.get(dialer);
      if (c === undefined) configs.set(dialer, (c = configFor(dialer, chooser)));
      return client(c, owner);
    },
    useLedger: (ledger) => {
      base.state = ledger;
      for (const c of configs.values()) c.state = ledger;
    },
    notSent,
  };
}

/**
 * The run's clients: on one dialer, or, for a list over several origins, slots holding a
 * client per origin, each origin on a dialer of its own (its route, Host and SNI).
 */
export function originPools(
  spec: RunSpec,
  /** originsOf(spec), computed once per run by its caller. */
  groups: Origins,
  alpn: string[],
  depth: number,
  factory: ClientFactory,
  /** One origin's dialer, when the caller made it (the warm phase watches it). */
  given?: Dialer,
): {
  makeClient: (owner: ClientOwner) => Client;
  dialers: Dialer[];
  /** Several origins: the connections opened to each so far; null for one. */
  opened: number[] | null;
} {
  const runs = runRequests(spec);
  const chooser = new RequestChooser(spec);
  if (groups.origins.length === 1) {
    const dialer = given ?? createDialer(spec, alpn);
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

/** A run's origins, and the origin of each of its requests. */
export type Origins = ReturnType<typeof originGroups>;

/** The run's requests by origin (a target without a list: its one origin). */
export function originsOf(spec: RunSpec): Origins {
  return originGroups(runRequests(spec).map((r) => r.target.url));
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
  const requests = copies ? Buffer.concat(Array.from({ length: depth }, () => request.bytes)) : null;
  const cfg: Omit<Http1Config, 'dialer' | 'list'> = {
    state,
    request,
    requests,
    depth,
    // The most bytes one write carries: the pipelined copies, a request, or a body written apart.
    largestWrite: all.reduce(
      (most, r) => Math.max(most, r.bytes.length, r.body?.byteLength ?? 0),
      requests?.length ?? 0,
    ),
    keepAlive: spec.options.keepAlive,
    // A list is all HEAD or none (shared/model/request-list.ts).
    headRequests: runRequests(spec)[0]!.target.method === 'HEAD',
  };
  // A dialer's clients share its config, and its chooser: the run's (one origin) or the slots' hand-off.
  return factoryOf(
    cfg,
    (dialer, chooser): Http1Config => ({ ...cfg, dialer, list: listed ? { requests: all, chooser } : null }),
    (c, owner) => new Http1Client(c, owner),
    uniqueNotSent(all),
  );
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
  return factoryOf(
    cfg,
    (dialer, chooser): Http2Config => ({
      ...cfg,
      dialer,
      list: requests === null ? null : { requests, chooser },
    }),
    (c, owner) => new Http2Client(c, owner),
    uniqueNotSent(all),
  );
}
