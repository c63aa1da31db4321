import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

const root = fileURLToPath(new URL('.', import.meta.url));

/**
 * The built page carries its own CSP, so the renderer is locked down whichever host serves it;
 * both hosts also send the same policy as a header (electron/host/csp.ts): keep them equal.
 * Only in the build: the dev server's React refresh preamble is an inline script this policy
 * would block. (frame-ancestors is header-only, so it is not repeated here.)
 */
const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

function contentSecurityPolicy(): Plugin {
  return {
    name: 'trebuchet-csp',
    apply: 'build',
    transformIndexHtml: () => [
      {
        tag: 'meta',
        attrs: { 'http-equiv': 'Content-Security-Policy', content: CSP },
        injectTo: 'head-prepend',
      },
    ],
  };
}

export default defineConfig({
  root,
  // Relative asset URLs, so Electron's file:// load finds them.
  base: './',
  plugins: [react(), contentSecurityPolicy()],
  build: {
    outDir: fileURLToPath(new URL('../dist/renderer', import.meta.url)),
    emptyOutDir: true,
    // One self-contained bundle per entry; nothing fetched from elsewhere.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    // One bundle of zod, React and chart.js, loaded from disk or loopback: size is not a concern.
    chunkSizeWarningLimit: 1024,
  },
});
