import { lookup } from 'node:dns/promises';
import { networkInterfaces } from 'node:os';
import { isLoopbackHostname, type Monitor } from '../../shared/model/monitor.ts';
import { routeOf } from '../../shared/model/route.ts';
import type { Target } from '../../shared/model/scenario.ts';

/** What the host will sample for one target, once 'auto' is resolved. */
export type MonitorPlan =
  | { kind: 'port'; port: number; host: string }
  /** The process listening on a unix socket (the target's --unix-socket). */
  | { kind: 'unix'; path: string }
  | { kind: 'pid'; pid: number }
  | { kind: 'node-exporter'; url: string }
  /** Nothing to sample; the reason goes in the result (a remote target under 'auto'). */
  | { kind: 'none'; reason: string };

const bare = (address: string): string =>
  address
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/%.*$/, '');

/** The addresses of this machine's network interfaces (loopback included). */
function ownAddresses(): Set<string> {
  const out = new Set<string>();
  for (const list of Object.values(networkInterfaces())) {
    for (const a of list ?? []) out.add(bare(a.address));
  }
  return out;
}

/**
 * True when `hostname` is this machine: a loopback name or address, or a name that resolves
 * only to addresses of this machine's interfaces. A name that does not resolve is not.
 */
export async function isThisMachine(hostname: string): Promise<boolean> {
  if (isLoopbackHostname(hostname)) return true;
  const own = ownAddresses();
  if (own.has(bare(hostname))) return true;
  try {
    const addresses = await lookup(bare(hostname), { all: true });
    return (
      addresses.length > 0 &&
      addresses.every((a) => isLoopbackHostname(a.address) || own.has(bare(a.address)))
    );
  } catch {
    return false;
  }
}

/**
 * Resolves a target's monitor on the host. 'auto' watches the process on the target's port
 * (the port its sockets go to: a connect-to rule's, or its unix socket) when that is this
 * machine, and nothing otherwise (the reason is kept for the report); 'off' gives null
 * (nothing sampled, nothing reported).
 */
export async function resolveMonitor(
  target: Pick<Target, 'url' | 'monitor' | 'connectTo' | 'unixSocket'>,
): Promise<MonitorPlan | null> {
  const monitor: Monitor = target.monitor;
  switch (monitor.kind) {
    case 'off':
      return null;
    case 'pid':
      return { kind: 'pid', pid: monitor.pid };
    case 'node-exporter':
      return { kind: 'node-exporter', url: monitor.url };
    case 'auto': {
      const route = routeOf(target);
      if (route.kind === 'unix') return { kind: 'unix', path: route.path };
      if (await isThisMachine(route.host)) return { kind: 'port', port: route.port, host: bare(route.host) };
      return {
        kind: 'none',
        reason: `${route.host} is not this machine: give the target its node_exporter URL (e.g. --monitor http://${route.host}:9100/metrics) to see its CPU and memory`,
      };
    }
  }
}
