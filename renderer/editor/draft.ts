import { DEFAULTS } from '../../shared/model/defaults.ts';
import { parseDuration, type DurationUnit } from '../../shared/model/duration.ts';
import {
  scenarioSchema,
  UNTITLED_SCENARIO,
  type EngineChoice,
  type HttpMethod,
  type Protocol,
  type Scenario,
  type Threshold,
  type ThresholdMetric,
  type TlsVersion,
} from '../../shared/model/scenario.ts';
import type { Stage } from '../../shared/model/stages.ts';
import { parseWith, type FieldIssue } from '../../shared/model/validation.ts';
import { DEFAULT_MONITOR_TEXT, monitorInput, withMonitorIssues } from './monitorDraft.ts';
import { NO_ROUTE, routeInput, withRouteIssues, type RouteDraft } from './routeDraft.ts';
import type { PickedBody, PickedCa } from './pickedFile.ts';
import { listInput, listParseIssues, withListIssues, type ListDraft } from './listDraft.ts';

/**
 * What the editor holds while a person types. Numbers stay text until validation, so
 * "12a" or an empty box reaches the schema and comes back as the schema's own message.
 * Every list item has a key that survives reordering and duplication.
 */
export interface HeaderDraft {
  key: string;
  name: string;
  value: string;
}

export type BodyKind = 'none' | 'text' | 'file';

/** A target as the card holds it; its route (connect-to rules, unix socket) as routeDraft.ts says. */
export interface TargetDraft extends RouteDraft {
  key: string;
  name: string;
  url: string;
  method: HttpMethod;
  headers: HeaderDraft[];
  bodyKind: BodyKind;
  bodyText: string;
  bodyPath: string;
  /** A body file picked in the browser: sent instead of bodyPath. */
  bodyUpload?: PickedBody;
  /** The server monitor as the CLI's --monitor text: auto, off, pid:N or a node_exporter URL. */
  monitor: string;
  /**
   * A list of requests the load spreads over (pasted, imported, or saved with a preset):
   * while there is one, the URL and method above stay as typed but unused (removing the
   * list goes back to them); the list's first origin is the target's URL.
   */
  list?: ListDraft;
}

export interface ThresholdDraft {
  key: string;
  metric: ThresholdMetric;
  op: Threshold['op'];
  value: string;
}

export type LimitKind = 'duration' | 'requests';

/** One row of the stage table, as typed: a duration (`30`, `1m30s`) and a target. */
export interface StageDraft {
  key: string;
  seconds: string;
  target: string;
}

/** Certificate checks as typed: empty text is "none". */
export interface TlsDraft {
  verify: boolean;
  caFile: string;
  /** A CA file picked in the browser: sent instead of caFile. */
  caUpload?: PickedCa;
  servername: string;
  minVersion: TlsVersion;
}

interface TlsInput {
  verify: boolean;
  caFile: string | null;
  caUpload?: PickedCa;
  servername: string | null;
  minVersion: TlsVersion;
}

/** Saved certificate checks (TlsInput: "none" is null) as the editor shows them: "none" is empty text. */
export function tlsDraftOf(tls: TlsInput): TlsDraft {
  return {
    verify: tls.verify,
    caFile: tls.caFile ?? '',
    ...(tls.caUpload ? { caUpload: tls.caUpload } : {}),
    servername: tls.servername ?? '',
    minVersion: tls.minVersion,
  };
}

/** The draft's certificate checks as the schema's input. */
export function tlsInput(tls: TlsDraft): TlsInput {
  return {
    verify: tls.verify,
    // A picked file goes instead of the path.
    caFile: tls.caUpload ? null : optionalText(tls.caFile),
    ...(tls.caUpload ? { caUpload: tls.caUpload } : {}),
    servername: optionalText(tls.servername),
    minVersion: tls.minVersion,
  };
}

export interface ScenarioDraft {
  name: string;
  targets: TargetDraft[];
  model: 'closed' | 'open';
  closed: {
    connections: string;
    pipelining: string;
    limitKind: LimitKind;
    seconds: string;
    requests: string;
    /** Optional rate cap; empty = as fast as the server answers. */
    rate: string;
  };
  open: { rate: string; seconds: string; maxInFlight: string };
  /** A staged load: the stage table replaces the model's level and length. */
  staged: boolean;
  /** The stage table (kept while stages are off, so switching back loses nothing). */
  stages: StageDraft[];
  keepAlive: boolean;
  /** The pre-flight stops the run on an answer outside 2xx/3xx (options.checkStatus). */
  checkStatus: boolean;
  protocol: Protocol;
  engine: EngineChoice;
  /** Engine worker threads: 'auto' (or empty) or a count. */
  workers: string;
  timeoutMs: string;
  warmupSeconds: string;
  /** Empty = no SLO. */
  sloMs: string;
  sampleIntervalMs: string;
  tls: TlsDraft;
  thresholds: ThresholdDraft[];
}

