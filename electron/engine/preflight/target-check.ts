import type { TargetCheckResult } from '../../../shared/model/preflight.ts';
import { failureFacts, fixesFor } from '../../../shared/model/preflight.ts';
import type { Scenario } from '../../../shared/model/scenario.ts';
import { preflight } from './preflight.ts';
import { buildRunSpec } from '../spec.ts';

/**
 * The engine's pre-flight of a scenario's first target, run on the caller's event loop (one
 * request, no load): what a comparison checks for each distinct URL before its first cell.
 * Reads the body and CA files as a run would (an unreadable one fails the check). Never throws.
 */
export async function checkTarget(
  scenario: Scenario,
  opts: { appVersion: string; signal: AbortSignal },
): Promise<TargetCheckResult> {
  const built = await buildRunSpec(scenario, 0, { runId: 'preflight', appVersion: opts.appVersion });
  if (!built.ok) {
    const error = built.result.error ?? { kind: 'other' as const, message: 'the run could not be prepared' };
    return { ok: false, kind: error.kind, message: error.message, fixes: [] };
  }
  // Stopped while the files were read: preflight() would not hear an abort that came before it.
  if (opts.signal.aborted)
    return { ok: false, kind: 'other', message: 'stopped before the load began', fixes: [] };
  const outcome = await preflight(built.spec, opts.signal);
  if (outcome.ok) return { ok: true };
  const { error, tls } = outcome;
  return {
    ok: false,
    kind: error.kind,
    message: error.message,
    fixes: fixesFor(failureFacts(error.kind, built.spec.options, tls)),
  };
}
