import type { HistorySummary } from '../../../shared/records/history.ts';
import { recordStatusText } from '../../../shared/model/interruption.ts';

/**
 * How a saved run ended, as the list shows it: a run that completed but whose figures are not
 * the server's (every response a 404, client-bound, failures) shows its verdict's word in the
 * verdict's colour, never a green "completed"; a stopped or failed one says so, and one the
 * host never finished says when it was interrupted.
 */
export function RecordStatus({ summary }: { summary: HistorySummary }) {
  const { status, verdict } = summary;
  const marked = status === 'completed' && verdict !== null && verdict.tone === 'bad';
  return (
    <span
      className={`status status--${marked ? 'bad' : status}`}
      data-testid="history-status"
      data-verdict={verdict?.word ?? ''}
      title={verdict ? `Verdict: ${verdict.word}` : undefined}
    >
      {marked ? verdict.word : recordStatusText(summary)}
    </span>
  );
}
