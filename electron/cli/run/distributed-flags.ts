/**
 * `trebuchet run ... --shards N --on local|kubernetes`: the plan run as N shards by the
 * coordinator on this machine (electron/jobs/sharded-target.ts). The flags' text is
 * read here, all of it before any process or pod starts.
 */
import type { Scenario } from '../../../shared/model/scenario.ts';
import { usableWorkers } from '../../../shared/shards/plan.ts';
import {
  MAX_READY_TIMEOUT_SECONDS,
  MAX_SHARDS,
  namespaceSchema,
  type ShardPlacement,
} from '../../../shared/distributed/placement.ts';
import { CliInputError, parseDurationSeconds, parseWholeNumber } from '../values.ts';

export interface DistributedRequest extends ShardPlacement {
  /** Print the manifests, call no API (kubernetes only). */
  dryRun: boolean;
}

export interface DistributedValues {
  shards?: string;
  on?: string;
  image?: string;
  namespace?: string;
  context?: string;
  'node-selector'?: string[];
  'ready-timeout'?: string;
  'dry-run'?: boolean;
  shard?: string;
}

const KUBE_ONLY = ['image', 'namespace', 'context', 'node-selector', 'dry-run'] as const;

/** `k=v` pairs of --node-selector. */
function nodeSelector(pairs: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of pairs) {
    const m = /^([A-Za-z0-9][-A-Za-z0-9_./]*)=([-A-Za-z0-9_.]*)$/.exec(pair.trim());
    if (!m) throw new CliInputError('--node-selector', `"${pair}" is not key=value (e.g. pool=load)`);
    out[m[1]!] = m[2]!;
  }
  return out;
}

/** The flags as a request; null when --shards is not given (the other flags then refused). */
export function distributedFromFlags(v: DistributedValues): DistributedRequest | null {
  if (v.shards === undefined) {
    for (const flag of ['on', 'ready-timeout', ...KUBE_ONLY] as const) {
      if (v[flag] !== undefined) throw new CliInputError(`--${flag}`, 'goes with --shards N');
    }
    return null;
  }
  const count = parseWholeNumber('--shards', v.shards);
  if (count < 1 || count > MAX_SHARDS) throw new CliInputError('--shards', `give 1 to ${MAX_SHARDS} shards`);
  if (v.shard !== undefined)
    throw new CliInputError('--shards', 'runs every shard; --shard i/N runs one: give one of them');
  if (v.on !== 'local' && v.on !== 'kubernetes') {
    throw new CliInputError(
      '--on',
      `${v.on === undefined ? 'is needed' : `"${v.on}" is not a place`}: local or kubernetes`,
    );
  }
  const readyTimeout =
    v['ready-timeout'] === undefined
      ? null
      : parseDurationSeconds('--ready-timeout', v['ready-timeout'], 's');
  if (readyTimeout !== null && (readyTimeout < 1 || readyTimeout > MAX_READY_TIMEOUT_SECONDS)) {
    throw new CliInputError(
      '--ready-timeout',
      `give the shards 1 s to ${MAX_READY_TIMEOUT_SECONDS / 60} min to get ready, not ${v['ready-timeout']}`,
    );
  }
  if (v.on === 'local') {
    for (const flag of KUBE_ONLY) {
      if (v[flag] !== undefined) throw new CliInputError(`--${flag}`, 'goes with --on kubernetes');
    }
    return { count, readyTimeoutSeconds: readyTimeout, dryRun: false, kubernetes: null };
  }
  const image = v.image?.trim() ?? '';
  if (image === '')
    throw new CliInputError(
      '--image',
      'is needed with --on kubernetes (the image built from resources/docker/Dockerfile)',
    );
  // Not given: the context's namespace in the kubeconfig, else rbac.yaml's (sharded-target.ts namespaceOf).
  const namespace = v.namespace === undefined ? null : v.namespace.trim();
  if (namespace !== null && !namespaceSchema.safeParse(namespace).success) {
    throw new CliInputError('--namespace', `"${namespace}" is not a namespace name (lower case, digits, -)`);
  }
  return {
    count,
    readyTimeoutSeconds: readyTimeout,
    dryRun: v['dry-run'] === true,
    kubernetes: {
      image,
      namespace,
      context: v.context?.trim() || null,
      nodeSelector: nodeSelector(v['node-selector'] ?? []),
    },
  };
}

/** Refused before anything starts: the scenario cannot be split over `count` shards. */
export function checkSplit(scenario: Scenario, count: number): void {
  if (scenario.targets.length !== 1) {
    throw new CliInputError(
      '--shards',
      `a distributed run has one target; the scenario has ${scenario.targets.length}`,
    );
  }
  const most = usableWorkers(scenario.load, count);
  if (most < count) {
    throw new CliInputError(
      '--shards',
      `this load splits into at most ${most} shard(s) with load each (connections, requests or rate), not ${count}`,
    );
  }
}
