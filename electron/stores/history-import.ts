/**
 * Result files brought into History (dropped or picked in the History tab): each read as
 * `trebuchet report` reads one (result-text.ts: strict schemas, format versions, migration),
 * the shard results among them merged into one run as `trebuchet merge` merges them
 * (shared/shards/combine.ts, electron/engine/shards/merged-result.ts), and each saved as a
 * History entry. A bad file is a problem naming it; the other files still import.
 */
import {
  importedAt,
  importedDraft,
  type ImportFile,
  type ImportOutcome,
} from '../../shared/records/import.ts';
import { parseJsonText } from './files.ts';
import type { HistorySummary } from '../../shared/records/history.ts';
import { resultsOf, type SavedResult } from '../../shared/records/kinds.ts';
import { shardSet, type ShardFile } from '../../shared/shards/combine.ts';
import { mergeShardResults } from '../engine/shards/merged-result.ts';
import type { HistoryStore } from './history-store.ts';
import { savedResultFromJson } from './result-text.ts';

/**
 * The History entry an import would repeat: the same kind of record with as many results,
 * listed at the same moment. An import is listed by when its earliest result started, to the
 * millisecond, so a match is the same file imported again.
 */
function alreadyIn(
  known: readonly HistorySummary[],
  draft: ReturnType<typeof importedDraft>,
  at: Date | null,
): HistorySummary | undefined {
  const createdAt = at?.toISOString();
  const results = resultsOf(draft).length;
  return known.find((k) => k.kind === draft.kind && k.createdAt === createdAt && k.results === results);
}

/** A file of an import, its JSON read (the web host's, a chunk at a time as it arrives: host/import-body.ts). */
export interface ReadFile {
  name: string;
  json: { ok: true; value: unknown } | { ok: false; message: string };
}

/** The files of history.import's input (their texts, over IPC or the socket), each read. */
export function readImportTexts(files: readonly ImportFile[]): ReadFile[] {
  return files.map((f) => ({ name: f.name, json: parseJsonText(f.text, null) }));
}

export async function importIntoHistory(
  history: Pick<HistoryStore, 'save' | 'list'>,
  files: readonly ReadFile[],
  appVersion: string,
): Promise<ImportOutcome> {
  const outcome: ImportOutcome = { imported: [], problems: [] };
  const results: { files: string[]; saved: SavedResult }[] = [];
  const shards: ShardFile[] = [];
  for (const file of files) {
    const read = file.json.ok ? savedResultFromJson(file.json.value) : file.json;
    if (!read.ok) outcome.problems.push({ file: file.name, message: `${file.name}: ${read.message}` });
    else if (read.value.kind === 'run' && read.value.results.length === 1 && read.value.results[0]!.shard)
      shards.push({ file: file.name, result: read.value.results[0]! });
    else results.push({ files: [file.name], saved: read.value });
  }
  // The shards of one drop are one plan's, all of them, as `trebuchet merge` takes them.
  if (shards.length > 0) {
    const set = shardSet(shards);
    const names = shards.map((s) => s.file);
    if (set.ok)
      results.push({ files: names, saved: { kind: 'run', results: [mergeShardResults(set.shards)] } });
    else outcome.problems.push({ file: names.join(', '), message: set.message });
  }
  const known = await history.list();
  for (const { files: from, saved } of results) {
    const draft = importedDraft(saved, appVersion, from.length === 1 ? from[0] : undefined);
    const at = importedAt(draft);
    const same = alreadyIn(known, draft, at);
    if (same) {
      const message = `${from.join(', ')}: already in History as “${same.name}” (${same.createdAt}); not imported again`;
      outcome.problems.push({ file: from.join(', '), message });
      continue;
    }
    try {
      const summary = await history.save(draft, at ?? undefined);
      known.push(summary);
      outcome.imported.push({ files: from, summary });
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      outcome.problems.push({ file: from.join(', '), message: `${from.join(', ')}: ${message}` });
    }
  }
  return outcome;
}
