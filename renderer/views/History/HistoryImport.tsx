import { useRef, useState, type DragEvent } from 'react';
import type { TrebuchetApi } from '../../../shared/contract/api.ts';
import { LIMITS } from '../../../shared/model/defaults.ts';
import { formatBytes } from '../../../shared/figures/units.ts';
import type { ImportOutcome } from '../../../shared/records/import.ts';
import { Alert } from '../../components/Alert.tsx';
import { errorText } from '../../lib/errors.ts';

/** What the last import did, for its note. */
type ImportState = { busy: true } | { busy: false; outcome: ImportOutcome | null; error: string | null };

/**
 * History's import: result files dropped on the History tab or picked with its button, sent
 * to the host (history.import), which reads, checks and keeps them. `onImported` gets the ids
 * saved, the first to open.
 */
export function useHistoryImport(api: TrebuchetApi, onImported: (ids: string[]) => void) {
  const [state, setState] = useState<ImportState>({ busy: false, outcome: null, error: null });
  const importFiles = async (picked: readonly File[]): Promise<void> => {
    if (picked.length === 0) return;
    const total = picked.reduce((n, f) => n + f.size, 0);
    if (total > LIMITS.importBytes.max) {
      setState({
        busy: false,
        outcome: null,
        error: `These files are ${formatBytes(total)} together; one import takes at most ${formatBytes(LIMITS.importBytes.max)}. Import fewer at a time, or read a larger result with \`trebuchet report\`.`,
      });
      return;
    }
    setState({ busy: true });
    try {
      const files = await Promise.all(picked.map(async (f) => ({ name: f.name, text: await f.text() })));
      const outcome = await api.history.import({ files });
      setState({ busy: false, outcome, error: null });
      onImported(outcome.imported.map((i) => i.summary.id));
    } catch (e) {
      setState({ busy: false, outcome: null, error: errorText(e) });
    }
  };
  const dropProps = {
    onDragOver: (e: DragEvent) => {
      if (e.dataTransfer.types.includes('Files')) e.preventDefault();
    },
    onDrop: (e: DragEvent) => {
      if (e.dataTransfer.files.length === 0) return;
      e.preventDefault();
      void importFiles([...e.dataTransfer.files]);
    },
  };
  return { state, importFiles, dropProps };
}

/** The Import button (a file picker for result JSON files). */
export function ImportButton({ busy, onFiles }: { busy: boolean; onFiles: (files: File[]) => void }) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <button
        type="button"
        className="btn btn--secondary btn--sm"
        disabled={busy}
        title="Import result JSON files (trebuchet --json, a colleague's, shard results to merge); or drop them here"
        data-testid="history-import"
        onClick={() => input.current?.click()}
      >
        {busy ? 'Importing…' : 'Import…'}
      </button>
      <input
        ref={input}
        type="file"
        accept=".json,application/json"
        multiple
        hidden
        data-testid="history-import-input"
        onChange={(e) => {
          const files = [...(e.target.files ?? [])];
          e.target.value = '';
          onFiles(files);
        }}
      />
    </>
  );
}

/** What the last import did: the entries it made, and each file it refused with why. */
export function ImportNote({ state }: { state: ImportState }) {
  if (state.busy) return null;
  const { outcome, error } = state;
  return (
    <>
      <Alert tone="error" testId="history-import-error">
        {error}
      </Alert>
      {outcome && outcome.imported.length > 0 && (
        <Alert tone="ok" testId="history-import-done">
          Imported {outcome.imported.length === 1 ? 'one result' : `${outcome.imported.length} results`}
          {outcome.imported.some((i) => i.files.length > 1) &&
            ` (${outcome.imported
              .filter((i) => i.files.length > 1)
              .map((i) => `${i.files.length} shards merged`)
              .join(', ')})`}
          .
        </Alert>
      )}
      {outcome && outcome.problems.length > 0 && (
        <Alert tone="error" testId="history-import-problems">
          <ul className="history-import__problems">
            {outcome.problems.map((p) => (
              <li key={p.file}>{p.message}</li>
            ))}
          </ul>
        </Alert>
      )}
    </>
  );
}
