/**
 * A pre-flight's fixes as the command line takes them: each with the flag that applies it, so
 * a refusal names its way out ("Turn off certificate verification (--insecure)"). A run's
 * report and a comparison's say them the same way. Pure.
 */
import { PREFLIGHT_FIX_LABELS, type PreflightFix } from '../model/preflight.ts';

/** A comparison preset's flags (`trebuchet run --preset`): its h2 cells come from the preset. */
export const PREFLIGHT_FIX_FLAGS: Record<PreflightFix, string> = {
  'turn-off-verification': '--insecure',
  'choose-ca-file': '--cacert FILE',
  'use-http1': 'an https cell instead of h2 in the preset',
  'run-anyway': '--allow-error-status',
};

/** A scenario's (`trebuchet run URL`): HTTP/2 is its --http2 flag. */
const RUN_FIX_FLAGS: Record<PreflightFix, string> = {
  ...PREFLIGHT_FIX_FLAGS,
  'use-http1': 'leave out --http2',
};

/** "Turn off certificate verification (--insecure)". */
export function fixText(fix: PreflightFix, of: 'run' | 'comparison'): string {
  return `${PREFLIGHT_FIX_LABELS[fix]} (${(of === 'run' ? RUN_FIX_FLAGS : PREFLIGHT_FIX_FLAGS)[fix]})`;
}
