import type { RunResult } from '../../shared/model/result.ts';
import { reportWarnings } from './reportModel.ts';

export function Warnings({ result }: { result: RunResult }) {
  const warnings = reportWarnings(result);
  if (warnings.length === 0) return null;
  return (
    <ul className="warnings" data-testid="warnings">
      {warnings.map((w) => (
        <li
          key={w.code}
          className={`warning warning--${w.code === 'closed-loop-latency' ? 'info' : 'warn'}`}
          data-code={w.code}
        >
          {w.message}
        </li>
      ))}
    </ul>
  );
}
