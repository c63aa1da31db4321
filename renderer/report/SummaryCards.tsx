import type { RunResult } from '../../shared/model/result.ts';
import type { Verdict } from '../../shared/verdict/verdict.ts';
import { summaryCards } from '../../shared/format/cards.ts';

/** The headline figures; one a caveat makes not the server's is outlined, with why. */
export function SummaryCards({ result, verdict }: { result: RunResult; verdict: Verdict }) {
  return (
    <div className="summary-cards" data-testid="summary">
      {summaryCards(result, verdict).map((c) => (
        <div
          key={c.id}
          className={`summary-card${c.tone ? ` summary-card--${c.tone}` : ''}${c.caveat ? ' summary-card--caveat' : ''}`}
          data-testid={`summary-card-${c.id}`}
          data-caveat={c.caveat ? 'true' : undefined}
          title={c.caveat}
        >
          <span className="summary-card__label">
            {c.label}
            {c.caveat && (
              <span className="caveat-mark" aria-label="not the server's figure">
                !
              </span>
            )}
          </span>
          <span
            className="summary-card__value"
            data-testid={`summary-${c.id}`}
            data-value={c.raw ?? undefined}
          >
            {c.value}
          </span>
          <span className="summary-card__detail" data-testid={`summary-${c.id}-detail`}>
            {c.detail}
          </span>
        </div>
      ))}
    </div>
  );
}
