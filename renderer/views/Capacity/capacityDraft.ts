import { capacityPlanOfComparison } from '../../../shared/capacity/from-comparison.ts';
import { capacityPlanSchema, type CapacityPlan, type CapacityTarget } from '../../../shared/capacity/plan.ts';
import { requestsAt, type ComparisonPlan } from '../../../shared/comparison/plan.ts';
import { DEFAULTS } from '../../../shared/model/defaults.ts';
import type { Protocol } from '../../../shared/model/scenario.ts';
import { parseWith, type FieldIssue } from '../../../shared/model/validation.ts';
import {
  durationOrText,
  newKey,
  numberOrText,
  tlsDraftOf,
  tlsInput,
  workersInput,
  type TlsDraft,
} from '../../editor/draft.ts';
import {
  listDraftOf,
  listInput,
  listParseIssues,
  withListIssues,
  type ListDraft,
} from '../../editor/listDraft.ts';

/**
 * The Capacity editor's state while a person types: numbers as text (so "1o0" reaches the
 * schema and comes back with its message). What the editor does not show (headers, bodies,
 * the monitor, timeouts) rides along from a loaded plan in `rest` and goes back unchanged.
 */
export interface CapacityTargetDraft {
  key: string;
  name: string;
  url: string;
  /** A list of requests each step sends to this URL's server (requestsAt). */
  list?: ListDraft;
  rest: Omit<CapacityTarget, 'name' | 'url' | 'requests' | 'order'> | null;
}

export interface CapacityDraft {
  name: string;
  targets: CapacityTargetDraft[];
  p99Ms: string;
  errorPercent: string;
  startRate: string;
  maxRate: string;
  stepSeconds: string;
  warmupSeconds: string;
  maxInFlight: string;
  protocol: Protocol;
  keepAlive: boolean;
  /** Engine worker threads of every step: 'auto' (or empty) or a count. */
  workers: string;
  tls: TlsDraft;
  rest: { plan: CapacityPlan } | null;
}

export function newCapacityTarget(): CapacityTargetDraft {
  return { key: newKey('cap'), name: '', url: '', rest: null };
}

/** Two servers to compare, every default from shared/model/defaults.ts. */
export function defaultCapacityDraft(): CapacityDraft {
  return {
    name: 'Capacity search',
    targets: [newCapacityTarget(), newCapacityTarget()],
    p99Ms: '10',
    errorPercent: String(DEFAULTS.capacity.errorPercent),
    startRate: String(DEFAULTS.capacity.startRate),
    maxRate: String(DEFAULTS.capacity.maxRate),
    stepSeconds: String(DEFAULTS.capacity.stepSeconds),
    warmupSeconds: String(DEFAULTS.capacity.warmupSeconds),
    maxInFlight: String(DEFAULTS.open.maxInFlight),
    protocol: DEFAULTS.protocol,
    keepAlive: DEFAULTS.keepAlive,
    workers: String(DEFAULTS.workers),
    tls: { verify: DEFAULTS.tls.verify, caFile: '', servername: '', minVersion: DEFAULTS.tls.minVersion },
    rest: null,
  };
}

/** A saved plan (a search from history, one taken up after a reload) as an editable draft. */
export function draftFromCapacityPlan(plan: CapacityPlan): CapacityDraft {
  const { search, options } = plan;
  return {
    name: plan.name,
    targets: plan.targets.map(({ name, url, requests, order, ...rest }) => ({
      key: newKey('cap'),
      name,
      url,
      ...(requests ? { list: listDraftOf({ requests, order })! } : {}),
      rest,
    })),
    p99Ms: String(search.goal.p99Ms),
    errorPercent: String(search.goal.errorPercent),
    startRate: String(search.startRate),
    maxRate: String(search.maxRate),
    stepSeconds: String(search.stepSeconds),
    warmupSeconds: String(search.warmupSeconds),
    maxInFlight: String(plan.maxInFlight),
    protocol: options.protocol,
    keepAlive: options.keepAlive,
    workers: String(options.workers),
    tls: tlsDraftOf(options.tls),
    rest: { plan },
  };
}

/**
 * A comparison's targets and protocols as capacity searches (one per target and protocol),
 * searched with the goal and steps the Capacity editor holds now.
 */
export function draftFromComparison(plan: ComparisonPlan, current: CapacityDraft): CapacityDraft {
  const searches = capacityPlanSchema.parse(capacityPlanOfComparison(plan, { goal: { p99Ms: 10 } }));
  const { p99Ms, errorPercent, startRate, maxRate, stepSeconds, warmupSeconds } = current;
  return {
    ...draftFromCapacityPlan(searches),
    p99Ms,
    errorPercent,
    startRate,
    maxRate,
    stepSeconds,
    warmupSeconds,
  };
}

/** The draft as the plan schema's input. */
export function draftToCapacityInput(d: CapacityDraft): unknown {
  const options = d.rest?.plan.options ?? {};
  return {
    name: d.name,
    targets: d.targets.map((t) => {
      const url = t.url.trim();
      const { url: _first, requests, ...order } = t.list ? listInput(t.list) : { url: null };
      // The list goes to the typed URL's server, as a comparison's cell sends it to its own.
      const listed = Array.isArray(requests) && URL.canParse(url) ? requestsAt(requests, url) : requests;
      return {
        ...(t.rest ?? {}),
        name: t.name,
        url,
        ...(listed === undefined ? {} : { requests: listed }),
        ...order,
      };
    }),
    search: {
      goal: { p99Ms: durationOrText(d.p99Ms, 'ms'), errorPercent: numberOrText(d.errorPercent) },
      startRate: numberOrText(d.startRate),
      maxRate: numberOrText(d.maxRate),
      stepSeconds: durationOrText(d.stepSeconds, 's'),
      warmupSeconds: durationOrText(d.warmupSeconds, 's'),
    },
    maxInFlight: numberOrText(d.maxInFlight),
    options: {
      ...options,
      protocol: d.protocol,
      keepAlive: d.keepAlive,
      workers: workersInput(d.workers),
      tls: tlsInput(d.tls),
    },
  };
}

export type CapacityCheck =
  | { ok: true; plan: CapacityPlan; issues: ReadonlyMap<string, string> }
  | { ok: false; issues: ReadonlyMap<string, string>; list: FieldIssue[] };

/** Validates the draft with the shared schema; the first message per field path wins. */
export function checkCapacityDraft(d: CapacityDraft): CapacityCheck {
  const r = parseWith(capacityPlanSchema, draftToCapacityInput(d));
  const unread = listParseIssues(d.targets);
  if (r.ok && unread.length === 0) return { ok: true, plan: r.value, issues: new Map() };
  const all = [...unread, ...(r.ok ? [] : r.issues)];
  const issues = new Map<string, string>();
  for (const i of all) if (!issues.has(i.path)) issues.set(i.path, i.message);
  return { ok: false, issues: withListIssues(issues), list: all };
}
