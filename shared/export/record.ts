/**
 * A History entry's export bundle: the one its kind's command writes (a run's, a comparison's,
 * a capacity search's), secret header values cleared as the CLI clears them, so the entry's
 * JSON file holds the bytes `--json` wrote. History's "Save as JSON" downloads its JSON file.
 * Pure.
 */
import { withoutSecrets } from '../model/secret-headers.ts';
import type { JobKind } from '../contract/jobs.ts';
import type { HistoryRecordOf } from '../records/history.ts';
import { capacityExport } from './capacity.ts';
import { comparisonExport } from './comparison.ts';
import type { ExportBundle, ExportItem } from './files.ts';
import { runExport } from './run.ts';

/** Each kind's bundle of its record: a kind without one is a type error here. */
const RECORD_EXPORTS: { readonly [K in JobKind]: (record: HistoryRecordOf<K>) => ExportBundle } = {
  run: (record) => runExport({ name: record.scenario.name, results: withoutSecrets(record.results) }),
  comparison: (record) =>
    comparisonExport(withoutSecrets({ plan: record.plan, status: record.status, outcomes: record.outcomes })),
  capacity: (record) =>
    capacityExport(withoutSecrets({ plan: record.plan, status: record.status, steps: record.steps })),
};

export function recordExport<K extends JobKind>(record: HistoryRecordOf<K>): ExportBundle {
  const bundle: (record: HistoryRecordOf<K>) => ExportBundle = RECORD_EXPORTS[record.kind];
  return bundle(record);
}

/** The bundle's JSON file: every bundle has one. */
export function jsonItemOf(bundle: ExportBundle): ExportItem {
  const item = bundle.items.find((i) => i.suffix === 'json');
  if (!item) throw new Error(`the export of ${bundle.base} has no JSON file`);
  return item;
}
