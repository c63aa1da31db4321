import {
  PREFLIGHT_FIX_LABELS,
  type PreflightFailure,
  type PreflightFix,
} from '../../../shared/model/preflight.ts';
import { shownUrl } from '../../../shared/format/labels.ts';

/** What each fix's button says: the fix, and that the comparison runs again with it. */
const FIX_BUTTONS: Record<PreflightFix, string> = {
  'turn-off-verification': 'Turn off certificate verification and run again',
  'choose-ca-file': 'Pick the CA file…',
  'use-http1': 'Compare over https (HTTP/1.1) and run again',
  'run-anyway': 'Run anyway',
};

/**
 * The URLs that failed the check before the first cell, each with why and what would get
 * past it; nothing was loaded. Shown where the matrix would be, not in a tooltip.
 */
export function PreflightFailures({
  failures,
  onFix,
}: {
  failures: readonly PreflightFailure[];
  onFix: (fix: PreflightFix) => void;
}) {
  return (
    <section className="card preflight" data-testid="preflight-failures" role="alert">
      <h2 className="preflight__title">
        The comparison did not start: {failures.length === 1 ? 'a URL' : `${failures.length} URLs`} failed the
        check before any load
      </h2>
      <ul className="preflight__list">
        {failures.map((f) => (
          <li
            key={`${f.url}|${f.protocol}`}
            className="preflight__item"
            data-testid="preflight-failure"
            data-url={f.url}
          >
            <div className="preflight__where">
              <code title={f.url}>{shownUrl(f.url)}</code>
              <span className="muted small">
                {f.protocol === 'h2' ? 'HTTP/2' : 'HTTP/1.1'} · {f.targets.join(', ')}
              </span>
            </div>
            <p className="preflight__why" data-testid="preflight-reason">
              {f.message}
            </p>
            {f.fixes.length > 0 && (
              <div className="preflight__fixes">
                {f.fixes.map((fix, i) => (
                  <button
                    key={fix}
                    type="button"
                    className={`btn btn--sm ${i === 0 ? 'btn--primary' : 'btn--secondary'}`}
                    title={PREFLIGHT_FIX_LABELS[fix]}
                    data-testid={`preflight-fix-${fix}`}
                    onClick={() => onFix(fix)}
                  >
                    {FIX_BUTTONS[fix]}
                  </button>
                ))}
              </div>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
