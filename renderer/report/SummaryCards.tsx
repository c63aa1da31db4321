import type { RunResult } from '../../shared/result.ts';
import { summaryCards } from './reportModel.ts';

export function SummaryCards({ result }: { result: RunResult }) {
  return (
    <div className="summary-cards" data-testid="summary">
      {summaryCards(result).map((c) => (
        <div
          key={c.id}
          className={`summary-card${c.tone ? ` summary-card--${c.tone}` : ''}`}
          data-testid={`summary-card-${c.id}`}
        >
          <span className="summary-card__label">{c.label}</span>
          <span
            className="summary-card__value"
            data-testid={`summary-${c.id}`}
            data-value={c.raw ?? undefined}
          >
            {c.value}
          </span>
          <span className="summary-card__detail">{c.detail}</span>
        </div>
      ))}
    </div>
  );
}
