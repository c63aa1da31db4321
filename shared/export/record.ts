/**
 * A History entry's export bundle: the one its kind's command writes (a run's, a comparison's,
 * a capacity search's), secret header values cleared as the CLI clears them, so the entry's
 * JSON file holds the bytes `--json` wrote. History's "Save as JSON" downloads its JSON part.
 * Pure.
 */
import { withoutSecrets } from '../model/secret-headers.ts';
import type { HistoryRecord } from '../records/history.ts';
import { capacityExport } from './capacity.ts';
import { comparisonExport } from './comparison.ts';
import type { ExportBundle, ExportPart } from './files.ts';
import { runExport } from './run.ts';

export function recordExport(record: HistoryRecord): ExportBundle {
  switch (record.kind) {
    case 'run':
      return runExport({ name: record.scenario.name, results: withoutSecrets(record.results) });
    case 'comparison':
      return comparisonExport(
        withoutSecrets({ plan: record.plan, status: record.status, outcomes: record.outcomes }),
      );
    case 'capacity':
      return capacityExport(
        withoutSecrets({ plan: record.plan, status: record.status, steps: record.steps }),
      );
  }
}

/** The bundle's JSON file: every bundle has one. */
export function jsonPartOf(bundle: ExportBundle): ExportPart {
  const part = bundle.parts.find((p) => p.part === 'json');
  if (!part) throw new Error(`the export of ${bundle.base} has no JSON file`);
  return part;
}
