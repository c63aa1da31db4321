/**
 * The renderer's Content-Security-Policy, sent as a response header by both hosts (the
 * Electron app:// protocol and the web host). Everything comes from the app's own origin:
 * no inline or eval'd script, no remote content, no plugins, no framing. The built
 * index.html carries the same policy in a meta tag (renderer/vite.config.ts); browsers
 * enforce both, so they must agree. connect-src 'self' also covers the web host's
 * same-origin WebSocket (CSP Level 3).
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Headers every response of the renderer carries. */
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
