import { lookup } from 'node:dns/promises';
import net from 'node:net';
import os from 'node:os';
import { requestedWorkers, splitLoad, type Machine, type Shard } from '../../shared/shards/plan.ts';
import { routeOf, type Route } from '../../shared/model/route.ts';
import type { RunSpec } from './types.ts';

/** Addresses that are this machine whatever its interfaces: loopback, and the unspecified ones. */
function isLoopback(address: string): boolean {
  if (net.isIPv4(address)) return address.startsWith('127.') || address === '0.0.0.0';
  const a = address.toLowerCase();
  return a === '::1' || a === '::' || a.startsWith('::ffff:127.');
}

/**
 * Whether a target host is this machine: a loopback address or name, or an address of one of
 * its interfaces (the name resolved as the engine will). A name that does not resolve is
 * taken as another machine: the pre-flight reports it.
 */
export async function isSameMachine(hostname: string): Promise<boolean> {
  const host = hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = net.isIP(host) ? [host] : (await lookup(host, { all: true })).map((a) => a.address);
  } catch {
    return false;
  }
  const own = new Set(
    Object.values(os.networkInterfaces())
      .flatMap((list) => list ?? [])
      .map((i) => i.address.toLowerCase()),
  );
  return addresses.some((a) => isLoopback(a) || own.has(a.toLowerCase()));
}

/** A unix socket is always on this machine; a TCP route is where its host is. */
function routeIsSameMachine(route: Route): Promise<boolean> {
  return route.kind === 'unix' ? Promise.resolve(true) : isSameMachine(route.host);
}

/**
 * The shards a run's load is split into, one per engine worker (one: the whole load, in the
 * engine worker beside the coordinator). 'auto' counts the cores, less one when the target is
 * on this machine.
 */
export async function shardsFor(spec: RunSpec): Promise<Shard[]> {
  const choice = spec.options.workers;
  const machine: Machine = {
    cores: Math.max(1, os.availableParallelism()),
    sameMachine: choice === 'auto' ? await routeIsSameMachine(routeOf(spec.target)) : false,
  };
  return splitLoad(spec.load, requestedWorkers(choice, machine));
}
