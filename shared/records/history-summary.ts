/**
 * A History record's line in the list (HistorySummary, kept in the history folder's index):
 * its targets, what it ran, its figures per target, its verdict, its subject. Pure.
 */
import type { RunResult } from '../model/result.ts';
import { verdictTone, verdictWord, worstVerdict } from '../verdict/verdict.ts';
import type { HistoryRecord, HistorySummary } from './history.ts';
import { recordKind, resultsOf, whatRan } from './kinds.ts';

/** What a record ran, for baselines (shared/records/baselines.ts): "run · nginx static". */
export function subjectOf(record: HistoryRecord): string {
  return `${record.kind} · ${recordKind(record.kind).planOf(record).name.trim()}`;
}

export function summarizeRecord(record: HistoryRecord, bytes: number): HistorySummary {
  const spec = recordKind(record.kind);
  const results = resultsOf(record);
  return {
    id: record.id,
    name: record.name,
    createdAt: record.createdAt,
    status: record.status,
    kind: record.kind,
    appVersion: record.appVersion,
    targets: spec.targets(spec.planOf(record)).map((t) => t.label),
    ran: whatRan(record),
    results: results.length,
    perTarget: spec.perTarget(record),
    bytes,
    verdict: spec.judged ? verdictOf(results) : null,
    subject: subjectOf(record),
    startedAt: startedAtOf(results),
    requests: results.filter((r) => r.status !== 'interrupted').reduce((n, r) => n + r.requests.total, 0),
  };
}

function verdictOf(results: readonly RunResult[]): HistorySummary['verdict'] {
  const v = worstVerdict(results);
  return { word: verdictWord(v), tone: verdictTone(v) };
}

/** The earliest start among results, as written; null without any. */
function startedAtOf(results: readonly RunResult[]): string | null {
  let first: { at: number; text: string } | null = null;
  for (const r of results) {
    const at = Date.parse(r.startedAt);
    if (!Number.isNaN(at) && (first === null || at < first.at)) first = { at, text: r.startedAt };
  }
  return first?.text ?? null;
}
