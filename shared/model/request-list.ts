import { LIMITS } from './defaults.ts';
import { reportedRoute, type RouteFields } from './route.ts';

/*
 * A target's list of requests (vegeta's targets, http_load's url file): the rules a list
 * keeps, and which request of it a load's k-th send is. Pure; structural types so the
 * scenario schema can call it without an import circle.
 */

interface ListedRequest {
  method: string;
  url: string;
  body: { kind: string; text?: string; data?: string };
}

interface ListTarget {
  body: { kind: string };
  requests?: readonly ListedRequest[] | undefined;
}

type Issue = { path: (string | number)[]; message: string };

/** scheme://host:port of a URL (the default port written out), or null when it does not parse. */
export function originOf(url: string): string | null {
  try {
    const u = new URL(url);
    const port = u.port || (u.protocol === 'https:' ? '443' : '80');
    return `${u.protocol}//${u.hostname}:${port}`;
  } catch {
    return null;
  }
}

/**
 * The distinct origins of a list's URLs in order of first appearance, and the origin (an
 * index into `origins`) of each request: the engine keeps a connection pool per origin.
 */
export function originGroups(urls: readonly string[]): { origins: string[]; originOfRequest: number[] } {
  const origins: string[] = [];
  const originOfRequest = urls.map((url) => {
    const origin = originOf(url) ?? url;
    const known = origins.indexOf(origin);
    if (known >= 0) return known;
    origins.push(origin);
    return origins.length - 1;
  });
  return { origins, originOfRequest };
}

/** One origin of a list as the report names it (RunResult's server.origins). */
export interface OriginFact {
  origin: string;
  connectedTo?: string;
  connections: number;
}

/**
 * A list's origins as the report names them: each one's route when its sockets went elsewhere
 * (a connect-to rule, a unix socket), and the connections opened to it. Null for a target on
 * one origin, or without counts (a run that sent nothing).
 */
export function originFacts(
  target: RouteFields & { requests?: readonly { url: string }[] | undefined },
  connections: readonly number[] | undefined,
): OriginFact[] | null {
  if (target.requests === undefined || connections === undefined) return null;
  const urls = target.requests.map((r) => r.url);
  const { origins, originOfRequest } = originGroups(urls);
  if (origins.length < 2) return null;
  return origins.map((origin, o) => {
    const route = reportedRoute({ ...target, url: urls[originOfRequest.indexOf(o)]! });
    return { origin, ...(route === null ? {} : { connectedTo: route }), connections: connections[o] ?? 0 };
  });
}

/**
 * What a list of requests may not do, at the field to fix: reach more than
 * LIMITS.listOrigins origins (each has pools of its own), mix HEAD with other methods (a
 * connection's response framing follows one rule), sit beside a target body, hold more
 * inline body text than LIMITS.listBodyChars, or run on autocannon.
 */
export function requestListIssues(targets: readonly ListTarget[], engine: string): Issue[] {
  const issues: Issue[] = [];
  targets.forEach((t, i) => {
    const list = t.requests;
    if (list === undefined) return;
    const at = (...path: (string | number)[]) => ['targets', i, ...path];
    if (engine === 'autocannon') {
      issues.push({
        path: at('requests'),
        message:
          'a list of requests runs on the native engine: autocannon sends one request per target (choose engine auto or native)',
      });
    }
    if (t.body.kind !== 'none') {
      issues.push({
        path: at('body'),
        message: 'a target with a list of requests takes each body from its request: remove the target body',
      });
    }
    const { origins } = originGroups(list.map((r) => r.url));
    if (origins.length > LIMITS.listOrigins.max) {
      issues.push({
        path: at('requests'),
        message: `the list reaches ${origins.length} origins (scheme, host and port); at most ${LIMITS.listOrigins.max} (split it into targets)`,
      });
    }
    let chars = 0;
    for (const r of list) chars += (r.body.text?.length ?? 0) + (r.body.data?.length ?? 0);
    const heads = list.filter((r) => r.method === 'HEAD').length;
    if (heads > 0 && heads < list.length) {
      const j = list.findIndex((r) => r.method === 'HEAD');
      issues.push({
        path: at('requests', j, 'method'),
        message: 'a list mixes HEAD with other methods: make HEAD requests a target of their own',
      });
    }
    if (chars > LIMITS.listBodyChars.max) {
      issues.push({
        path: at('requests'),
        message: `the list's bodies add up to ${chars} characters; at most ${LIMITS.listBodyChars.max} (use body files)`,
      });
    }
  });
  return issues;
}

/** Which of a run's sends a worker makes: its k-th send is the run's send first + k*step. */
export interface SendSequence {
  first: number;
  step: number;
}

/** One worker alone: every send of the run. */
export const WHOLE_SEQUENCE: SendSequence = { first: 0, step: 1 };

/**
 * The sends of shard `index` of `count`: every count-th from its index, the same interleave
 * as the split of requests and rate (shared/shards/plan.ts: evenShares gives the larger
 * shares first, so shard i's c_i sends are exactly the run's sends i, i+count, ... below
 * the total). Within an outer sequence (a machine's shard split again into its workers) the
 * worker's sends are taken from the outer's.
 */
export function shardSequence(
  index: number,
  count: number,
  outer: SendSequence = WHOLE_SEQUENCE,
): SendSequence {
  return { first: outer.first + index * outer.step, step: outer.step * count };
}

/** splitmix32's finaliser: a well-mixed 32-bit value from a 32-bit input. */
function mix32(x: number): number {
  let z = (x + 0x9e3779b9) | 0;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return (z ^ (z >>> 16)) >>> 0;
}

/**
 * The request (0-based) of a list of `n` the run's send number `g` carries. Round-robin: g
 * mod n, so a run of n*k sends sends each request exactly k times however it is split.
 * Random: drawn from the seed and g alone (a counter-based generator), so a seed gives the
 * same requests for the same sends whatever the number of workers.
 */
export function requestOfSend(
  order: { kind: 'round-robin' } | { kind: 'random'; seed: number },
  n: number,
  g: number,
): number {
  if (n <= 1) return 0;
  if (order.kind === 'round-robin') return g % n;
  // The send number's high bits are mixed in separately: runs past 2^32 sends keep drawing.
  const hi = Math.floor(g / 0x1_0000_0000);
  const r = mix32(mix32(order.seed ^ mix32(g >>> 0)) ^ hi);
  return r % n;
}
