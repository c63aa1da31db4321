/**
 * The renderer's Content-Security-Policy, in one place. Everything comes from the app's own
 * origin: no inline or eval'd script, no remote content, no plugins. connect-src 'self' also
 * covers the web host's same-origin WebSocket (CSP Level 3).
 *
 * Browsers enforce both copies: the built index.html's meta tag (renderer/vite.config.ts)
 * and the header both hosts send (electron/host/csp.ts). frame-ancestors is header-only
 * (a meta tag's is ignored), so it is added to the header's policy alone.
 */
const DIRECTIVES = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
] as const;

/** The policy for a <meta http-equiv="Content-Security-Policy"> tag. */
export const META_CONTENT_SECURITY_POLICY = DIRECTIVES.join('; ');

/** The policy for the Content-Security-Policy response header: the meta policy plus no framing. */
export const CONTENT_SECURITY_POLICY = [...DIRECTIVES, "frame-ancestors 'none'"].join('; ');
