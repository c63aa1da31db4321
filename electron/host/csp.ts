import { CONTENT_SECURITY_POLICY } from '../../shared/contract/csp.ts';

/**
 * Headers every response of the renderer carries, from both hosts (the Electron app://
 * protocol and the web host); the policy itself lives in shared/contract/csp.ts.
 */
export function securityHeaders(): Record<string, string> {
  return {
    'content-security-policy': CONTENT_SECURITY_POLICY,
    'x-content-type-options': 'nosniff',
    // The page URL carries the web host's token: never leak it in a Referer.
    'referrer-policy': 'no-referrer',
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
  };
}
