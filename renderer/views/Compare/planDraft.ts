import {
  comparisonPlanSchema,
  PROTOCOL_VARIANTS,
  type ComparisonPlan,
  type ComparisonTarget,
  type ProtocolVariant,
} from '../../../shared/comparison/plan.ts';
import { DEFAULTS } from '../../../shared/model/defaults.ts';
import type { PreflightFix } from '../../../shared/model/preflight.ts';
import { monitorText } from '../../../shared/model/monitor.ts';
import { runOptionsSchema } from '../../../shared/model/scenario.ts';
import { parseWith, type FieldIssue } from '../../../shared/model/validation.ts';
import {
  durationOrText,
  newKey,
  numberOrText,
  optionalDurationOrText,
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
import { DEFAULT_MONITOR_TEXT, monitorInput, withMonitorIssues } from '../../editor/monitorDraft.ts';

/**
 * The comparison editor's state while a person types: text for numbers (so "1o0" reaches
 * the schema and comes back with its message), the levels as one list ("10, 100, 1000").
 * What the editor does not show (headers, bodies, thresholds...) rides along from the
 * loaded preset in `rest` and goes back into the plan unchanged.
 */
export interface PlanTargetDraft {
  key: string;
  name: string;
  urls: Record<ProtocolVariant, string>;
  /** The server monitor as the CLI's --monitor text (renderer/editor/monitorDraft.ts). */
  monitor: string;
  /** A list of requests every cell of this target sends to its own URL's server (requestsAt). */
  list?: ListDraft;
  rest: Pick<ComparisonTarget, 'method' | 'headers' | 'body' | 'connectTo' | 'unixSocket'> | null;
}

export interface PlanDraft {
  name: string;
  targets: PlanTargetDraft[];
  protocols: ProtocolVariant[];
  model: 'closed' | 'open';
  /** Connections (closed) or req/s (open), separated by commas or spaces. */
  levels: string;
  limitKind: 'duration' | 'requests';
  seconds: string;
  requests: string;
  repetitions: string;
  warmupSeconds: string;
  pauseSeconds: string;
  keepAlive: boolean;
  /** The pre-flight stops the comparison on an answer outside 2xx/3xx (options.checkStatus). */
  checkStatus: boolean;
  /** Engine worker threads of every cell: 'auto' (or empty) or a count. */
  workers: string;
  tls: TlsDraft;
  sloMs: string;
  rest: { plan: ComparisonPlan } | null;
}

export function newPlanTarget(name = ''): PlanTargetDraft {
  return {
    key: newKey('ct'),
    name,
    urls: { http: '', https: '', h2: '' },
    monitor: DEFAULT_MONITOR_TEXT,
    rest: null,
  };
}

export function defaultPlanDraft(): PlanDraft {
  return {
    name: 'Untitled comparison',
    targets: [newPlanTarget(), newPlanTarget()],
    protocols: ['http'],
    model: 'closed',
    levels: '10, 100',
    limitKind: 'duration',
    seconds: '5',
    requests: '10000',
    repetitions: String(DEFAULTS.comparison.repetitions),
    warmupSeconds: '0',
    pauseSeconds: String(DEFAULTS.comparison.pauseSeconds),
    keepAlive: DEFAULTS.keepAlive,
    checkStatus: DEFAULTS.checkStatus,
    workers: String(DEFAULTS.workers),
    tls: { verify: DEFAULTS.tls.verify, caFile: '', servername: '', minVersion: DEFAULTS.tls.minVersion },
    sloMs: '',
    rest: null,
  };
}

/** A saved plan (a preset, a comparison from history) as an editable draft. */
export function draftFromPlan(plan: ComparisonPlan): PlanDraft {
  const base = defaultPlanDraft();
  const load = plan.load;
  return {
    ...base,
    name: plan.name,
    targets: plan.targets.map((t) => ({
      key: newKey('ct'),
      name: t.name,
      urls: { http: t.urls.http ?? '', https: t.urls.https ?? '', h2: t.urls.h2 ?? '' },
      monitor: monitorText(t.monitor),
      ...(t.requests ? { list: listDraftOf(t)! } : {}),
      rest: {
        method: t.method,
        headers: t.headers,
        body: t.body,
        ...(t.connectTo ? { connectTo: t.connectTo } : {}),
        ...(t.unixSocket ? { unixSocket: t.unixSocket } : {}),
      },
    })),
    protocols: [...plan.protocols],
    model: load.model,
    levels: plan.levels.join(', '),
    limitKind: load.model === 'closed' ? load.limit.kind : 'duration',
    seconds:
      load.model === 'open'
        ? String(load.durationSeconds)
        : load.limit.kind === 'duration'
          ? String(load.limit.seconds)
          : base.seconds,
    requests:
      load.model === 'closed' && load.limit.kind === 'requests' ? String(load.limit.count) : base.requests,
    repetitions: String(plan.repetitions),
    warmupSeconds: String(plan.options.warmupSeconds),
    pauseSeconds: String(plan.pauseSeconds),
    keepAlive: plan.options.keepAlive,
    checkStatus: plan.options.checkStatus,
    workers: String(plan.options.workers),
    tls: tlsDraftOf(plan.options.tls),
    sloMs: plan.options.sloMs === null ? '' : String(plan.options.sloMs),
    rest: { plan },
  };
}

/** "10, 100 1000" -> [10, 100, 1000]; a word that is no number stays text for the schema to name. */
export function parseLevels(text: string): (number | string)[] {
  return text
    .split(/[\s,;]+/)
    .filter((s) => s !== '')
    .map(numberOrText);
}

/** The draft as the plan schema's input. */
export function draftToPlanInput(d: PlanDraft): unknown {
  const restPlan = d.rest?.plan;
  const restLoad = restPlan?.load;
  const options = restPlan?.options ?? runOptionsSchema.omit({ protocol: true }).parse({});
  const duration = durationOrText(d.seconds, 's');
  return {
    name: d.name,
    targets: d.targets.map((t) => {
      const urls: Partial<Record<ProtocolVariant, string>> = {};
      for (const p of PROTOCOL_VARIANTS) if (t.urls[p].trim() !== '') urls[p] = t.urls[p].trim();
      // The list's URL is each cell's: its own first origin only stands for the server it was written for.
      const { url: _first, ...list } = t.list ? listInput(t.list) : { url: null };
      return { ...(t.rest ?? {}), name: t.name, urls, monitor: monitorInput(t.monitor), ...list };
    }),
    protocols: PROTOCOL_VARIANTS.filter((p) => d.protocols.includes(p)),
    load:
      d.model === 'closed'
        ? {
            model: 'closed',
            // Every cell replaces the connections with its level; kept only so a preset round-trips.
            connections: restLoad?.model === 'closed' ? restLoad.connections : DEFAULTS.closed.connections,
            pipelining: restLoad?.model === 'closed' ? restLoad.pipelining : DEFAULTS.closed.pipelining,
            limit:
              d.limitKind === 'duration'
                ? { kind: 'duration', seconds: duration }
                : { kind: 'requests', count: numberOrText(d.requests) },
            rate: restLoad?.model === 'closed' ? restLoad.rate : null,
          }
        : {
            model: 'open',
            rate: restLoad?.model === 'open' ? restLoad.rate : DEFAULTS.open.rate,
            durationSeconds: duration,
            maxInFlight: restLoad?.model === 'open' ? restLoad.maxInFlight : DEFAULTS.open.maxInFlight,
          },
    levels: parseLevels(d.levels),
    repetitions: numberOrText(d.repetitions),
    pauseSeconds: durationOrText(d.pauseSeconds, 's'),
    options: {
      ...options,
      keepAlive: d.keepAlive,
      checkStatus: d.checkStatus,
      workers: workersInput(d.workers),
      warmupSeconds: durationOrText(d.warmupSeconds, 's'),
      sloMs: optionalDurationOrText(d.sloMs, 'ms'),
      tls: tlsInput(d.tls),
    },
    // The editor has no report fields (yet): a loaded plan keeps its layout and columns.
    ...(restPlan?.report ? { report: restPlan.report } : {}),
  };
}

/**
 * The draft with a pre-flight fix applied: verification off, https instead of h2, or the
 * status check off (run anyway, measuring the error answers on purpose). Picking
 * a CA file is the person's to do (the field gets the focus): the draft stays as it is.
 */
export function withPreflightFix(d: PlanDraft, fix: PreflightFix): PlanDraft {
  switch (fix) {
    case 'turn-off-verification':
      return { ...d, tls: { ...d.tls, verify: false } };
    case 'use-http1':
      return {
        ...d,
        protocols: PROTOCOL_VARIANTS.filter((p) => p === 'https' || (p !== 'h2' && d.protocols.includes(p))),
      };
    case 'run-anyway':
      return { ...d, checkStatus: false };
    case 'choose-ca-file':
      return d;
  }
}

export type PlanCheck =
  | { ok: true; plan: ComparisonPlan; issues: ReadonlyMap<string, string> }
  | { ok: false; issues: ReadonlyMap<string, string>; list: FieldIssue[] };

/** Field paths the editor shows messages beside; a level's message ("levels.2") shows under "levels". */
export function fieldOf(path: string): string {
  if (/^levels\.\d+$/.test(path)) return 'levels';
  if (path === 'load.durationSeconds') return 'load.limit.seconds';
  if (/^protocols(\.\d+)?$/.test(path)) return 'protocols';
  return path;
}

export function checkPlanDraft(d: PlanDraft): PlanCheck {
  const r = parseWith(comparisonPlanSchema, draftToPlanInput(d));
  const unread = listParseIssues(d.targets);
  if (r.ok && unread.length === 0) return { ok: true, plan: r.value, issues: new Map() };
  const all = [...unread, ...(r.ok ? [] : r.issues)];
  const issues = new Map<string, string>();
  for (const i of all) {
    const field = fieldOf(i.path);
    if (!issues.has(field)) issues.set(field, i.message);
  }
  return { ok: false, issues: withListIssues(withMonitorIssues(issues, d.targets)), list: all };
}
