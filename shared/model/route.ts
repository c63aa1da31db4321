import { z } from 'zod';
import { LIMITS } from './defaults.ts';

/*
 * Where a target's sockets go when it is not where its URL points: curl's --connect-to
 * (HOST:PORT:ADDR:PORT, first match wins, an empty part matching or keeping any), --resolve
 * (HOST:PORT:ADDR, kept as the connect-to it means) and --unix-socket. The request's Host,
 * SNI and certificate check always use the URL's name; only the socket goes elsewhere.
 */

/** One --connect-to rule; null parts match any host or port (from) or keep the URL's (to). */
export interface ConnectToRule {
  host: string | null;
  port: number | null;
  toHost: string | null;
  toPort: number | null;
}

/** Where the sockets of a target go. */
export type Route =
  | {
      kind: 'tcp';
      host: string;
      port: number;
      /** the rule that moved it, as written; null: the URL's own */ rule: string | null;
    }
  | { kind: 'unix'; path: string };

const HOST = String.raw`(\[[^\]]*\]|[^:\[\]]*)`;
const CONNECT_TO = new RegExp(String.raw`^${HOST}:(\d*):${HOST}:(\d*)$`);

/** A host as the URL parser writes it (lowercase, IPv6 in brackets), or null when it is not one. */
function normalHost(host: string): string | null {
  if (/[\s/?#@\\]/.test(host)) return null;
  try {
    return new URL(`http://${host}/`).hostname;
  } catch {
    return null;
  }
}

function portOf(text: string, where: string): number | string | null {
  if (text === '') return null;
  const port = Number(text);
  return port >= 1 && port <= 65535 ? port : `${where} port ${text} is not a port (1 to 65535)`;
}

/** A --connect-to rule, or the reason it is not one. */
export function parseConnectTo(text: string): ConnectToRule | string {
  const m = CONNECT_TO.exec(text.trim());
  if (!m)
    return `"${text}" is not HOST:PORT:ADDRESS:PORT (e.g. example.com:443:127.0.0.1:8443; an empty part matches or keeps any)`;
  const [, host = '', port = '', toHost = '', toPort = ''] = m;
  const from = host === '' ? null : normalHost(host);
  if (host !== '' && from === null) return `"${host}" is not a host name or address`;
  const to = toHost === '' ? null : normalHost(toHost);
  if (toHost !== '' && to === null) return `"${toHost}" is not a host name or address`;
  const p = portOf(port, 'the matched');
  if (typeof p === 'string') return p;
  const tp = portOf(toPort, 'the connected');
  if (typeof tp === 'string') return tp;
  return { host: from, port: p, toHost: to, toPort: tp };
}

/**
 * curl's --resolve HOST:PORT:ADDRESS as the --connect-to rule it means
 * (HOST:PORT:ADDRESS:PORT), or the reason it is not one. One address (curl's list of
 * fallbacks is not taken); an IPv6 address with or without brackets.
 */
export function resolveAsConnectTo(text: string): string | { problem: string } {
  const m = /^([^:[\]]+):(\d+):(.+)$/.exec(text.trim());
  if (!m) return { problem: `"${text}" is not HOST:PORT:ADDRESS (e.g. example.com:443:127.0.0.1)` };
  const [, host = '', port = '', address = ''] = m;
  if (address.includes(',')) return { problem: 'give one address (a list of fallbacks is not supported)' };
  const bare = address.replace(/^\[|\]$/g, '');
  const ipv6 = bare.includes(':');
  const asHost = ipv6 ? `[${bare}]` : bare;
  if (!/^[\d.]+$/.test(bare) && !ipv6) return { problem: `"${address}" is not an IP address` };
  if (normalHost(asHost) === null) return { problem: `"${address}" is not an IP address` };
  const rule = `${host}:${port}:${asHost}:${port}`;
  const parsed = parseConnectTo(rule);
  return typeof parsed === 'string' ? { problem: parsed } : rule;
}

/** A --connect-to rule in a target: checked as curl would read it. */
export const connectToSchema = z
  .string()
  .max(LIMITS.servernameChars.max + 20, 'connect-to rule is too long')
  .superRefine((text, ctx) => {
    const parsed = parseConnectTo(text);
    if (typeof parsed === 'string') ctx.addIssue({ code: 'custom', message: parsed });
  });

export const connectToListSchema = z
  .array(connectToSchema)
  .max(LIMITS.connectTo.max, `at most ${LIMITS.connectTo.max} connect-to rules`);

/** A unix domain socket's path (Linux allows 107 bytes; macOS 103). */
export const unixSocketSchema = z
  .string()
  .min(1, 'unix socket path is empty')
  .max(LIMITS.unixSocketChars.max, `unix socket path is longer than ${LIMITS.unixSocketChars.max} characters`)
  .refine((p) => p.startsWith('/'), 'unix socket path must be absolute (start with /)');

/** What a target says about its route (every field absent: where its URL points). */
export interface RouteFields {
  url: string;
  connectTo?: readonly string[] | undefined;
  unixSocket?: string | undefined;
}

/** Route fields of a plan's targets that contradict each other, at the field to fix. */
export function routeIssues(
  targets: readonly Omit<RouteFields, 'url'>[],
): { path: (string | number)[]; message: string }[] {
  return targets.flatMap((t, i) =>
    t.unixSocket !== undefined && (t.connectTo ?? []).length > 0
      ? [
          {
            path: ['targets', i, 'connectTo'],
            message: 'a target goes over its unix socket or to a connect-to address, not both',
          },
        ]
      : [],
  );
}

const unbracket = (host: string): string => host.replace(/^\[|\]$/g, '');

/** Where a target's sockets go: its unix socket, the first connect-to rule that matches its URL, or the URL's host. */
export function routeOf(target: RouteFields): Route {
  if (target.unixSocket !== undefined) return { kind: 'unix', path: target.unixSocket };
  const url = new URL(target.url);
  const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  for (const text of target.connectTo ?? []) {
    const rule = parseConnectTo(text);
    if (typeof rule === 'string') continue;
    if ((rule.host === null || rule.host === url.hostname) && (rule.port === null || rule.port === port)) {
      return {
        kind: 'tcp',
        host: unbracket(rule.toHost ?? url.hostname),
        port: rule.toPort ?? port,
        rule: text,
      };
    }
  }
  return { kind: 'tcp', host: unbracket(url.hostname), port, rule: null };
}

/** A route as the report shows it: "127.0.0.1:8443", "[::1]:80", "unix:/run/app.sock". */
export function routeLabel(route: Route): string {
  if (route.kind === 'unix') return `unix:${route.path}`;
  return `${route.host.includes(':') ? `[${route.host}]` : route.host}:${route.port}`;
}

/**
 * The route the report names: set when the sockets did not go where the URL points (a
 * connect-to rule matched, or a unix socket); null otherwise, and for a URL that does not
 * parse (the result of a spec the engine refused still gets built).
 */
export function reportedRoute(target: RouteFields): string | null {
  let route: Route;
  try {
    route = routeOf(target);
  } catch {
    return null;
  }
  return route.kind === 'tcp' && route.rule === null ? null : routeLabel(route);
}
