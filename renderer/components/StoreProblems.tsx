import { Alert } from './Alert.tsx';
import type { StoreProblem } from '../../shared/records/preset-summary.ts';

/** Store files that were broken and kept aside (or secrets that could not be decrypted). */
export function StoreProblems({ problems }: { problems: readonly StoreProblem[] }) {
  if (problems.length === 0) return null;
  return (
    <Alert tone="warn" className="store-problems" testId="store-problems">
      {problems.map((p) => (
        <p key={`${p.file}|${p.at}|${p.message}`}>{p.message}</p>
      ))}
    </Alert>
  );
}