let nextKey = 0;
/** A key unique within this page, for React lists. */
export function newKey(prefix: string): string {
  nextKey += 1;
  return `${prefix}${nextKey}`;
}

export function newTarget(url = ''): TargetDraft {
  return {
    key: newKey('t'),
    name: '',
    url,
    method: DEFAULTS.method,
    headers: [],
    bodyKind: 'none',
    bodyText: '',
    bodyPath: '',
    monitor: DEFAULT_MONITOR_TEXT,
    ...NO_ROUTE,
  };
}

export function duplicateTarget(t: TargetDraft): TargetDraft {
  return {
    ...t,
    key: newKey('t'),
    headers: t.headers.map((h) => ({ ...h, key: newKey('h') })),
  };
}

export function newHeader(): HeaderDraft {
  return { key: newKey('h'), name: '', value: '' };
}

/** A new stage row: the last one's target held for as long as it lasted (10 s on an empty table). */
export function newStage(last?: StageDraft): StageDraft {
  return { key: newKey('st'), seconds: last?.seconds ?? '10', target: last?.target ?? '0' };
}

/** The first stage table: ramp up to the model's level, hold it, ramp down (DEFAULTS.stages). */
export function defaultStages(level: string): StageDraft[] {
  const { rampSeconds, holdSeconds } = DEFAULTS.stages;
  return [
    { key: newKey('st'), seconds: String(rampSeconds), target: level },
    { key: newKey('st'), seconds: String(holdSeconds), target: level },
    { key: newKey('st'), seconds: String(rampSeconds), target: '0' },
  ];
}

/** The rows that read as a duration and a number, for the curve's preview (the schema checks the rest). */
export function stagesFromDraft(rows: readonly StageDraft[]): Stage[] {
  return rows.flatMap((r) => {
    const durationSeconds = parseDuration(r.seconds, 's');
    const target = Number(r.target.trim());
    return durationSeconds === null || r.target.trim() === '' || !(target >= 0)
      ? []
      : [{ durationSeconds, target }];
  });
}

export function newThreshold(): ThresholdDraft {
  return { key: newKey('th'), metric: 'p99', op: '<', value: '' };
}

/** The form a new user sees: every default from shared/model/defaults.ts, one empty target. */
export function defaultDraft(): ScenarioDraft {
  return {
    name: UNTITLED_SCENARIO,
    targets: [newTarget()],
    model: 'closed',
    closed: {
      connections: String(DEFAULTS.closed.connections),
      pipelining: String(DEFAULTS.closed.pipelining),
      limitKind: 'duration',
      seconds: String(DEFAULTS.closed.durationSeconds),
      requests: '1000',
      rate: '',
    },
    open: {
      rate: String(DEFAULTS.open.rate),
      seconds: String(DEFAULTS.open.durationSeconds),
      maxInFlight: String(DEFAULTS.open.maxInFlight),
    },
    staged: false,
    stages: [],
    keepAlive: DEFAULTS.keepAlive,
    checkStatus: DEFAULTS.checkStatus,
    protocol: DEFAULTS.protocol,
    engine: DEFAULTS.engine,
    workers: String(DEFAULTS.workers),
    timeoutMs: String(DEFAULTS.timeoutMs),
    warmupSeconds: String(DEFAULTS.warmupSeconds),
    sloMs: '',
    sampleIntervalMs: String(DEFAULTS.sampleIntervalMs),
    tls: { verify: DEFAULTS.tls.verify, caFile: '', servername: '', minVersion: DEFAULTS.tls.minVersion },
    thresholds: [],
  };
}

/** Text to number when it is one; otherwise the text itself, so the schema names the problem. */
export function numberOrText(text: string): number | string {
  const t = text.trim();
  if (t === '') return t;
  const n = Number(t);
  return Number.isFinite(n) ? n : t;
}

/** Empty means "off" (null); anything else is validated like a number. */
export function optionalNumberOrText(text: string): number | string | null {
  return text.trim() === '' ? null : numberOrText(text);
}

/**
 * A duration field's value in its unit, typed as the CLI takes it (`90`, `90s`, `1m30s` in a
 * seconds field; `300` or `0.3s` in a milliseconds one); otherwise the text, for the schema to name.
 */
