import net from 'node:net';
import { routeOf } from '../../../shared/model/route.ts';
import { endpointOf } from '../native/request-bytes.ts';
import type { RunSpec } from '../types.ts';

/**
 * Where autocannon's sockets go. It sends our request bytes (the URL's Host), so a connect-to
 * rule only changes the address it dials, and the SNI name stays the URL's (autocannon would
 * send the address it dials, and over a unix socket none: the tlsOptions carry it there too).
 */
export function autocannonRoute(spec: RunSpec): {
  url: string;
  socketPath?: string;
  servername?: string;
} {
  const { hostname } = endpointOf(spec.target.url);
  const servername = spec.options.tls.servername ?? (net.isIP(hostname) ? undefined : hostname);
  const sni = servername === undefined ? {} : { servername };
  const route = routeOf(spec.target);
  if (route.kind === 'unix') return { url: spec.target.url, socketPath: route.path, ...sni };
  const url = new URL(spec.target.url);
  url.hostname = route.host.includes(':') ? `[${route.host}]` : route.host;
  url.port = String(route.port);
  return { url: url.href, ...sni };
}
