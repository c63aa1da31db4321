import { verdictTone, verdictWord, type Verdict } from '../../shared/verdict/verdict.ts';
import './verdict.css';

/**
 * Whether the run's figures are the server's, above them: a green line when they are, the
 * caveats in words when not (every response a 404, the rate not reached, the client flat out...).
 */
export function VerdictBanner({ verdict }: { verdict: Verdict }) {
  const tone = verdictTone(verdict);
  return (
    <section
      className={`verdict verdict--${tone}`}
      data-testid="verdict"
      data-state={verdict.state}
      role={tone === 'bad' ? 'status' : undefined}
    >
      <span className={`verdict-badge verdict-badge--${tone}`} data-testid="verdict-state">
        {verdictWord(verdict)}
      </span>
      {tone === 'good' ? (
        <span className="verdict__headline">The figures are the server’s.</span>
      ) : (
        <ul className="verdict__caveats">
          {verdict.caveats.map((c) => (
            <li key={c.code} data-code={c.code} data-severity={c.severity}>
              {c.message}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