export function durationOrText(text: string, unit: DurationUnit): number | string {
  return parseDuration(text, unit) ?? text.trim();
}

/** Empty means "off" (null); anything else is read as a duration. */
export function optionalDurationOrText(text: string, unit: DurationUnit): number | string | null {
  return text.trim() === '' ? null : durationOrText(text, unit);
}

function optionalText(text: string): string | null {
  return text.trim() === '' ? null : text.trim();
}

/** The workers field as the schema's input: empty or 'auto' is auto, else a count (or the text, for the schema to name). */
export function workersInput(text: string): number | string {
  const t = text.trim().toLowerCase();
  return t === '' || t === 'auto' ? 'auto' : numberOrText(t);
}

/** "auto workers", "1 worker", "4 workers": the Connection section's summary of the field. */
export function workersSummary(text: string): string {
  const w = workersInput(text);
  return `${w} worker${w === 1 ? '' : 's'}`;
}

/** The draft as the schema's input: the plan jobs.start takes for a run, numbers parsed where they parse. */
export function draftToInput(d: ScenarioDraft): unknown {
  const stages = d.staged
    ? {
        stages: d.stages.map((s) => ({
          durationSeconds: durationOrText(s.seconds, 's'),
          target: numberOrText(s.target),
        })),
      }
    : {};
  return {
    name: d.name,
    targets: d.targets.map((t) => {
      const list = t.list ? listInput(t.list) : null;
      return {
        name: t.name,
        url: list?.url ?? t.url.trim(),
        method: t.method,
        headers: t.headers.map((h) => ({ name: h.name.trim(), value: h.value })),
        body:
          t.bodyKind === 'text'
            ? { kind: 'text', text: t.bodyText }
            : t.bodyKind !== 'file'
              ? { kind: 'none' }
              : t.bodyUpload
                ? { kind: 'upload', name: t.bodyUpload.name, data: t.bodyUpload.data }
                : { kind: 'file', path: t.bodyPath.trim() },
        monitor: monitorInput(t.monitor),
        ...routeInput(t),
        ...(list?.requests ? { requests: list.requests } : {}),
        ...(list?.order ? { order: list.order } : {}),
      };
    }),
    load:
      d.model === 'closed'
        ? {
            model: 'closed',
            connections: numberOrText(d.closed.connections),
            pipelining: numberOrText(d.closed.pipelining),
            limit:
              d.closed.limitKind === 'duration'
                ? { kind: 'duration', seconds: durationOrText(d.closed.seconds, 's') }
                : { kind: 'requests', count: numberOrText(d.closed.requests) },
            rate: optionalNumberOrText(d.closed.rate),
            ...stages,
          }
        : {
            model: 'open',
            rate: numberOrText(d.open.rate),
            durationSeconds: durationOrText(d.open.seconds, 's'),
            maxInFlight: numberOrText(d.open.maxInFlight),
            ...stages,
          },
    options: {
      keepAlive: d.keepAlive,
      checkStatus: d.checkStatus,
      protocol: d.protocol,
      engine: d.engine,
      workers: workersInput(d.workers),
      timeoutMs: durationOrText(d.timeoutMs, 'ms'),
      warmupSeconds: durationOrText(d.warmupSeconds, 's'),
      sloMs: optionalDurationOrText(d.sloMs, 'ms'),
      sampleIntervalMs: durationOrText(d.sampleIntervalMs, 'ms'),
      thresholds: d.thresholds.map((t) => ({ metric: t.metric, op: t.op, value: numberOrText(t.value) })),
      tls: tlsInput(d.tls),
    },
  };
}

export type DraftCheck =
  | { ok: true; scenario: Scenario; issues: ReadonlyMap<string, string> }
  | { ok: false; issues: ReadonlyMap<string, string>; list: FieldIssue[] };

/**
 * Validates the draft with the shared schema. Issues are keyed by field path
 * ("targets.0.url", "load.limit.seconds"); the first message per path wins.
 */
export function checkDraft(d: ScenarioDraft): DraftCheck {
  const r = parseWith(scenarioSchema, draftToInput(d));
  const unread = listParseIssues(d.targets);
  if (r.ok && unread.length === 0) return { ok: true, scenario: r.value, issues: new Map() };
  const all = [...unread, ...(r.ok ? [] : r.issues)];
  const issues = new Map<string, string>();
  for (const i of all) if (!issues.has(i.path)) issues.set(i.path, i.message);
  return {
    ok: false,
    issues: withListIssues(withRouteIssues(withMonitorIssues(issues, d.targets))),
    list: all,
  };
}
