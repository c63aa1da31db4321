import { useMemo } from 'react';
import { runExport } from '../../shared/export/run.ts';
import type { RunResult } from '../../shared/model/result.ts';
import { withoutSecrets } from '../../shared/model/secret-headers.ts';
import { ExportBar } from './ExportBar.tsx';

/**
 * A run's exports: its bundle (shared/export/run.ts), the files `trebuchet run --export`
 * writes, with secret header values cleared: a file leaves the app.
 */
export function ResultExports({ results, name }: { results: readonly RunResult[]; name: string }) {
  const bundle = useMemo(() => runExport({ name, results: withoutSecrets(results) }), [name, results]);
  if (results.length === 0) return null;
  return <ExportBar bundle={bundle} date={results[0]?.startedAt ?? ''} />;
}
