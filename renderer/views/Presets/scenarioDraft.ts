import { monitorText } from '../../../shared/model/monitor.ts';
import type { Scenario } from '../../../shared/model/scenario.ts';
import { defaultDraft, newKey, tlsDraftOf, type ScenarioDraft } from '../../editor/draft.ts';
import { pickedBodyOf } from '../../editor/pickedFile.ts';
import { listDraftOf } from '../../editor/listDraft.ts';
import { routeDraftOf } from '../../editor/routeDraft.ts';

const text = (n: number | null): string => (n === null ? '' : String(n));

/**
 * The editor's draft for a saved scenario (a preset, a run from history): the inverse of
 * the editor's draftToInput, so loading and running again gives the same scenario. Fields
 * of the model not in use keep the editor's defaults, so switching model starts sensibly.
 */
export function draftFromScenario(s: Scenario): ScenarioDraft {
  const base = defaultDraft();
  const o = s.options;
  const load = s.load;
  return {
    ...base,
    name: s.name,
    targets: s.targets.map((t) => ({
      key: newKey('t'),
      name: t.name,
      url: t.url,
      method: t.method,
      headers: t.headers.map((h) => ({ key: newKey('h'), name: h.name, value: h.value })),
      // A picked file is a file body that came from the browser.
      bodyKind: t.body.kind === 'upload' ? 'file' : t.body.kind,
      bodyText: t.body.kind === 'text' ? t.body.text : '',
      bodyPath: t.body.kind === 'file' ? t.body.path : '',
      ...(t.body.kind === 'upload' ? { bodyUpload: pickedBodyOf(t.body) } : {}),
      monitor: monitorText(t.monitor),
      ...routeDraftOf(t),
      ...(t.requests ? { list: listDraftOf(t)! } : {}),
    })),
    model: load.model,
    closed:
      load.model === 'closed'
        ? {
            connections: String(load.connections),
            pipelining: String(load.pipelining),
            limitKind: load.limit.kind,
            seconds: load.limit.kind === 'duration' ? String(load.limit.seconds) : base.closed.seconds,
            requests: load.limit.kind === 'requests' ? String(load.limit.count) : base.closed.requests,
            rate: text(load.rate),
          }
        : base.closed,
    open:
      load.model === 'open'
        ? {
            rate: String(load.rate),
            seconds: String(load.durationSeconds),
            maxInFlight: String(load.maxInFlight),
          }
        : base.open,
    staged: load.stages !== undefined,
    stages: (load.stages ?? []).map((st) => ({
      key: newKey('st'),
      seconds: String(st.durationSeconds),
      target: String(st.target),
    })),
    keepAlive: o.keepAlive,
    checkStatus: o.checkStatus,
    protocol: o.protocol,
    engine: o.engine,
    workers: String(o.workers),
    timeoutMs: String(o.timeoutMs),
    warmupSeconds: String(o.warmupSeconds),
    sloMs: text(o.sloMs),
    sampleIntervalMs: String(o.sampleIntervalMs),
    tls: tlsDraftOf(o.tls),
    thresholds: o.thresholds.map((t) => ({
      key: newKey('th'),
      metric: t.metric,
      op: t.op,
      value: String(t.value),
    })),
  };
}
