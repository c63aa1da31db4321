import type { PreflightFailure } from '../model/preflight.ts';
import type { RunStatus } from '../model/result.ts';
import type { CellOutcome } from './cells.ts';
import type { ComparisonPlan } from './plan.ts';

/**
 * A comparison as it ended (or stands, status null while it runs): what its reports and
 * export files are made of, whichever host ran it and whenever it is shown again.
 */
export interface ComparisonResult {
  plan: ComparisonPlan;
  status: RunStatus | null;
  /** Every finished run, in run order. */
  outcomes: readonly CellOutcome[];
  /** The URLs that failed the check before any load (then nothing ran). */
  preflightFailures?: readonly PreflightFailure[];
}
