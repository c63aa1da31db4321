/**
 * The check a comparison makes before its first cell: every distinct URL (with its protocol
 * and TLS options) gets the engine's pre-flight, and a failure stops the comparison before
 * any load with, per failing URL, the reason and the fix where there is one. Pure: schemas
 * and the choice of fixes; the check itself runs on the host (electron/engine/preflight/target-check.ts).
 */
import { z } from 'zod';
import { errorKindSchema, type ErrorKind, type RunResult, type TlsFacts } from './result.ts';
import type { RunOptions } from './scenario.ts';

/** What a person can change to get past a failure, in the plan's options. */
export const PREFLIGHT_FIXES = [
  'turn-off-verification',
  'choose-ca-file',
  'use-http1',
  'run-anyway',
] as const;
export const preflightFixSchema = z.enum(PREFLIGHT_FIXES);
export type PreflightFix = z.infer<typeof preflightFixSchema>;

export const PREFLIGHT_FIX_LABELS: Record<PreflightFix, string> = {
  'turn-off-verification': 'Turn off certificate verification',
  'choose-ca-file': "Pick the CA file that signed the server's certificate",
  'use-http1': 'Compare this server over https (HTTP/1.1) instead of h2',
  'run-anyway': 'Run anyway, to measure this answer on purpose (the verdict will say so)',
};

/**
 * How a fix reads on the command line, for a comparison preset (`trebuchet run --preset`: its
 * h2 cells come from the preset), so a refusal names its way out.
 */
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

/** "Turn off certificate verification (--insecure)": a fix with the flag that applies it. */
export function fixText(fix: PreflightFix, of: 'run' | 'comparison'): string {
  return `${PREFLIGHT_FIX_LABELS[fix]} (${(of === 'run' ? RUN_FIX_FLAGS : PREFLIGHT_FIX_FLAGS)[fix]})`;
}

/** One distinct URL as checked: which targets use it, over which protocol. */
export const preflightCheckSchema = z.strictObject({
  url: z.string(),
  protocol: z.enum(['http1.1', 'h2']),
  /** Display names of the plan's targets measured at this URL and protocol. */
  targets: z.array(z.string()),
});
export type PreflightCheck = z.infer<typeof preflightCheckSchema>;

export const preflightFailureSchema = preflightCheckSchema.extend({
  kind: errorKindSchema,
  /** The pre-flight's message: what failed, with the URL. */
  message: z.string(),
  /** What would get past it, best first; empty when only the server or URL can change. */
  fixes: z.array(preflightFixSchema),
});
export type PreflightFailure = z.infer<typeof preflightFailureSchema>;

/** What the pre-flight saw, as far as the choice of a fix needs it. */
export interface FailureFacts {
  kind: ErrorKind;
  /** The TLS handshake finished but verification rejected the server's certificate. */
  certificateRejected: boolean;
  /** HTTP/2 was asked for and the server's ALPN answer was not h2. */
  h2Refused: boolean;
}

/**
 * The facts of a failed check: its error's kind, and what the TLS handshake said against what
 * was asked (certificates verified, HTTP/2).
 */
export function failureFacts(
  kind: ErrorKind,
  options: { protocol: RunOptions['protocol']; tls: { verify: boolean } },
  tls: Pick<TlsFacts, 'authorizationError' | 'alpn'> | null,
): FailureFacts {
  return {
    kind,
    certificateRejected:
      kind === 'tls' && options.tls.verify && tls !== null && tls.authorizationError !== null,
    h2Refused: kind === 'protocol' && options.protocol === 'h2' && tls !== null && tls.alpn !== 'h2',
  };
}

/** What would get a run refused by its pre-flight past it (its fixes); none for a run that was not. */
export function fixesOfResult(r: RunResult): PreflightFix[] {
  if (r.status !== 'failed' || r.error === null) return [];
  return fixesFor(failureFacts(r.error.kind, r.options, r.tls));
}

export function fixesFor(f: FailureFacts): PreflightFix[] {
  if (f.certificateRejected) return ['turn-off-verification', 'choose-ca-file'];
  if (f.h2Refused) return ['use-http1'];
  // An error status may be what someone means to measure (a 404 page's speed).
  if (f.kind === 'status') return ['run-anyway'];
  return [];
}

/** What checking one URL gives: passed, or why not and what would fix it. */
export type TargetCheckResult =
  { ok: true } | { ok: false; kind: ErrorKind; message: string; fixes: PreflightFix[] };
